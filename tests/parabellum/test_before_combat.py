"""A retreat before combat, one reading for both games (caldiero §14.1; arrivano §14.1, §16.3.5:
"possono ritirarsi di un esagono"), run for both variants: parabellum/retreat_ground.before_combat_lines and
before_combat_asked. Interpretation retreat_before_combat_length: `one_hex` (default) one hex where the stack may
lawfully stand, §12.6.2's going on being a forced retreat's; `goes_on` past overstacked hexes as any retreat. Under
the fog (D18) the question is asked wherever a line starts, stacking aside, so whether it opens tells the attacker
nothing of the defender's own stacks."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest

from arbitro.adjudicator.parabellum.retreat_ground import BEFORE_COMBAT_LENGTH, before_combat_asked, before_combat_lines
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum.position import GRID, Piece, Position

CAVALRY, ENEMY_AT = "1610", "1609"
BEHIND = tuple(sorted(h for h in GRID.neighbours(CAVALRY) if GRID.distance(h, ENEMY_AT) == 2))


@dataclass
class Ground(Position):
    """The kernel's World as a retreat reads it: Position with the unit records, no closed hex, no barred hexside."""

    @property
    def state(self) -> Any:
        return SimpleNamespace(units=self.units)

    def closed_to(self, side: str, h: str) -> str | None:
        return None

    def crossing_prohibited(self, a: str, b: str) -> bool:
        return False


def world(variant: Variant, behind: str = "infantry", reading: str | None = None, fog: bool = False) -> Ground:
    """Austrian cavalry c1 at CAVALRY, a French unit at ENEMY_AT; every hex behind the cavalry (farther from the enemy)
    holds one Austrian unit of arm `behind`, of the cavalry's formation; the other hexes next to it French-free and
    empty. `fog`: the variant's fog option in play (Arrivano's is always in force)."""
    units = {"c1": Piece("austria", CAVALRY, arm="cavalry"), "fr": Piece("france", ENEMY_AT)}
    units |= {f"b{i}": Piece("austria", h, arm=behind) for i, h in enumerate(BEHIND)}
    sides = [h for h in GRID.neighbours(CAVALRY) if h not in BEHIND and h != ENEMY_AT]
    units |= {f"s{i}{j}": Piece("austria", h, arm="infantry") for i, h in enumerate(sides) for j in range(2)}
    options = frozenset({variant.fog_option}) if fog and variant.fog_option else frozenset()
    readings = {BEFORE_COMBAT_LENGTH: reading} if reading else {}
    return Ground(units=units, readings=readings, options=options)


def test_one_hex_where_the_cavalry_may_stand(variant: Variant) -> None:
    """§14.1 with §7.1: cavalry behind it of its formation leaves room (two units of one arm and formation): every
    line is one hex into such a hex, never going on."""
    found = before_combat_lines(variant, world(variant, behind="cavalry"), ["c1"])
    assert found and all(ln.path == (ln.to,) and ln.to in BEHIND and not ln.continued and not ln.off_map for ln in found)


def test_one_hex_never_goes_on_past_a_full_hex(variant: Variant) -> None:
    """Reading one_hex (default): infantry behind the cavalry (§7.1: no cavalry with infantry) and full hexes
    beside it: no line, though a forced retreat would go on (§12.6.2 "Una unità costretta a ritirarsi")."""
    w = world(variant)
    assert before_combat_lines(variant, w, ["c1"]) == []
    assert before_combat_lines(variant, world(variant, reading="one_hex"), ["c1"]) == []


def test_reading_goes_on_goes_on_past_full_hexes(variant: Variant) -> None:
    found = before_combat_lines(variant, world(variant, reading="goes_on"), ["c1"])
    assert found and all(ln.continued >= 1 and len(ln.path) == 1 + ln.continued for ln in found)


def test_without_the_fog_it_is_asked_only_where_a_hex_may_hold_it(variant: Variant) -> None:
    if variant.fog_option is None:
        pytest.skip(f"{variant.book}: the fog of war is always in force")
    assert before_combat_asked(variant, world(variant, behind="cavalry"), ["c1"])
    assert not before_combat_asked(variant, world(variant), ["c1"])


@pytest.mark.parametrize("behind", ["infantry", "cavalry"])
def test_under_the_fog_it_is_asked_whatever_its_own_stacks_hold(variant: Variant, behind: str) -> None:
    """D18: what stands behind the cavalry is the defender's own, which the attacker may not examine; the question
    opens either way (its answers, the lawful lines, are the defender's alone)."""
    w = world(variant, behind=behind, fog=True)
    assert before_combat_asked(variant, w, ["c1"])
    assert bool(before_combat_lines(variant, w, ["c1"])) is (behind == "cavalry")


def test_under_the_fog_no_line_at_all_is_not_asked(variant: Variant) -> None:
    """French units all round: no line starts, nothing to ask (the attacker's own units and the ground decide)."""
    w = world(variant, fog=True)
    for i, h in enumerate(GRID.neighbours(CAVALRY)):
        w.units = {u: p for u, p in w.units.items() if p.hex != h} | {f"r{i}": Piece("france", h)}
    assert not before_combat_asked(variant, w, ["c1"])


def test_leaving_the_map_is_the_variants(variant: Variant) -> None:
    """D41: never by the neutral hook; Arrivano's under its reading retreat_before_combat_off_map as_forced."""
    assert Variant().before_combat_leaves_map(lambda _: "as_forced") is False
    assert variant.before_combat_leaves_map(lambda _: "stays_on_map") is False
    assert variant.before_combat_leaves_map(lambda _: "as_forced") is (variant.book == "arrivano")
