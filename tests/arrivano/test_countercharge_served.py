"""A counter-charge (arrivano §14.2.4) under the fog of war (§11.3.2), proved by non-interference: the seat asked
whether to counter-charge is served what the table shows it, the charger next to its cavalry in the hex the charge
reached, and nothing of what only the charger's owner knows.

The charge walks to the hex where it meets the counter-charger before the question is opened (movement.charge_on),
so the charger is in the asked seat's sight when the frame names it, and that walk is served as any move is (the
hexes the seat may examine, projections/parabellum.served_route). The frame holds the rest of the charge (its whole
path, the hex it means to charge), which the seat is not served (ArrivanoRuleset._charge_served).

Two games differ only in a fact hidden from Austria: where the charger set out from, out of its sight; or which
enemy hex it means to charge. Austria is served the same bytes for France's charge: its log (one item per command),
its view, what status tells it, and the answers listed to it. The geometry is Montebello's map: Bussy (Austrian
Defence cavalry) at 0802, IR 18 at 0803, the hussars charging to 0902, next to both, from 1301 or 1303 (five and
more hexes off, out of Austria's sight), Lannes at 1302."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.engine_steps import awaiting_in
from arbitro.events import arrivano as ev
from arbitro.events.codec import canonical, to_builtins
from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, Table, at_step, position

CHARGER, COUNTER, FOOT = "12e-hussards", "bussy", "ir18-i"
BUSSY, IR18, STOP, LANNES = "0802", "0803", "0902", "1302"
STARTS = ("1301", "1303")


def charge_table(start: str) -> Table:
    """France's Lannes (formation L, Attack) activated at its movement step, the hussars at `start`; Austria's Bussy
    (formation R, Defence) and IR 18 in sight of nothing French until the charge comes."""
    state = position({CHARGER: start, COUNTER: BUSSY, FOOT: IR18}, leaders={"lannes": LANNES},
                     orders={"L": "attack", "R": "defence"})
    assert RULESET.unexaminable(state, "austria", [start, LANNES]) == {start, LANNES}, "the start must be out of sight"
    assert CHARGER in RULESET.hidden_units(state, "austria")
    return at_step(state, "L", "movement")


def charge(start: str, target: str) -> dict[str, Any]:
    return {"type": "move", "unit": CHARGER, "to": STOP, "column": False, "charge": target}


def charged(start: str, target: str) -> tuple[Table, bytes, bytes]:
    """France's charge from `start` at `target`: the table after it, and Austria's bytes and the umpire's."""
    t = charge_table(start)
    assert charge(start, target) in t.legal("france"), "the set-up must offer this charge (a changed map broke it)"
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", charge(start, target)))]
    assert t.pending() is not None and t.pending().kind == "countercharge" and t.pending().seat == "austria"

    def bytes_for(seat: str) -> bytes:
        listed = canonical(t.legal(seat)) if seat != UMPIRE else b""
        return served(RULESET, FOLD, before, made, seat) + listed

    return t, bytes_for("austria"), bytes_for(UMPIRE)


def test_where_an_unseen_charger_set_out_from_is_not_served_with_the_countercharge() -> None:
    """The charge from 1301 or from 1303 meets Bussy at 0902: Austria is asked the same question in the same bytes,
    the charger named (it stands next to Bussy, so in sight) and its walk served from where it came into sight."""
    (one, austria_one, umpire_one), (_, austria_two, umpire_two) = (charged(s, BUSSY) for s in STARTS)
    assert umpire_one != umpire_two, "the umpire sees where the charge set out from"
    assert austria_one == austria_two, "Austria is told where an unseen charger set out from"
    assert one.state.units[CHARGER].hex == STOP and CHARGER not in RULESET.hidden_units(one.state, "austria")
    for start in STARTS:
        assert start.encode() not in austria_one


def test_which_hex_a_charge_means_to_attack_is_not_served_with_the_countercharge() -> None:
    """The charge at 0902 may mean to attack Bussy's hex or IR 18's: Austria decides whether to counter-charge
    without being told which (the Charge marker goes on only where the charge ends, §14.2); the umpire is."""
    (_, austria_one, umpire_one), (_, austria_two, umpire_two) = (charged(STARTS[0], t) for t in (BUSSY, IR18))
    assert umpire_one != umpire_two, "the umpire sees the target"
    assert austria_one == austria_two, "Austria is told which hex the charge means to attack"


def test_the_countercharge_frame_is_served_as_the_table_shows_it() -> None:
    """What Austria is served of the frame: the charger, the hex it stopped in and the cavalry that may answer;
    France, whose charge waits, only who is awaited and for what."""
    t, _, _ = charged(STARTS[0], IR18)
    frame = t.top()
    served_ctx = {seat: RULESET.redact_frame(frame, seat, t.state)["ctx"] for seat in ("austria", "france", UMPIRE)}
    assert served_ctx["austria"] == {"ctx": "arrivano_countercharge", "unit": CHARGER, "path": [STOP], "stop": 0,
                                     "counter": [COUNTER]}
    assert served_ctx["france"] == {"ctx": "arrivano_countercharge"}
    assert served_ctx[UMPIRE] == to_builtins(frame.ctx) and served_ctx[UMPIRE]["target"] == IR18
    status = to_builtins(awaiting_in(RULESET, t.game))
    assert IR18 not in canonical(status).decode()


def test_a_declined_countercharge_lets_the_charge_end_with_its_marker() -> None:
    """Declined: the charge, already in the hex it meant to end in, takes its Charge marker on its target there
    (arrivano §14.2), a move that enters nothing; accepted: the charger stops where it met Bussy, with no marker,
    and Bussy's counter-charge is recorded (§14.2.4)."""
    t, _, _ = charged(STARTS[0], IR18)
    t.send("austria", {"type": "countercharge", "unit": None})
    moves = t.of(ev.UnitsMoved)
    assert [(m.path, m.charge) for m in moves] == [(("1302", "1203", "1102", "1002", STOP), None), ((), IR18)]
    assert t.state.units[CHARGER].charge == IR18 and t.state.units[CHARGER].hex == STOP
    t, _, _ = charged(STARTS[0], IR18)
    t.send("austria", {"type": "countercharge", "unit": COUNTER})
    assert [m.charge for m in t.of(ev.UnitsMoved)] == [None]
    assert t.state.countercharges == {COUNTER: CHARGER} and t.state.units[CHARGER].charge is None
    assert t.state.units[CHARGER].hex == STOP
