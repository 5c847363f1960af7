"""Campotenese's weather and the fog (arrivano §17.2.7, §11.3.2): in a Bufera (box 2) a Neapolitan unit in Defence
adds one to its efficiency, so a defending side's value (§12.3.1) rests on its units' orders, and an order may be
hidden from the French: a unit out of its general's command range is in Defence whatever its formation's order
(§5.3), and where an unseen general stands is not France's to know.

Two games differ only in where Tschudy (general of T) stands, both out of France's sight: within his range of the
defending hex or one hex beyond. France assaults the hex, held by the T formation's Regina Carolina reclute (2, 5 SP)
and the Z formation's Real Abruzzo fucilieri (3, 5 SP), both formations under an Attack order (public: the order
boxes), Zimmermann beside them. With Tschudy in range the values tie (2 and 3, five SP each) and Naples chooses; out
of range the reclute are in Defence (3) and the side has one value, 3. Whether Naples was asked would tell France
where Tschudy stands: so the defender is asked in both (parabellum/assault_stages.order_may_tie), its question
listing the values it has. Choosing 3, France is served the same bytes in both games; the value chosen is served
(§12.3.2: the difference of the values is the die's modifier, as at the table)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.parabellum import efficiency, orders
from arbitro.events import parabellum as pb
from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, at_step, position, world

CAMPOTENESE = "campotenese"
X, D, BACK = "2009", "2108", "1909"  # the French attackers' hex, the defending hex beside it (clear), Compère's
IN_RANGE, OUT_OF_RANGE = "2207", "2206"  # Tschudy two hexes from D (his range is 2), or three; both unseen by France
RECLUTE, FUCILIERI, GRANATIERI = "rc-i-reclute", "ra-1-fucilieri", "rf-granatieri"  # T 2 (5 SP), Z 3 (5), T 3 (4)
KIND = "efficiency_value"
BUFERA, NEVICATA = 2, 1


def table(tschudy: str, weather: int = BUFERA, defenders: tuple[str, ...] = (RECLUTE, FUCILIERI)) -> Any:
    state = position({"42e-1": X, "42e-2": X, **dict.fromkeys(defenders, D)}, scenario=CAMPOTENESE,
                     leaders={"compere": BACK, "zimmermann": D, "tschudy": tschudy},
                     orders={"C": "attack", "T": "attack", "Z": "attack"}, weather=weather)
    return at_step(state, "C", "combat")


def assaulted(tschudy: str, value: int = 3, weather: int = BUFERA,
              defenders: tuple[str, ...] = (RECLUTE, FUCILIERI)) -> tuple[Any, dict[str, bytes]]:
    """France's assault on D, Naples answering `value` if asked; what France and the umpire are served of it."""
    t = table(tschudy, weather, defenders)
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", {"type": "assault", "attackers": ["42e-1", "42e-2"], "targets": [D]}, [3] * 4))]
    top = t.awaited()
    if top is not None and top.kind == KIND:
        made.append(("naples", t.send("naples", {"type": KIND, "value": value}, [3] * 4)))
    return t, {seat: served(RULESET, FOLD, before, made, seat) for seat in ("france", UMPIRE)}


def asked(t: Any) -> tuple[int, ...] | None:
    """The values of the defender's efficiency question in the events, None if it was not asked."""
    opened = [e.frame.ctx for e in t.events if type(e).__name__ == "DecisionOpened" and e.frame.kind == KIND]
    assert len(opened) <= 1
    return opened[0].values if opened else None


def resolved(t: Any) -> pb.AssaultResolved:
    return [e for e in t.events if isinstance(e, pb.AssaultResolved)][-1]


def test_the_premise_tschudy_s_place_alone_decides_the_reclute_s_order_and_france_sees_neither_place() -> None:
    values = {}
    for tschudy, order in ((IN_RANGE, "attack"), (OUT_OF_RANGE, "defence")):
        state = table(tschudy).state
        w = world(state)
        assert orders.order_of(w, RECLUTE) == order and orders.order_of(w, FUCILIERI) == "attack"
        assert RULESET.unexaminable(state, "france", [tschudy]) == {tschudy}
        values[tschudy] = efficiency.side_values(w, [RECLUTE, FUCILIERI])
    assert values == {IN_RANGE: [2, 3], OUT_OF_RANGE: [3]}


