"""rev-r (twentieth session): an export whose lines were edited into another shape (a number where the engine writes a
string, a list for a number, a field left out) is a BadFile naming its line, for verify and import alike. A mutation
fuzzer over a duel's exports found nine such edits that passed the reader and failed deep in a check with a
TypeError, KeyError or OverflowError: `arbitro verify FILE` and `arbitro import FILE` printed a traceback, and HTTP
POST /verify (any token's) and /import answered 500."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from arbitro.adjudicator.errors import BadFile
from arbitro.adjudicator.service import Arbitro

from .conftest import Cli

Edit = Callable[[dict[str, Any]], None]


def played(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})


def edited(lines: list[str], kind: str, edit: Edit) -> list[str]:
    """LINES with the first record of KIND edited (the second for a command: the first seat's)."""
    records = [json.loads(line) for line in lines]
    of_kind = [r for r in records if r["record"] == kind]
    edit(of_kind[1 if kind == "command" else 0])
    return [json.dumps(r) for r in records]


FULL: dict[str, tuple[str, Edit]] = {
    "a command's first event a string": ("command", lambda r: r.update(first_seq="")),
    "a command's last event a list": ("command", lambda r: r.update(last_seq=[1])),
    "a command's first event past 64 bits": ("command", lambda r: r.update(first_seq=2**70)),
    "a command's number a boolean": ("command", lambda r: r.update(cmd=True)),
    "an event's number a string": ("event", lambda r: r.update(seq="1")),
    "an event without its hash": ("event", lambda r: r.pop("hash")),
    "a record kind that is a list": ("event", lambda r: r.update(record=["event"])),
}
SEAT: dict[str, tuple[str, Edit]] = {
    "an item's command a list": ("item", lambda r: r.update(cmd=[])),
    "an item's command an object": ("item", lambda r: r.update(cmd={"a": None})),
    "an item without its number": ("item", lambda r: r.pop("seq")),
    "an item without its hash": ("item", lambda r: r.pop("hash")),
    "an item's event a list": ("item", lambda r: r.update(events=[[]])),
    "the seat an object": ("game", lambda r: r.update(redacted_for={"a": None})),
    "the server key a list": ("game", lambda r: r.update(server_key=[])),
}


@pytest.mark.parametrize("name", sorted(FULL))
def test_a_full_export_edited_out_of_shape_is_a_bad_file(app: Arbitro, name: str) -> None:
    played(app)
    lines = edited(list(app.export("g", "umpire", with_seed=True)), *FULL[name])
    with pytest.raises(BadFile, match=r"line \d+: "):
        app.verify_lines(lines, "g.jsonl")
    with pytest.raises(BadFile, match=r"line \d+: .*nothing imported"):
        app.import_lines(lines, "g.jsonl", seat="umpire", as_id="c")


@pytest.mark.parametrize("name", sorted(SEAT))
def test_a_seats_export_edited_out_of_shape_is_a_bad_file(app: Arbitro, name: str) -> None:
    played(app)
    with pytest.raises(BadFile, match=r"line \d+: "):
        app.verify_lines(edited(list(app.export("g", "red")), *SEAT[name]), "red.jsonl")


def test_the_cli_names_the_line_not_a_traceback(app: Arbitro, run: Cli, tmp_path: Any) -> None:
    played(app)
    file = tmp_path / "g.jsonl"
    file.write_text("\n".join(edited(list(app.export("g", "umpire")), "command", lambda r: r.update(first_seq=""))))
    refused = run("verify", str(file), code=2)
    assert "malformed command record ('first_seq' is \"\", not a whole number from 0)" in refused.stderr
