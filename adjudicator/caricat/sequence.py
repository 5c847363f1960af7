"""The turn (caricat §2): the commitment-level phase (§2, §3), the activations (§4), recovery (§10), the end of a
turn and of the game; the scenarios' locks on levels (§13.1.2-13.1.3, §13.2.1, §14.1.2-14.1.6)."""

from __future__ import annotations

from arbitro.adjudicator.caricat import rules as R
from arbitro.adjudicator.caricat import scenario as SC
from arbitro.adjudicator.caricat.flow import Game
from arbitro.adjudicator.caricat.world import BROKEN, ELIMINATED, LEVELS, World
from arbitro.events import caricat as ev
from arbitro.projections.caricat import CaricatState, leader_hex, other


# --- who is in play ------------------------------------------------------------------------------------------
def in_play(state: CaricatState, leader: str) -> bool:
    """A leader whose brigade is in the game: present, not gone, with a unit not eliminated (he may roll for his
    level, caricat §2)."""
    le = state.leaders[leader]
    return le.present and not le.gone and any(u.leader == leader and u.where != "gone" for u in state.units.values())


def to_activate(state: CaricatState, leader: str) -> bool:
    """A leader to activate this turn (caricat §4.1): in play, with a unit on the map or one that may enter (a
    brigade off the map at Reserve stays off it, caricat §13.1.2)."""
    if not in_play(state, leader):
        return False
    units = [u for u in state.units.values() if u.leader == leader]
    return any(u.where == "map" for u in units) or (state.leaders[leader].level != "reserve"
                                                     and any(u.where == "off" for u in units))


def current_level(state: CaricatState) -> str | None:
    """The highest level among the leaders not yet activated this turn, both sides (caricat §4.1: Attack, then
    Advance, Hold, Reserve)."""
    levels = [le.level for k, le in state.leaders.items() if to_activate(state, k) and not le.activated]
    return min(levels, key=LEVELS.index) if levels else None


def waiting_at(state: CaricatState, side: str, level: str) -> list[str]:
    return sorted(k for k, le in state.leaders.items()
                  if le.side == side and le.level == level and not le.activated and to_activate(state, k))


def activatable_cavalry(w: World, side: str) -> list[str]:
    return [k for k, u in w.on_map(side).items() if u.kind == "cavalry" and not u.activated and not u.hold]


# --- locks on changing level --------------------------------------------------------------------------------
def lock(w: World, leader: str) -> tuple[R.Rule | str, str] | None:
    """Why `leader` may not try to change his level now, or None."""
    state = w.state
    le = state.leaders[leader]
    for spec in w.scenario.file.locks:
        if spec.leader != leader or state.turn >= spec.from_turn:
            continue
        if spec.unless_attacked and le.attacked:
            continue
        if spec.enemy_within is not None and _enemy_near(w, le.side, spec.enemy_within.hex, spec.enemy_within.radius):
            continue
        return spec.rule, f"{leader} may not try to change his level before turn {spec.from_turn}"
    for spec in w.scenario.file.march:
        if spec.leader == leader and le.marched and state.turn < spec.until_turn:
            return R.FEDERICI, f"{leader} holds Pastrengo at {spec.then} until turn {spec.until_turn}"
    return None


def _enemy_near(w: World, side: str, hex_id: str, radius: int) -> bool:
    return any(w.grid.distance(u.hex, hex_id) <= radius for u in w.on_map(other(side)).values() if u.hex)


# --- the commitment phase (caricat §2, §3) ------------------------------------------------------------------------
def try_level(g: Game, leader: str, level: str) -> None:
    state = g.state
    if state.phase != "commitment":
        g.reject(R.SEQUENCE, "levels change only in the commitment phase, at the start of the turn")
    le = state.leaders.get(leader)
    if le is None or le.side != g.ctx.seat:
        g.reject(R.LEVEL_ROLL, f"{leader!r} is not one of your leaders")
    if not in_play(state, leader):
        g.reject(R.LEVEL_ROLL, f"{leader} is not in play")
    if le.tried:
        g.reject(R.LEVEL_ROLL, f"{leader} already tried to change his level this turn")
    if abs(LEVELS.index(level) - LEVELS.index(le.level)) != 1:
        g.reject(R.LEVEL_ROLL, f"a level changes one step at a time: {leader} is at {le.level}, not next to {level}")
    locked = lock(g.world(), leader)
    if locked is not None:
        g.reject(locked[0], locked[1])
    value = g.file.leader(leader).value
    drm = g.data.system.modifiers.staff_level_drm if le.staff else 0
    dice = g.roll(2, R.LEVEL_ROLL, f"{leader} to {level}", {"needed": f"<= {value}", "drm": drm})
    total = sum(dice) + drm
    g.emit(ev.LevelAttempted(leader=leader, wanted=level, total=total, needed=value, success=total <= value,
                             rule=str(R.STAFF if drm else R.LEVEL_ROLL)))
    if total <= value:
        g.emit(ev.LevelChanged(leader=leader, level=level, reason="roll", rule=str(R.LEVEL_ROLL)))


def end_levels(g: Game) -> None:
    state = g.state
    if state.phase != "commitment":
        g.reject(R.SEQUENCE, "not in the commitment phase")
    g.emit(ev.LevelsDone(side=g.ctx.seat, rule=str(R.SEQUENCE)))
    if len(g.state.done) == 2:
        g.emit(ev.PhaseBegan(turn=state.turn, phase="activation", seat=g.file.first_activation, rule=str(R.SEQUENCE)))
        finish_if_done(g)


