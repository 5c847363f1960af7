"""rev-k (review of fog15a, 186331f): whether a fall back after an open-order fire (arrivano §16.3) has a hex to go
reads not only the stacks around the firer (fog15a's `_READS`) but the movement points it has left
(`FallBackAwaited.left`): what its move to the firing hex cost. The enemy is served that move without its cost
wherever it may not examine the whole route (projections/parabellum.served_route drops `cost_half`), so whether the
game stops for the owner tells it how far the firer came from out of its sight.

Two games differ only in where the 6e Legere I starts out of Austria's sight (0914 or 0915; a French C battalion
stands in each of the two hexes in both games, so Austria sees the same two markers before and after). It moves by
0913 (in Austria's sight) to the village 0912 and fires at IR 18-I in 0911 (a miss). Every hex around 0912 is in
Austria's sight (IR 18-II at 1111 looks at the hills behind). From 0914 it has 4 half points left, a hill behind costs
4: it may fall back and the game waits for France; from 0915 it has none left and the fall back is closed unasked.
Austria must be served the same bytes."""

from __future__ import annotations

from typing import Any

from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, at_step, ev, position

FIRER, TARGET, OBSERVER = "0912", "0911", "1111"
AROUND = ("0812", "0813", "0911", "0913", "1012", "1013")


def fired_from(start: str) -> tuple[bytes, list[Any]]:
    units = {"6e-legere-i": start, "ir18-i": TARGET, "ir18-ii": OBSERVER, "96e-i": "0914", "96e-ii": "0915"}
    state = position(units, leaders={"watrin": "1013"}, orders={"W": "manoeuvre"})
    state.options = ["open_order"]
    assert RULESET.unexaminable(state, "austria", [*AROUND, FIRER, "0914", "0915"]) == {"0914", "0915"}, "sight"
    t = at_step(state, "W", "movement")
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", {"type": "fire", "unit": "6e-legere-i", "to": FIRER, "target": TARGET}, [1]))]
    assert t.of(ev.InfantryFired)[-1].result == "•", "the fire misses"
    awaited = t.pending()
    options = [o["to"] for o in awaited.options if o["to"]] if awaited is not None and awaited.kind == "fall_back" else []
    return served(RULESET, FOLD, before, made, "austria"), options


def test_whether_a_fire_may_fall_back_is_not_told_by_the_points_its_unseen_move_cost() -> None:
    near, far = fired_from("0914"), fired_from("0915")
    assert near[1] and not far[1], "the premise: only the firer that came from 0914 may fall back (points left)"
    assert near[0] == far[0], "Austria learns how far the firer came from out of its sight (the game waited or not)"
