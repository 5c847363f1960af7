"""Every command recorded caused at least one event (arbitro §L.8): a command with none would be served to no seat,
so each seat would see a gap in the commands' numbers, and in a game where whether a command causes events depends
on a hidden fact the gap would tell it that fact. The engine refuses such a result from a ruleset and records
nothing; numbering goes on without a gap."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import RulesetDefect, http_status
from arbitro.adjudicator.ruleset import Decision
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.foundation import duel
from arbitro.adjudicator.seat_numbers import events_of


class SilentDuel(duel.DuelRuleset):
    """The duel, with a card play its rules accept and give no event (a ruleset's defect the engine must catch)."""

    name = "silentduel"

    def decide(self, ctx: Decision[duel.DuelState], command: Any) -> None:
        if not isinstance(command, duel.PlayCard):
            super().decide(ctx, command)


registry.register("silentduel", "tests.foundation.test_every_command_has_events:SilentDuel")


def test_a_command_its_rules_give_no_event_is_refused_and_leaves_no_gap() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    app.create("silentduel", "standard", game_id="g")
    head = app.game("g").head_seq
    with pytest.raises(RulesetDefect) as refused:
        app.submit("g", "red", {"type": "play_card"})
    assert refused.value.rule == "arbitro §L.8" and refused.value.code == "rules/defect"
    assert refused.value.message == ("the silentduel ruleset gave a 'play_card' command no event, which no ruleset may "
                                     "do: a defect of this build, not of your command; nothing recorded. Tell the "
                                     "umpire, who reports it with the game's log"), "words that tell nothing of the state"
    assert http_status(refused.value) == 500
    assert app.game("g").head_seq == head and app.game("g").head_cmd == 0, "nothing recorded"
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    assert [e["cmd"] for e in events_of(app.log("g", "blue"))][-1] == 1, "the next command is command 1: no gap"
