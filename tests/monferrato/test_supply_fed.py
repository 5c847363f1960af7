"""A supply line worked out from the sources (monferrato/supply._fed, issue 15) answers as a line traced from the
unit's zone (monferrato §13) on every thirtieth position of the shipped log, and a command's check traces nothing from
its units' zones."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.exchange import read_lines
from arbitro.adjudicator.maps.areas import AreaGraph
from arbitro.adjudicator.marengo.data_loader import load_data as marengo_data
from arbitro.adjudicator.monferrato import supply
from arbitro.adjudicator.monferrato.common import data, enemy_zones, line_step, unchanged
from arbitro.projections.fold import Fold
from arbitro.projections.monferrato import MonferratoState

LOG = Path(__file__).resolve().parents[2] / "logs" / "monferrato-full.jsonl"
SEATS = ("pro_spain", "pro_france")


def positions(every: int) -> Iterator[MonferratoState]:
    loaded = read_lines(LOG.read_text(encoding="utf-8").splitlines(), LOG.name)
    fold = Fold(registry.get("monferrato"))
    bodies = [fold.decode_checked(e.body) for e in loaded.events]
    state = None
    for i, body in enumerate(bodies):
        state = fold.apply(state, body, lambda seq: fold.fold(bodies[:seq]))
        if i % every == 0:
            yield state.rules


def traced(s: MonferratoState, seat: str, zone: str, targets: set[str]) -> bool:
    """The line as it was traced before: from `zone` through zones free of the enemy, to a target free of it."""
    blocked = enemy_zones(s, seat)
    reached = data().trace(zone, line_step, through=lambda z: z not in blocked)
    return zone in targets or any(t in reached and t not in blocked for t in targets)


def test_a_line_from_the_sources_is_the_line_traced_from_the_zone() -> None:
    d = data()
    sources = sorted({frozenset(z) for z in d.scenario.supply_sources.values()}, key=sorted)
    compared = 0
    for s in positions(every=30):
        for seat in SEATS:
            for targets in sources:
                for zone in sorted(d.zones):
                    assert supply.line_to(s, seat, zone, set(targets)) == traced(s, seat, zone, set(targets)), \
                        (seat, zone, sorted(targets))
                    compared += 1
    assert compared > 3_000


def test_the_kept_answer_follows_the_enemy() -> None:
    """The answer kept across positions is keyed by the zones the enemy holds: the enemy on every source cuts it."""
    s = next(positions(every=10_000))
    d = data()
    seat = SEATS[0]
    targets = set(next(z for c, z in sorted(d.scenario.supply_sources.items()) if d.faction_of_nation(d.army(c)) == seat))
    zone = next(z for z in sorted(d.zones) if z not in targets and traced(s, seat, z, targets))
    assert supply.line_to(s, seat, zone, targets)
    enemy = [u for u in sorted(s.units) if d.faction(u) != seat]
    for t, u in zip(sorted(targets), enemy):
        s.units[u].zone = t
    assert not traced(s, seat, zone, targets)
    assert not supply.line_to(s, seat, zone, targets)


def test_a_commands_check_traces_no_line_from_its_units(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, check_command traced the whole map from each zone its units stood in."""
    d = data()

    def away(s: MonferratoState, command: str) -> set[str]:  # its units' zones a line is traced from
        sources = set(d.scenario.supply_sources.get(command, ()))
        return {x.zone for u, x in s.units.items() if d.units[u].command == command and x.zone in d.zones
                and x.zone not in sources and d.units[u].kind not in ("camp", "garrison")
                and x.zone not in d.scenario.always_supplied.get(d.faction(u), ())}

    s, command = next((s, c) for s in positions(every=50) for c in sorted(d.scenario.supply_sources) if len(away(s, c)) > 1)
    units = [u for u in sorted(s.units) if d.units[u].command == command and s.units[u].zone in d.zones]
    calls: list[str] = []
    real = AreaGraph.trace

    def counted(self: AreaGraph, origin: str, *args: object, **kwargs: object) -> dict[str, int]:
        calls.append(origin)
        return real(self, origin, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(AreaGraph, "trace", counted)
    with unchanged(s):  # as check_command asks them
        answers = [supply.supplied(s, u) for u in units]
    assert calls == []
    assert answers == [supply.supplied(s, u) for u in units]


@pytest.mark.parametrize("graph", [data, marengo_data], ids=["monferrato", "marengo"])
def test_a_zones_neighbours_read_once_are_its_approaches(graph: object) -> None:
    """AreaGraph.neighbours, read once per map (index), is the zones its approaches face, in approach id order."""
    d = graph()  # type: ignore[operator]
    assert {z: d.neighbours(z) for z in d.zones} == {
        z: tuple(d.approaches[a].toward for a in sorted(ap.id for ap in d.approaches.values() if ap.zone == z))
        for z in d.zones}
