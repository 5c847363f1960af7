"""bench/drivers/compare_events.py: two exports of one game compared event by event; `--ignore-commands` compares the
events alone, for a log whose translator dropped a command and so numbered the later ones anew."""

from __future__ import annotations

import json
from pathlib import Path

from bench.drivers import compare_events


def export(path: Path, events: list[tuple[int, dict[str, object]]]) -> Path:
    path.write_text("".join(json.dumps({"record": "event", "body": {"cmd": cmd, "event": e}}) + "\n"
                            for cmd, e in events), encoding="utf-8")
    return path


def test_a_dropped_command_differs_by_number_alone(tmp_path: Path) -> None:
    ended = {"type": "combat_ended", "rule": "caldiero §12.1"}
    old = export(tmp_path / "old.jsonl", [(409, {"type": "decline_noted"}), (411, ended)])
    new = export(tmp_path / "new.jsonl", [(409, {"type": "decline_noted"}), (410, ended)])
    assert compare_events.main([str(old), str(new)]) == 1
    assert compare_events.main([str(old), str(new), "--ignore-commands"]) == 0
    other = export(tmp_path / "other.jsonl", [(409, {"type": "decline_noted"}), (410, {"type": "combat_ended"})])
    assert compare_events.main([str(old), str(other), "--ignore-commands"]) == 1


def test_a_data_change_differs_in_the_genesis_alone(tmp_path: Path) -> None:
    """`--ignore-genesis`: two logs whose genesis differs (a data hash) and nothing else compare the same; a later
    difference is still found."""
    ended = {"type": "combat_ended", "rule": "caldiero §12.1"}
    old = export(tmp_path / "old.jsonl", [(0, {"type": "game_created", "data_hash": "a"}), (1, ended)])
    new = export(tmp_path / "new.jsonl", [(0, {"type": "game_created", "data_hash": "b"}), (1, ended)])
    assert compare_events.main([str(old), str(new)]) == 1
    assert compare_events.main([str(old), str(new), "--ignore-genesis"]) == 0
    other = export(tmp_path / "other.jsonl", [(0, {"type": "game_created", "data_hash": "b"}), (1, {"type": "x"})])
    assert compare_events.main([str(old), str(other), "--ignore-genesis"]) == 1
