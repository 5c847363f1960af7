"""Issue 14 point 12: one word, `end`, for "end this step" in every ruleset (`arbitro submit GAME --as SEAT end`),
online and offline: the one bare end_... or pass command the seat may send now; refused (exit 2) when there is
none or more than one, naming what to send instead."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbitro.adjudicator.cli_play import end_command
from arbitro.adjudicator.errors import BadInput

from .conftest import Cli


def test_end_is_each_rulesets_end_of_step(run: Cli) -> None:
    run("new", "marengo", "marengo", "--id", "m")
    ended = run.json("submit", "m", "--as", "austria", "end")
    assert any(e["type"] == "turn_ended" for e in ended["events"])  # Marengo's end_turn (marengo §7)
    run("new", "caldiero", "historical", "--id", "c")
    assert run.json("legal", "c", "--as", "austria", "--type", "end_step") == [{"type": "end_step"}]
    assert any(e["type"] == "setup_ended" for e in run.json("submit", "c", "--as", "austria", "end")["events"])
    refused = run("submit", "c", "--as", "austria", "end", code=2).stderr
    assert "austria has no step to end now in c" in refused


def test_end_offline_writes_the_command_it_stands_for(run: Cli, tmp_path: Path) -> None:
    run("new", "marengo", "marengo", "--id", "m")
    export, copy = tmp_path / "for-austria.jsonl", Cli(tmp_path / "austria.db")
    run("export", "m", "--as", "austria", "-o", str(export))
    copy("import", str(export))
    copy("submit", "m", "--as", "austria", "--offline", "-o", str(tmp_path / "end.json"), "end")
    assert json.loads((tmp_path / "end.json").read_text())["command"] == {"type": "end_turn"}


class TwoEnds:
    """A game whose seat may end its activation or its turn: `end` is ambiguous there."""

    def legal(self, game: str, seat: str) -> list[dict[str, str]]:
        return [{"type": "move", "unit": "u1"}, {"type": "end_activation"}, {"type": "end_turn"}]


def test_end_is_refused_where_it_could_mean_two_commands() -> None:
    with pytest.raises(BadInput, match="could mean end_activation or end_turn") as refused:
        end_command(TwoEnds(), "g", "red")  # type: ignore[arg-type]
    assert refused.value.exit_status == 2
