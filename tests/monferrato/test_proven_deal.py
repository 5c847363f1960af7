"""A private draw proven by its key (arbitro §R.5) in a game with hands (monferrato §4): the key goes to no seat
that was not served the draw's pool, the drawer included. With the key and the chits it was dealt, the second seat
dealt could test every hand the first may hold against its own deal: the pool it was dealt from is the cup less
that hand, and only some hands give a pool the key deals those very chits from (rev-s S1)."""

from __future__ import annotations

import itertools
from typing import Any

from arbitro.adjudicator import cli_dice
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.sqlite import SQLiteStore

from .harness import Game, set_up

SEED, SALT_KEY = "5e" * 32, "a1" * 32


def dealt() -> tuple[Arbitro, list[dict[str, Any]]]:
    """A provable game of the 1628 scenario set up: both hands dealt (two private draws)."""
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-01-01T00:00:00+00:00")
    app.create("monferrato", "1628", game_id="m", seed=SEED, salt_key=SALT_KEY, provable_rolls=True)
    set_up(Game(app, "m"))
    return app, [e["event"] for e in app.log_by_event("m", "umpire") if e["type"] == "items_drawn"]


def consistent_first_hands(key: str, mix: str, first: dict[str, Any], second: dict[str, Any]) -> int:
    """The attack: how many hands of the first seat dealt give a pool from which `key` deals the second its chits."""
    pool = first["population"]  # the cup less the public opening chit: public at the start
    unknown = [c for c in pool if c not in second["drawn"]]
    return sum(rnd.keyed_draw(key, mix, second["index"], sorted(set(pool) - set(hand)), len(second["drawn"]))
               == tuple(second["drawn"]) for hand in itertools.combinations(unknown, len(first["drawn"])))


def test_a_dealt_hand_is_proven_to_no_seat_served_its_pool_the_drawer_included() -> None:
    app, (first, second, *_) = dealt()
    seat, other = second["visible_to"][0], first["visible_to"][0]
    app.submit("m", "umpire", {"type": "prove_roll", "index": second["index"]})
    for reader in (seat, other):
        (served,) = [e["event"] for e in app.log_by_event("m", reader) if e["type"] == "roll_proven"]
        assert served == {"type": "roll_proven", "index": second["index"], "rule": "arbitro §R.5",
                          "visible_to": [], "hidden": True}
    served = app.log_by_event("m", seat)  # `arbitro roll` as the drawer says why it holds no key
    (mine,) = [e["event"] for e in served if e["type"] == "items_drawn" and e["event"]["index"] == second["index"]]
    assert cli_dice.proof_of(served, mine, "", mine["drawn"], dict)["status"].startswith(
        "proven to the seats served its values (a draw's: its pool too); not to this one")
    (whole,) = [e["event"] for e in app.log_by_event("m", "umpire") if e["type"] == "roll_proven"]
    assert app.verify("m").passed
    # what the key would have told `seat`: fewer hands than those it cannot rule out without it
    mix = app.log_by_event("m", "umpire")[0]["event"]["initial_core"].get("mix", "")
    hands = len(list(itertools.combinations([c for c in first["population"] if c not in second["drawn"]],
                                            len(first["drawn"]))))
    assert consistent_first_hands(whole["key"], mix, first, second) < hands
