"""A seat's free take-back (arbitro §U.1) is judged on what that seat was shown (engine-rules §U.1): an event revealing
hidden information to another seat alone (an enemy's sighting of the mover's units, in Caldiero's fog and Arrivano)
does not make the mover's undo need consent, or the answer would tell the mover whether an observer saw its move.
The toy: when red holds the ruby falcon, blue's attack also makes red's falcon show red the attack, an event served to
red alone that the ruleset calls irreversible (it reveals hidden information, as Para Bellum's `pieces_sighted`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.ruleset import Decision
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.fold import Replayer
from tests.foundation import duel
from tests.seeds import same_secrets

from .conftest import position_file
from .test_event_counts import TellingDuel
from .test_event_counts_channels import RED_CARDS, served_bytes

ATTACK = {"type": "attack", "aim": "high"}


class WatchfulDuel(TellingDuel):
    """The duel where red's ruby falcon watches blue's attacks: shown to red alone (TellingDuel.redact), and, like a
    sighting of hidden pieces, irreversible."""

    name = "watchfulduel"

    def decide(self, ctx: Decision[duel.DuelState], command: Any) -> None:
        duel.DuelRuleset.decide(self, ctx, command)
        if isinstance(command, duel.AttackCmd) and ctx.seat == "blue" and ctx.state.cards.get("red") == "ruby-falcon":
            ctx.emit(duel.CardDealt(seat="red", card="ruby-falcon", rule=str(duel.R_CARD)))

    def is_irreversible(self, event: Any) -> bool:
        return isinstance(event, (duel.CardPlayed, duel.CardDealt))


registry.register("watchfulduel", "tests.foundation.test_undo_as_shown:WatchfulDuel")


def duel_game(tmp_path: Path, ruleset: str, red_card: str, monkeypatch: pytest.MonkeyPatch, **state: Any) -> Arbitro:
    """Game "g" of a toy duel `ruleset` from a position (the same seed, clock and keys whatever red's card)."""
    same_secrets(monkeypatch)
    position = json.loads(position_file(tmp_path, red_card=red_card, **state).read_text())
    position["ruleset"] = ruleset
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-11-29T00:00:00+00:00")
    app.create(ruleset, position=position, game_id="g")
    return app


def blue_attacked(tmp_path: Path, red_card: str, monkeypatch: pytest.MonkeyPatch) -> Arbitro:
    """Blue to act in a watchfulduel: blue attacks."""
    app = duel_game(tmp_path, "watchfulduel", red_card, monkeypatch, active="blue")
    app.submit("g", "blue", ATTACK, key="b1")
    return app


def test_an_event_the_mover_is_not_shown_does_not_make_its_undo_need_consent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    told, untold = (blue_attacked(tmp_path, card, monkeypatch) for card in RED_CARDS)
    assert told.game("g").head_seq == untold.game("g").head_seq + 1  # red's falcon watched in one game only
    undos = [app.undo("g", "blue", 0, "misclick") for app in (told, untold)]
    assert [[e["type"] for e in u.events] for u in undos] == [["undone"], ["undone"]]  # free in both: no consent asked
    assert [u.events[0]["event"]["rule"] for u in undos] == ["arbitro §U.1", "arbitro §U.1"]
    assert served_bytes(undos[0].events) == served_bytes(undos[1].events)
    assert served_bytes(told.log("g", "blue")) == served_bytes(untold.log("g", "blue"))
    assert served_bytes(told.status("g", "blue")) == served_bytes(untold.status("g", "blue"))
    # red keeps what its falcon showed it: the voided event stays in its log
    assert any(e["type"] == "card_dealt" for i in told.log("g", "red") for e in i["events"])


def test_an_irreversible_event_the_mover_was_shown_still_needs_consent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Control: blue's own card played (irreversible, and shown to blue) is not taken back without red's consent."""
    app = blue_attacked(tmp_path, RED_CARDS[1], monkeypatch)
    app.submit("g", "red", {"type": "guard", "stance": "low"}, key="r1")
    app.submit("g", "red", {"type": "play_card"}, key="r2")
    app.submit("g", "red", {"type": "attack", "aim": "low"}, key="r3")
    result = app.undo("g", "red", 2, "take back the card")
    assert [e["type"] for e in result.events] == ["undo_requested", "decision_opened"]



def test_a_take_back_reads_the_state_from_the_log_once_and_folds_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15: judging a free take-back of several of the seat's own events reads the state after the first of them
    from the log once, then folds the others on (a verification's log folds from its start at each read), and
    answers as reading each did: free, as before."""
    app = duel_game(tmp_path, "watchfulduel", RED_CARDS[1], monkeypatch, active="blue")
    app.submit("g", "blue", {"type": "end_turn"}, key="b1")  # the turn's and the round's end: dice-free, blue's own
    taken = [e["type"] for e in app.log("g", "blue")[-1]["events"]]
    reads: list[int] = []
    real = Replayer.state_at

    def counted(self: Replayer, seq: int | None = None, **kwargs: Any) -> Any:
        reads.append(seq or 0)
        return real(self, seq, **kwargs)

    monkeypatch.setattr(Replayer, "state_at", counted)
    result = app.undo("g", "blue", 0, "misclick")
    assert taken == ["turn_ended", "round_ended", "checkpoint"], taken
    assert [e["type"] for e in result.events] == ["undone"] and result.events[0]["event"]["rule"] == "arbitro §U.1"
    assert [seq for seq in reads if seq > 1] == [2], reads  # #2, #3 taken back; #1 is the point, which Undone reads
