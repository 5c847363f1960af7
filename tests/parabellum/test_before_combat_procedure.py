"""The cavalry's retreat before combat (§12.1 step 2, §14.1 in both books) is one procedure written once in the
kernel (parabellum/before_combat.py, twentieth session): both games' frames of kind `cavalry_retreat` are the
kernel's row, asked hex by hex of the assaulted hexes, answered by the one command `cavalry_retreat {to, units,
off_map}` (`to` null: stay). Caldiero asked all its cavalry at once, one unit an answer (`{unit, to}`, `decline`);
who may be asked, and who may only stay, are the variant's (D46)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.arrivano import steps as arrivano_steps
from arbitro.adjudicator.arrivano.variant import ArrivanoVariant
from arbitro.adjudicator.caldiero import steps as caldiero_steps
from arbitro.adjudicator.caldiero.variant import CaldieroVariant
from arbitro.adjudicator.parabellum import before_combat
from arbitro.adjudicator.parabellum.commands import CavalryRetreat
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events import parabellum as pb
from tests.arrivano import harness as arrivano
from tests.arrivano import test_combat as A
from tests.caldiero import harness as caldiero
from tests.caldiero import test_combat as C

ROWS = {"caldiero": caldiero_steps.ROWS, "arrivano": arrivano_steps.KINDS}


def two_hexes_of_cavalry(variant: Variant) -> tuple[Any, list[str]]:
    """An infantry assault on two hexes, each holding one defending cavalry unit free to retreat: the game's table
    and the two hexes."""
    if variant.book == "caldiero":
        t = C.table({"fr-18-ligne": C.ATT}, {"au-stab-dragoner": C.DEF, "au-wurmser-hussars": "1418"})
        C.attack(t, ["fr-18-ligne"], [C.DEF, "1418"], dice=[])
        return t, sorted([C.DEF, "1418"])
    d2 = next(n for n in sorted(A.GRID.neighbours(A.X)) if A.GRID.is_adjacent(n, A.D) and n != A.D)
    t = A.fight({"6e-legere-i": A.X}, {"bussy": A.D, "nauendorff-i": d2})
    A.assault(t, ["6e-legere-i"], targets=sorted([A.D, d2]))
    return t, sorted([A.D, d2])


def test_both_games_ask_with_the_kernel_s_row_and_command(variant: Variant) -> None:
    row = ROWS[variant.book][before_combat.CAVALRY_RETREAT]
    assert row.listing is before_combat.answers and row.refusal is before_combat.refusal
    ruleset = (caldiero if variant.book == "caldiero" else arrivano).RULESET
    assert type(ruleset.parse_command(before_combat.STAY)) is CavalryRetreat


def test_the_cavalry_is_asked_hex_by_hex_and_each_stays_by_the_one_answer(variant: Variant) -> None:
    """Each assaulted hex's cavalry is asked in a frame of its own (its `hex`), the answers naming the units that go
    and where their line ends, the stay last; staying in the first hex, the second is asked."""
    t, hexes = two_hexes_of_cavalry(variant)
    asked = []
    while (frame := t.awaited()) is not None and frame.kind == before_combat.CAVALRY_RETREAT:
        ctx = frame.ctx
        assert isinstance(ctx, pb.BeforeCombatAwaited) and len(ctx.units) == 1 and ctx.hex in hexes
        options = t.legal(frame.seats[0])
        assert options[-1] == before_combat.STAY and options[:-1], "a line and the stay"
        assert all(o["units"] == list(ctx.units) and not o["off_map"] for o in options[:-1])
        asked.append(ctx.hex)
        t.send(frame.seats[0], before_combat.STAY, dice=[3])
    assert asked == hexes, "asked once for each assaulted hex, in the assault's order"
    assert not t.of(pb.UnitRetreated), "every cavalry unit stayed"


def test_a_hex_left_by_its_cavalry_is_offered_to_the_advance_once(variant: Variant) -> None:
    """§14.1 in both "Se tutte le unità attaccate si ritirano, l'attaccante può avanzare nell'esagono reso vacante":
    the hex both attacked and left (the frame's `left`) is one advance (parabellum/advance.possible)."""
    t, hexes = two_hexes_of_cavalry(variant)
    for _ in hexes:
        frame = t.awaited()
        assert frame is not None and frame.kind == before_combat.CAVALRY_RETREAT
        t.send(frame.seats[0], t.legal(frame.seats[0])[0], dice=[3])
    advances = [o for o in t.legal("france") if o["type"] == "advance"]
    assert advances and len(advances) == len({(tuple(o["units"]), o["to"]) for o in advances})
    assert {o["to"] for o in advances} == set(hexes)


def test_who_may_retreat_is_the_variant_s() -> None:
    """D46: neutral, any cavalry, none barred (caldiero §14.1 "le unità di cavalleria difendenti"); arrivano's own."""
    for hook in ("retreats_before_combat", "before_combat_barred"):
        assert getattr(CaldieroVariant, hook) is getattr(Variant, hook)
        assert getattr(ArrivanoVariant, hook) is not getattr(Variant, hook)
