"""What both Para Bellum games report as provisional (a reconstruction, not printed in the book) is what their data
files mark, and only that: every line `provisional()` reports names a file and parts of it that carry marks, and every
mark in a shipped file is reported (parabellum/loader.py `provisional_markers`, `provisional_report`). The marks are
found here by a walk of the files' JSON of its own, not by the program's."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.parabellum.loader import DataFolder

GAMES = {"caldiero": ("historical",), "arrivano": ("montebello", "campotenese")}


def _marks(value: Any, path: str) -> set[str]:
    """Every `provisional` that is true or names fields, and every `*_provisional` that is true, below `value`."""
    if isinstance(value, list):
        return {m for i, item in enumerate(value) for m in _marks(item, f"{path}[{i}]")}
    if not isinstance(value, dict):
        return set()
    found: set[str] = set()
    for key, item in value.items():
        if key == "provisional" or key.endswith("_provisional"):
            found |= {f"{path}.{key}"} if item is True or (isinstance(item, list) and item) else set()
        else:
            found |= _marks(item, f"{path}.{key}")
    return found


def _marked_in_files(folder: DataFolder[Any]) -> set[tuple[str, str]]:
    """(file, JSON path) of every mark of a shipped folder; a `meta` that does not say is one (data.Meta's default)."""
    found: set[tuple[str, str]] = set()
    for name, text in folder.shipped_files().items():
        doc = json.loads(text)
        found |= {(name, path) for path in _marks(doc, "$")}
        meta = doc.get("meta") if isinstance(doc, dict) else None
        if isinstance(meta, dict) and "title" in meta and "provisional" not in meta:
            found.add((name, "$.meta.provisional"))
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_mark_in_the_files_is_known_and_nothing_else(game: str) -> None:
    ruleset = registry.get(game)
    held = {(m.file, m.path) for s in GAMES[game] for m in ruleset.scenario_data(s).provisional}
    assert held == _marked_in_files(ruleset.folder)


@pytest.mark.parametrize("game,scenario", [(g, s) for g, names in sorted(GAMES.items()) for s in names])
def test_every_reported_line_is_a_marked_file_and_every_marked_file_is_reported(game: str, scenario: str) -> None:
    ruleset = registry.get(game)
    marks = ruleset.scenario_data(scenario).provisional
    lines = ruleset.provisional(scenario)
    reported = [line.split(" (", 1)[0].split(":", 1)[0] for line in lines]
    assert reported == sorted({m.file for m in marks})
    for line, name in zip(lines, reported):
        parts = line.rsplit("reconstructed: ", 1)[1].split(", ") if "reconstructed: " in line else []
        paths = [m.path for m in marks if m.file == name]
        for part in parts:  # each part reported is the start of a marked path in that file
            assert any(p.removeprefix("$.").startswith(part.split(" (")[0]) for p in paths), (line, part)
        whole = any(p in ("$.provisional", "$.meta.provisional") for p in paths)
        assert ("the whole file" in line) == whole, line


def test_a_mark_changed_in_a_users_folder_changes_the_report() -> None:
    """The report reads the data a game is played on: a user's folder that unmarks the CRT and marks the orders
    table's Advance order is reported so (and a shipped game is not)."""
    ruleset = registry.get("caldiero")
    files = ruleset.shipped_data()
    crt, orders = json.loads(files["tables/crt.json"]), json.loads(files["tables/orders.json"])
    crt["meta"]["provisional"] = False
    orders["meta"]["provisional"] = True
    own = {**files, "tables/crt.json": json.dumps(crt), "tables/orders.json": json.dumps(orders)}
    with ruleset.using_data(own):
        lines = ruleset.provisional("historical")
    assert not any(line.startswith("tables/crt.json") for line in lines)
    assert any(line.startswith("tables/orders.json") and "the whole file" in line for line in lines)
    shipped = ruleset.provisional("historical")
    assert any(line.startswith("tables/crt.json") for line in shipped) and not any(line.startswith("tables/orders.json") for line in shipped)