def test_whether_the_defender_s_values_tie_under_a_hidden_order_is_not_served() -> None:
    """Naples is asked in both games (its own values listed: a tie, or the one it has) and answers 3: France is
    served the same bytes (the control: the umpire's differ, where Tschudy stands)."""
    (in_range, a), (out_of_range, b) = assaulted(IN_RANGE), assaulted(OUT_OF_RANGE)
    assert (asked(in_range), asked(out_of_range)) == ((2, 3), (3,))
    assert resolved(in_range).defender_efficiency == resolved(out_of_range).defender_efficiency == 3
    assert a["france"] == b["france"], "France learns nothing of where Tschudy stands"
    assert a[UMPIRE] != b[UMPIRE]


def test_the_value_chosen_is_public_as_the_die_s_modifier() -> None:
    """§12.3.2: the difference of the sides' values modifies the die, as both players see at the table: the value
    Naples chooses on its tie (2 here) reaches France, and so differs from the other game's 3."""
    (t, a), (_, b) = assaulted(IN_RANGE, value=2), assaulted(OUT_OF_RANGE)
    assert resolved(t).defender_efficiency == 2 and a["france"] != b["france"]
    assert b'"defender_efficiency":2' in a["france"]


@pytest.mark.parametrize("weather, defenders", [(NEVICATA, (FUCILIERI, GRANATIERI)), (BUFERA, (FUCILIERI, GRANATIERI)),
                                               (BUFERA, (RECLUTE,))])
def test_no_question_where_no_order_could_make_a_tie(weather: int, defenders: tuple[str, ...]) -> None:
    """The fucilieri (3, 5 SP) and the granatieri (3, 4 SP) never tie, whichever has the Bufera's bonus (9 SP on one
    value, or 5 against 4), nor in a Nevicata (box 1, no bonus); a unit alone never ties: with Tschudy out of range
    (the granatieri in Defence) the side's one value is not asked."""
    t, _ = assaulted(OUT_OF_RANGE, weather=weather, defenders=defenders)
    assert asked(t) is None and resolved(t).result


def test_may_tie_tries_every_count_of_the_units_given_the_bonus() -> None:
    """efficiency.may_tie: two units of 3 (5 SP) tie once one of them has the bonus; a 3 of 5 SP and a 3 of 4 SP
    never do (4 against 5 SP, or 9 SP on one value); nor a unit alone."""
    state = table(OUT_OF_RANGE).state
    w = world(state)
    alike = [u for u in state.units if w.efficiency(u) == 3 and w.strength(u) == 5 and not w.is_artillery(u)][:2]
    other = next(u for u in state.units if w.efficiency(u) == 3 and w.strength(u) == 4 and not w.is_artillery(u))
    assert efficiency.may_tie(w, alike, 1)
    assert not efficiency.may_tie(w, [alike[0], other], 1)
    assert not efficiency.may_tie(w, alike[:1], 2) and not efficiency.may_tie(w, alike, 0)


def test_the_french_defending_in_a_bufera_are_asked_nothing_without_a_tie() -> None:
    """§17.2.7's bonus is the Neapolitans' alone (the box's `defence_efficiency_bonus` names no other side): two
    French battalions of 4 (5 SP each) that Naples assaults have one value, and France is not asked it."""
    state = position({"1e-leger-c1": D, "1e-leger-c2": D, RECLUTE: X, FUCILIERI: X}, scenario=CAMPOTENESE,
                     leaders={"compere": BACK, "zimmermann": X, "tschudy": X},
                     orders={"C": "defence", "T": "attack", "Z": "attack"}, weather=BUFERA)
    t = at_step(state, "Z", "combat")
    t.send("naples", {"type": "assault", "attackers": [FUCILIERI], "targets": [D]}, [3] * 4)
    assert asked(t) is None and resolved(t).defender_efficiency == 4

