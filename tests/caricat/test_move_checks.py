"""A move's checks that skip work (issue 15) answer as the rules they stand for, on positions of the shipped logs:
at Attack "a piena velocità" (caricat §3.1) a move ending next to the enemy is as near as any destination can be,
since no destination holds an enemy unit, so the unit's reach is not searched to compare."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.caricat import movement as MV
from arbitro.adjudicator.caricat.world import World
from tests.parabellum.log_positions import log_worlds

LOGS = ["caricat-montebello.jsonl", "caricat-pastrengo.jsonl", "caricat-pastrengo-options.jsonl"]


@pytest.mark.parametrize("log", LOGS)
def test_no_destination_holds_an_enemy(log: str) -> None:
    """The premise: every destination of a unit's reach lies at least one hex from the nearest enemy unit."""
    searched = 0
    for _, w in log_worlds(log, 40):
        for unit, u in sorted(w.state.units.items()):
            if u.where == "gone" or MV.start_of(w, unit) is None:
                continue
            reach = MV._reach(w, unit)
            assert all(w.nearest_enemy(u.side, h) >= 1 for h in reach.destinations()), unit
            searched += bool(reach.destinations())
    assert searched > 100


def test_a_move_next_to_the_enemy_at_attack_searches_no_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    w, unit, path = next(_attack_moves_next_to_the_enemy())
    fresh = World(w.state, w.data)
    searches: list[str] = []
    real = MV.reachable
    monkeypatch.setattr(MV, "reachable", lambda hexmap, table, start, rules, **kw: searches.append(start) or
                        real(hexmap, table, start, rules, **kw))
    assert MV.move_problem(fresh, unit, path) is None
    assert searches == []  # before: the unit's whole reach, to find the nearest any destination comes


def _attack_moves_next_to_the_enemy():  # type: ignore[no-untyped-def]
    for log in LOGS:
        for _, w in log_worlds(log, 5):
            for unit, u in sorted(w.state.units.items()):
                if u.where != "map" or u.kind == "cavalry" or not MV.in_activation(w, unit) or w.level(unit) != "attack":
                    continue
                for path in MV.moves(w, unit):
                    if w.nearest_enemy(u.side, path[-1]) == 1:
                        yield w, unit, path
