"""A position's overrides, the generic part (adjudicator/overrides.py, issue 19 item 13): a ruleset that names no
kind refuses every override, and a malformed list is refused saying what it should be."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbitro.adjudicator.errors import BadPosition
from arbitro.adjudicator.service import Arbitro

from .conftest import position_file


def test_a_ruleset_without_override_kinds_refuses_every_override(app: Arbitro, tmp_path: Path) -> None:
    position = json.loads(position_file(tmp_path).read_text(encoding="utf-8"))
    assert app.status(app.create("duel", position=position)).non_standard == []
    with pytest.raises(BadPosition, match=r"overrides\[0\]: unknown kind 'hp'; duel's kinds are: none"):
        app.create("duel", position={**position, "overrides": [{"kind": "hp", "red": 12}]})
    with pytest.raises(BadPosition, match='"overrides" is a list of objects'):
        app.create("duel", position={**position, "overrides": {"kind": "hp"}})
    assert len(app.games()) == 1  # nothing refused was stored
