"""A move's checks that skip work (issue 15) answer as the rules they stand for, on positions of the shipped logs:
at Attack "a piena velocità" (caricat §3.1) a move ending next to the enemy is as near as any destination can be,
since no destination holds an enemy unit, so the unit's reach is not searched to compare; a listing walks only the
paths that meet the level's obligations; what a World keeps answers as worked out afresh."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.caricat import legal as LG
from arbitro.adjudicator.caricat import movement as MV
from arbitro.adjudicator.caricat.world import BROKEN, World
from arbitro.adjudicator.maps import control
from arbitro.adjudicator.maps.movement import cached_step_cost
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


@pytest.mark.parametrize("log", LOGS)
def test_the_worlds_kept_answers_are_the_rules(log: str) -> None:
    """A position's zones (kept across Worlds by who exerts them, caricat §5), the nearest enemy (§3.1), whether a
    step is impassable (read from the unit's class alone, §13.2.3) answer as worked out afresh."""
    checked = 0
    for _, w in log_worlds(log, 25):
        for side in ("italian", "austrian"):
            holders = {k: u.hex for k, u in w.on_map(side).items() if u.hits < BROKEN and u.hex is not None}
            assert w.zone(side) == control.zones(w.grid, holders)
            enemy = [u.hex for u in w.on_map("austrian" if side == "italian" else "italian").values() if u.hex]
            for h in w.map.hexes()[::5]:
                assert w.nearest_enemy(side, h) == min((w.grid.distance(h, e) for e in enemy), default=99)
        for unit, u in sorted(w.on_map().items()):
            for n in w.grid.neighbours(u.hex or ""):
                rules = w.move_rules(unit)
                whole = cached_step_cost(w.map, w.data.movement, u.hex or "", n, rules).prohibited or \
                    w.crossing_closed(u.side, u.hex or "", n)
                assert w.impassable(unit, u.hex or "", n) == whole
                checked += 1
    assert checked > 500


def test_a_listing_walks_only_the_paths_its_level_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, every candidate path was walked (check_path) before its level was asked (caricat §3.1, §13.2.1)."""
    walked: list[int] = []
    real = MV.check_path
    monkeypatch.setattr(MV, "check_path", lambda hexmap, table, path, rules: walked.append(1) or
                        real(hexmap, table, path, rules))
    for log in LOGS:
        for _, w in log_worlds(log, 5):
            for unit in sorted(w.state.units):
                if MV.move_problem_early(w, unit):
                    continue
                fresh = World(w.state, w.data, w.readings)
                walked.clear()
                listed = MV.moves(fresh, unit)
                allowed = [p for _, p in fresh.memo[("routes", "move" + unit)]  # type: ignore[attr-defined]
                           if MV.level_problem(fresh, unit, p) is None]
                if len(allowed) < len(fresh.memo[("routes", "move" + unit)]):  # type: ignore[arg-type]
                    assert len(walked) <= len(allowed)
                    assert all(MV.move_problem(fresh, unit, p) is None for p in listed)
                    return
    raise AssertionError("no position of the logs has a path its level forbids")


@pytest.mark.parametrize("log", LOGS)
def test_every_candidate_a_listing_weighs_is_a_lawful_path(log: str) -> None:
    """The move listing asks only each candidate's level: every candidate path (the unit's own searches, with its
    rules or stricter ones, and the road bonus's search, caricat §6.1) passes the walk along it (path_problem), and
    the listing is the candidates that pass move_problem whole, the first of each outcome."""
    weighed = 0
    for _, w in log_worlds(log, 10):
        for unit in sorted(w.state.units):
            if MV.move_problem_early(w, unit):
                continue
            listed = MV.moves(w, unit)
            candidates = w.memo[("routes", "move" + unit)]
            chosen: dict[object, list[str]] = {}
            for key, path in candidates:  # type: ignore[attr-defined]
                assert MV.path_problem(w, unit, path) is None, (unit, path)
                if key not in chosen and MV.move_problem(w, unit, path) is None:
                    chosen[key] = path
                weighed += 1
            assert listed == list(chosen.values())
    assert weighed > 1_000


@pytest.mark.parametrize("log", ["caricat-montebello.jsonl", "caricat-pastrengo.jsonl"])
def test_the_charge_listing_is_the_charges_that_pass_whole(log: str) -> None:
    """Likewise for charges (caricat §9.1): every candidate through clear terrain passes path_problem, and the
    listing is, for each target, the first candidate of each outcome that passes charge_problem whole."""
    charged = 0
    for _, w in log_worlds(log, 1):  # a cavalry activation lasts a few events
        unit = w.state.activation
        if w.state.activation_kind != "cavalry" or not unit or w.state.units[unit].where != "map":
            continue
        listed = LG.charges(w, unit)
        candidates = w.memo.get(("routes", "charge" + unit), ())
        whole = []
        for target in sorted({c["target"] for c in listed} | {k for k, e in w.on_map().items()
                                                                if e.side != w.state.units[unit].side}):
            chosen: dict[object, list[str]] = {}
            for key, path in candidates:  # type: ignore[attr-defined]
                assert MV.path_problem(w, unit, path) is None, (unit, path)
                if key not in chosen and MV.charge_problem(w, unit, path, target) is None:
                    chosen[key] = path
            whole += [{"type": "charge", "unit": unit, "path": p, "target": target} for p in chosen.values()]
        assert listed == whole
        charged += len(listed)
    assert charged > 5
