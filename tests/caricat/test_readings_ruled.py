"""rev-f F6: the interpretations a Caricat decision reads (caricat/flow.Game.readings, kept for one decision) follow
an umpire's ruling made between two commands. A Game, or any longer-lived cache of the readings, kept across
decisions would answer the next command by the reading before the ruling: this test fails then.

Broglia's brigade at Attack (caricat §3.1 "obbligate a muoversi alla massima velocità possibile verso il più vicino
nemico"), interpretation attack_speed: under `full_speed` (the default) savoia1 moving one hex nearer the enemy, when
four were possible, is refused and not listed; the umpire rules `nearer`; the same move is then listed and accepted."""

from __future__ import annotations

import msgspec
import pytest

from arbitro.adjudicator.creation import POSITION_FORMAT
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.caricat.harness import activated, position

ONE_HEX = {"type": "move", "unit": "savoia1", "path": ["0401", "0501"]}


def test_a_ruling_between_two_commands_changes_the_next_answer() -> None:
    state = activated(position(units={"savoia1": "0401", "kinsky1": "1101", "sigismund1": "3305",
                                      "guardie1": "1415"}, levels={"broglia": "attack"}), "broglia")
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("caricat", position={"format": POSITION_FORMAT, "ruleset": "caricat", "scenario": "pastrengo",
                                           "options": [], "state": msgspec.to_builtins(state)})
    assert ONE_HEX not in app.legal(game, "italian")
    with pytest.raises(IllegalCommand) as refused:
        app.submit(game, "italian", ONE_HEX)
    assert refused.value.rule == "caricat §3.1"
    app.submit(game, "umpire", {"type": "ruling", "reason": "rev-f F6", "interpretation": {"attack_speed": "nearer"}})
    assert app.status(game).interpretations == {"attack_speed": "nearer"}
    assert ONE_HEX in app.legal(game, "italian")
    app.submit(game, "italian", ONE_HEX)
    assert app.state_at(game).rules.units["savoia1"].hex == "0501"
