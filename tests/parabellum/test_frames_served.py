"""What a pending decision serves, one rule for both games (ParaBellumRuleset.redact_frame, twenty-second session;
Caldiero special-cased the tie's question before, Arrivano served every decision its own way): a decision's context is
the seats' it awaits. The other side's seat is served who is awaited and for what, not what the question holds; the
umpire everything. So a side asked second in what both settle at once (§12.3 in both: "All'inizio di un combattimento
entrambe le parti coinvolte devono stabilire la propria efficienza") is served nothing of the first side's answer
before its own: the assault's context that keeps the picks (`chosen`) is its attacker's. Caldiero served the
defender that context whole, the attacker's pick in it, before asking the defender's."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events import core
from arbitro.events import parabellum as pb
from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.arrivano import harness as arrivano
from tests.arrivano.test_fog_served import SEEN, SEER, X, line
from tests.caldiero import harness as caldiero
from tests.caldiero.test_fog_served import FOG
from tests.parabellum.test_efficiency_tie import ATTACKERS, KIND, asked, assault

HARNESS = {"caldiero": caldiero, "arrivano": arrivano}


def picked(variant: Variant, value: int) -> tuple[Any, bytes, bytes]:
    """Both sides tie; France picks `value` and Austria is asked next: the table, and what Austria and the umpire are
    served of France's answer (its log item, its view, what status tells it)."""
    h = HARNESS[variant.book]
    t, _ = assault(variant)
    before = h.FOLD.copy(t.game)
    made = [("france", t.send("france", {"type": KIND, "value": value}, pad=0))]
    assert asked(t) is not None and asked(t)[1] == ("austria",), "Austria is asked second"
    return t, *(served(h.RULESET, h.FOLD, before, made, seat) for seat in ("austria", UMPIRE))


def test_the_side_asked_second_is_served_nothing_of_the_first_s_pick(variant: Variant) -> None:
    """Two games differing only in France's pick among its tied values: Austria, asked next, is served the same bytes
    (the control: the umpire's differ)."""
    low, high = ATTACKERS[variant.book][1]
    _, austria_low, umpire_low = picked(variant, low)
    _, austria_high, umpire_high = picked(variant, high)
    assert austria_low == austria_high, "Austria learns nothing of France's pick before its own"
    assert umpire_low != umpire_high, "the umpire is served it"


@pytest.mark.parametrize("seat", ["france", "austria", UMPIRE])
def test_a_decision_s_context_is_its_seats(variant: Variant, seat: str) -> None:
    """Every decision pending once France has picked, as each seat is served it: whole to the seats it awaits and to
    the umpire, its context's type alone to the other side."""
    t, *_ = picked(variant, ATTACKERS[variant.book][1][0])
    ruleset = HARNESS[variant.book].RULESET
    for frame in t.game.core.decisions:
        data = ruleset.redact_frame(frame, seat, t.state)
        whole = seat == UMPIRE or seat in frame.seats
        assert data["kind"] == frame.kind and tuple(data["seats"]) == frame.seats
        assert (data["ctx"] == core_ctx(frame)) if whole else data["ctx"] == {"ctx": core_ctx(frame)["ctx"]}


def core_ctx(frame: core.Frame[Any]) -> dict[str, Any]:
    ctx: dict[str, Any] = msgspec.to_builtins(frame)["ctx"]
    return ctx


def fogged(variant: Variant) -> tuple[Any, str, str]:
    """A position under the fog (caldiero §20.4, an optional rule; arrivano §11.3.2, always): Austria's unit sees one
    French unit and not the other. The state, the unit seen and the unit hidden."""
    if variant.book == "caldiero":
        return caldiero.position({"fr-18-ligne": "1817", "fr-40-ligne": "2518", "au-colloredo": "1917"},
                                 options=FOG), "fr-18-ligne", "fr-40-ligne"
    far = line(X, n=7)[5]
    return arrivano.position({"6e-legere-i": SEEN, "6e-legere-ii": far, "ir18-i": SEER}), "6e-legere-i", "6e-legere-ii"


@pytest.mark.parametrize("named", ["seen", "hidden"])
def test_an_awaited_seat_under_the_fog_is_served_no_context_naming_a_unit_hidden_from_it(variant: Variant,
                                                                                          named: str) -> None:
    """A decision awaiting Austria whose context names a French unit: served whole where Austria may examine that
    unit, as its type and the game's fog marker alone where it may not (both games since the twenty-second session;
    Arrivano served its awaited seat the context whole before). The umpire is served it whole either way."""
    ruleset = HARNESS[variant.book].RULESET
    state, seen, hidden = fogged(variant)
    assert ruleset.hidden_units(state, "austria") == {hidden}, "the premise: one French unit out of Austria's sight"
    ctx = pb.BeforeCombatAwaited(units=(seen if named == "seen" else hidden,))
    frame = core.Frame(kind="before_combat", seats=("austria",), rule="", prompt="", ctx=ctx)
    whole = core_ctx(frame)
    assert ruleset.redact_frame(frame, "austria", state)["ctx"] == (
        whole if named == "seen" else {"ctx": whole["ctx"], "hidden": ruleset.fog_marker})
    assert ruleset.redact_frame(frame, UMPIRE, state)["ctx"] == whole
