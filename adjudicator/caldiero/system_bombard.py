"""Artillery fire (caldiero §11): the bombardment value and the table's modifiers Caldiero adds (terrain, uphill).
Range, targets and line of sight are the kernel's (parabellum/bombardment.py, parabellum/sight.py)."""

from __future__ import annotations

from dataclasses import dataclass

from arbitro.adjudicator.parabellum.data import BombardmentTable
from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.parabellum import bombardment
from arbitro.events.parabellum import DieModifier



def fire_value(world: World, artillery: list[str]) -> int:
    value = sum(world.counters.unit(a).bombard or 0 for a in artillery)
    if world.state.weather == 1:
        value = (value + 1) // 2  # caldiero §17.1.1 halved, rounded up (§1.4)
    return value


@dataclass(frozen=True)
class FireCalc:
    column: int
    drm: int
    modifiers: tuple[DieModifier, ...]

    def wording(self) -> str:
        """The modifiers as the roll's detail words them."""
        return "; ".join(f"{m.reason}: {m.value:+d}" for m in self.modifiers) or "none"


def fire_calc(world: World, table: BombardmentTable, artillery: list[str], target: str) -> FireCalc:
    """The kernel's column, range and concentration modifiers (bombardment.fire_odds), then Caldiero's terrain and
    firing uphill (caldiero §11.4.4, §10)."""
    origin = world.state.units[artillery[0]].hex or ""
    odds = bombardment.fire_odds(world, table, origin, target, fire_value(world, artillery))
    drm, parts = odds.drm, [DieModifier(reason=f"range {odds.distance}", value=odds.range_drm)]
    if odds.band is not None:
        parts.append(DieModifier(reason=f"{odds.target_sp} SP in target", value=odds.band.drm))
    terrain = world.board.effect(target).bombard_drm
    if terrain:
        drm += terrain
        parts.append(DieModifier(reason=f"terrain {world.board.terrain(target)}", value=terrain))
    if world.board.climbs(origin, target):
        drm += world.board.table.climb.bombard_drm
        parts.append(DieModifier(reason="firing uphill", value=world.board.table.climb.bombard_drm))
    return FireCalc(column=odds.column, drm=drm, modifiers=tuple(parts))
