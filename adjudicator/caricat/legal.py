"""Every command a seat may send now (the prompts of the turn's phases, caricat §2-§4), and the obligations that
must be met before an activation ends (caricat §3.1, §7.5.1). While a decision is on the engine's stack its step
lists the answers instead (steps.py)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.caricat import combat as CB
from arbitro.adjudicator.caricat import movement as MV
from arbitro.adjudicator.caricat import rules as R
from arbitro.adjudicator.caricat import scenario as SC
from arbitro.adjudicator.caricat import sequence as SQ
from arbitro.adjudicator.caricat.world import BROKEN, LEVELS, World


def legal(w: World, seat: str) -> list[dict[str, Any]]:
    state = w.state
    if state.phase == "over" or seat != state.seat:
        return []
    if state.phase == "commitment":
        return commitment(w, seat)
    if state.phase == "recovery":
        return [{"type": "destroy_bridge"}, {"type": "end_turn"}]
    if not state.activation:
        out: list[dict[str, Any]] = [{"type": "activate", "leader": k} for k in
                                     SQ.waiting_at(state, seat, SQ.current_level(state) or "")]
        out += [{"type": "activate_cavalry", "unit": k} for k in SQ.activatable_cavalry(w, seat)]
        return out + [{"type": "pass"}]
    return activation(w, seat)


def commitment(w: World, seat: str) -> list[dict[str, Any]]:
    state = w.state
    out: list[dict[str, Any]] = []
    for k, le in sorted(state.leaders.items()):
        if le.side != seat or le.tried or not SQ.in_play(state, k) or SQ.lock(w, k) is not None:
            continue
        i = LEVELS.index(le.level)
        out += [{"type": "try_level", "leader": k, "level": LEVELS[j]} for j in (i - 1, i + 1) if 0 <= j < len(LEVELS)]
    out += [{"type": "call_brigade", "leader": k} for k in SC.callable_brigades(state, w.scenario.file, seat)]
    return out + [{"type": "end_levels"}]


def activation(w: World, seat: str) -> list[dict[str, Any]]:
    state = w.state
    out: list[dict[str, Any]] = []
    mine = [k for k, u in sorted(state.units.items()) if u.side == seat and u.where != "gone" and MV.in_activation(w, k)]
    for unit in mine:
        out += [{"type": "move", "unit": unit, "path": p} for p in MV.moves(w, unit)]
    if state.activation_kind == "leader":
        out += [{"type": "move_leader", "leader": state.activation, "unit": k}
                for k in MV.leader_targets(w, state.activation)]
    out += attacks(w, mine)
    if state.activation_kind == "cavalry":
        out += charges(w, state.activation)
    if unmet(w) is None:
        out.append({"type": "end_activation"})
    return out


def attacks(w: World, mine: list[str]) -> list[dict[str, Any]]:
    """Each unit alone against each enemy it may attack, and every eligible unit together against each target."""
    out: list[dict[str, Any]] = []
    for kind in ("fire", "melee"):
        by_target: dict[str, list[str]] = {}
        for unit in mine:
            if w.state.units[unit].where != "map":
                continue
            for target in w.adjacent_enemies(unit):
                if CB.attack_problem(w, unit, target, kind) is None:
                    by_target.setdefault(target, []).append(unit)
        for target, units in sorted(by_target.items()):
            out += [{"type": kind, "units": [u], "target": target} for u in units]
            if len(units) > 1:
                out.append({"type": kind, "units": units, "target": target})
    return out


def charges(w: World, unit: str) -> list[dict[str, Any]]:
    """The cavalry unit's charges: for each target, one path through clear terrain per outcome (the hex it
    ends in and the reaction fire it provokes, caricat §6.2, §9.1); another clear path to a listed end is the same
    command's template (docs/ruleset-interface.md)."""
    u = w.state.units[unit]
    if u.where != "map" or u.moved or u.fought or u.hits >= BROKEN:
        return []
    spec = w.system.charge
    # any enemy may be charged (caricat §9.1 "dal suo obiettivo"); the +3 is against infantry only (resolve_melee)
    targets = sorted(k for k, e in w.on_map().items() if e.side != u.side and e.hex is not None
                     and spec.min_distance <= w.grid.distance(u.hex or "", e.hex) <= spec.max_distance)
    if MV.unit_problem(w, unit) is not None:
        return []
    # each candidate is a path the unit's own searches walked (MV._moves): its charge and its level are asked, the
    # end next to the target first (most candidates end elsewhere: asked of each candidate for each target)
    return [{"type": "charge", "unit": unit, "path": path, "target": target} for target in targets
            for path in MV.routes(w, unit, lambda p, t=target: w.grid.is_adjacent(p[-1], w.state.units[t].hex or "")
                                  and MV.charge_shape_problem(w, unit, p, t) is None
                                  and MV.level_problem(w, unit, p) is None,
                                  keep=MV.charge_ground(w).__contains__, what="charge")]


def unmet(w: World) -> tuple[R.Rule, str] | None:
    """An obligation of the activation still to meet (caricat §3.1 Attack and Advance, §7.5.1 Broken and Routed),
    or None. An obligation binds only while the unit can still meet it."""
    state = w.state
    if state.activation_kind != "leader":
        return None
    for unit in w.units_of(state.activation):
        u = state.units[unit]
        if u.where != "map" or u.moved or u.fought:
            continue
        level = w.level(unit)
        if level == "attack" and u.hits < BROKEN and w.in_enemy_zoc(unit) and \
                any(CB.attack_problem(w, unit, t, "melee") is None for t in w.adjacent_enemies(unit)):
            return R.ATTACK, f"{unit} is in an enemy zone at Attack: it must start a melee"
        must_move = u.hits >= BROKEN or level in ("attack", "advance")
        if must_move and MV.moves(w, unit):
            rule = R.MORALE_EFFECTS if u.hits >= BROKEN else R.ATTACK if level == "attack" else R.ADVANCE
            return rule, f"{unit} must move ({'toward its lines' if u.hits >= BROKEN else 'toward the enemy'}) first"
    return None