# --- activations (caricat §4) -----------------------------------------------------------------------------------
def _activation_phase(g: Game) -> None:
    if g.state.phase != "activation":
        g.reject(R.SEQUENCE, "not in the activation phase")
    if g.state.activation:
        g.reject(R.ACTIVATION, f"{g.state.activation}'s activation is under way: end it first")


def activate(g: Game, leader: str) -> None:
    _activation_phase(g)
    state = g.state
    le = state.leaders.get(leader)
    if le is None or le.side != g.ctx.seat or not to_activate(state, leader):
        g.reject(R.ACTIVATION, f"{leader!r} is not one of your leaders to activate")
    if le.activated:
        g.reject(R.ACTIVATION, f"{leader} was already activated this turn")
    level = current_level(state)
    if le.level != level:
        g.reject(R.ACTIVATION, f"leaders at {level} are activated first; {leader} is at {le.level}")
    g.emit(ev.LeaderActivated(leader=leader, side=le.side, level=le.level, rule=str(R.ACTIVATION)))


def activate_cavalry(g: Game, unit: str) -> None:
    _activation_phase(g)
    w = g.world()
    if unit not in activatable_cavalry(w, g.ctx.seat):
        g.reject(R.CAVALRY_ACTIVATION, f"{unit!r} is not one of your cavalry units on the map still to activate this turn")
    level = current_level(g.state) or "reserve"
    if w.adjacent_enemies(unit):
        g.emit(ev.CavalryActivated(unit=unit, side=g.ctx.seat, level=level, success=True, automatic=True,
                                   rule=str(R.CAVALRY_AUTOMATIC)))
        return
    needed = getattr(g.data.system.cavalry_activation, g.ctx.seat)
    dice = g.roll(2, R.CAVALRY_ACTIVATION, f"{unit} activation", {"needed": f"<= {needed}"})
    success = sum(dice) <= needed
    g.emit(ev.CavalryActivated(unit=unit, side=g.ctx.seat, level=level, success=success, automatic=False,
                               rule=str(R.CAVALRY_ACTIVATION if success else R.CAVALRY_HOLD)))
    if not success:
        _next(g, level)


def pass_(g: Game) -> None:
    _activation_phase(g)
    g.emit(ev.Passed(side=g.ctx.seat, next_seat=other(g.ctx.seat), rule=str(R.ACTIVATION)))
    if g.state.passes >= 2:  # both sides passed in a row (caricat §4.1)
        recovery(g)


def end_activation(g: Game) -> None:
    state = g.state
    if not state.activation:
        g.reject(R.ACTIVATION, "no activation is under way")
    level = state.activation_level
    _next(g, level)


def _next(g: Game, level: str) -> None:
    """Who activates next: the other side if it has a leader waiting at the level just activated, else the same
    side goes on (caricat §4.1, the example of Pastrengo turn 6)."""
    side = g.ctx.seat
    nxt = other(side) if waiting_at(g.state, other(side), level) else side
    g.emit(ev.ActivationEnded(side=side, next_seat=nxt, level=level, rule=str(R.ACTIVATION)))
    finish_if_done(g)


def finish_if_done(g: Game) -> None:
    if g.state.phase == "activation" and not g.state.activation and current_level(g.state) is None:
        recovery(g)


# --- recovery and the end of the turn (caricat §10, §11, §13.2.2) -------------------------------------------------
def recovery(g: Game) -> None:
    state = g.state
    g.emit(ev.PhaseBegan(turn=state.turn, phase="recovery", seat=g.file.first_commitment, rule=str(R.RECOVERY)))
    w = g.world()
    for unit, u in w.on_map().items():
        if not 1 <= u.hits < ELIMINATED:
            continue
        loc = w.has_loc(unit)
        near = bool(w.adjacent_enemies(unit)) or w.in_enemy_zoc(unit)
        if loc and not near:
            g.emit(ev.MoraleRecovered(unit=unit, hits=u.hits - 1, rule=str(R.RECOVERY)))
            continue
        leader_near = any(
            leader_hex(state, k) is not None and w.grid.distance(leader_hex(state, k) or "", u.hex or "") <= 1
            for k, le in state.leaders.items() if le.side == u.side and not le.gone)
        drm = g.data.system.modifiers.recovery_leader_drm if leader_near else 0
        morale = w.morale(unit)
        rule = R.RECOVERY if loc else R.LOC
        dice = g.roll(2, rule, f"{unit} recovery", {"needed": f"<= {morale}", "drm": drm}, about=(u.hex or "",))
        if sum(dice) + drm <= morale:
            g.emit(ev.MoraleRecovered(unit=unit, hits=u.hits - 1, rule=str(rule)))
    if SC.bridge_question(g):
        return  # the Austrian decides on the bridge (caricat §13.2.2), then ends the turn
    end_turn(g)


def end_turn(g: Game) -> None:
    state = g.state
    turn = state.turn
    g.emit(ev.TurnEnded(turn=turn, rule=str(R.SEQUENCE)))
    if turn >= state.last_turn:
        SC.end_game(g)
        return
    SC.turn_starts(g)
    g.emit(ev.PhaseBegan(turn=g.state.turn, phase="commitment", seat=g.file.first_commitment, rule=str(R.SEQUENCE)))


def new_game(g: Game) -> None:
    SC.game_starts(g)
    g.emit(ev.PhaseBegan(turn=1, phase="commitment", seat=g.file.first_commitment, rule=str(R.SEQUENCE)))


def broken(w: World, unit: str) -> bool:
    return w.state.units[unit].hits >= BROKEN
