"""Whether a seat's take-back is free or asks the other seat's consent must not tell the OTHER seat what the
requester was shown (engine-rules §U.1; rev-b's finding 3). The toy: attacking with the ruby falcon (red's hidden card)
also shows red its card, an event served to red alone that the ruleset calls irreversible (as Para Bellum's
`pieces_sighted`, served to the seat that looks, projections/parabellum.others_sighting). Red takes its attack back
before blue acts. Blue is served the same bytes whatever red's card: free in both where the ruleset declares nothing
(`may_reveal`), consent asked in both where it declares that an attack may reveal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.service import Arbitro
from tests.foundation import duel

from .test_event_counts import TellingDuel
from .test_event_counts_channels import RED_CARDS, served_bytes
from .test_undo_as_shown import duel_game


class PeekingDuel(TellingDuel):
    """TellingDuel (red's falcon shows red its card, to red alone), that card shown being irreversible."""

    name = "peekingduel"

    def is_irreversible(self, event: Any) -> bool:
        return isinstance(event, (duel.CardPlayed, duel.CardDealt))


class WaryDuel(PeekingDuel):
    """PeekingDuel, declaring (a public test, on the event's type) that an attack may show its sender something."""

    name = "waryduel"

    def may_reveal(self, event: Any, state: duel.DuelState) -> bool:
        return isinstance(event, duel.AttackDeclared)


registry.register("peekingduel", "tests.foundation.test_undo_tells_the_other_nothing:PeekingDuel")
registry.register("waryduel", "tests.foundation.test_undo_tells_the_other_nothing:WaryDuel")


def red_took_back(tmp_path: Path, red_card: str, monkeypatch: pytest.MonkeyPatch, ruleset: str = "peekingduel") -> Arbitro:
    app = duel_game(tmp_path, ruleset, red_card, monkeypatch)
    app.submit("g", "red", {"type": "attack", "aim": "high"}, key="r1")
    app.undo("g", "red", 0, "misclick")
    return app


def test_a_take_back_free_or_not_tells_the_other_seat_nothing_the_requester_alone_saw(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    falcon, wolf = (red_took_back(tmp_path, card, monkeypatch) for card in RED_CARDS)
    assert served_bytes(falcon.log("g", "umpire")) != served_bytes(wolf.log("g", "umpire"))  # control
    assert served_bytes(falcon.status("g", "blue")) == served_bytes(wolf.status("g", "blue")), \
        "blue is told whether red's undo needs its consent, i.e. whether red's card showed red something"
    assert served_bytes(falcon.log("g", "blue")) == served_bytes(wolf.log("g", "blue"))
    assert [e["type"] for e in falcon.log("g", "red")[-1]["events"]] == ["undone"]  # free: nothing every seat saw


def test_a_command_the_ruleset_says_may_reveal_asks_consent_whatever_it_revealed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    falcon, wolf = (red_took_back(tmp_path, card, monkeypatch, "waryduel") for card in RED_CARDS)
    for app in (falcon, wolf):
        assert [e["type"] for e in app.log("g", "red")[-1]["events"]] == ["undo_requested", "decision_opened"]
    assert served_bytes(falcon.status("g", "blue")) == served_bytes(wolf.status("g", "blue"))
    assert served_bytes(falcon.log("g", "blue")) == served_bytes(wolf.log("g", "blue"))
