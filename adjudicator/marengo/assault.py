"""marengo §11: assaults, the eleven steps, as a state machine of pending decisions.

Stages: defensive_artillery (defender) -> art_losses -> defending_leaders (defender) -> result_losses ->
pursuit (winner) -> pursuit_losses -> conquest -> retreat -> advance (attacker) -> ended. The defender is
always asked about its artillery and leaders, and the winner about pursuit whenever it is publicly
possible, so that the question itself does not reveal a hidden face.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.marengo import retreat
from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.bombardment import may_fire_in_defence
from arbitro.adjudicator.marengo.losses import queue_losses
from arbitro.adjudicator.marengo.common import (
    Illegal,
    Interp,
    alive,
    blocks_at,
    cavalry_obstacle,
    data,
    effective_defence,
    fail,
    refs,
    reveal,
    stage,
    subsets,
    tokens,
)
from arbitro.adjudicator.marengo.movement import check_limit
from arbitro.events import marengo as ev
from arbitro.projections.marengo import Assault, MarengoState, other


def max_leaders(approach: str) -> int:
    return 2 if data().approaches[approach].width == "wide" else 1


# --- step 1: declaration --------------------------------------------------------------------------
def check_declare(state: MarengoState, seat: str, approach: str, blocks: list[str], leaders: list[str],
                  interp: Interp) -> tuple[str, str]:
    d = data()
    ap = d.approaches.get(approach)
    if ap is None:
        raise fail(R.MAP, f"no approach {approach!r}")
    target = f"{ap.toward}/{ap.zone}"
    if state.demoralised.get(seat):
        raise fail(R.DEMORALISATION, "a demoralised army conducts no assaults")
    if approach in state.assaulted_approaches:
        raise fail(R.ASSAULT, f"one assault per approach per turn: {approach} already assaulted")
    if not blocks:
        raise fail(R.ASSAULT, "name the assaulting blocks")
    for b in blocks:
        x = state.blocks[b]
        if x.side != seat or x.zone != ap.zone or x.place != approach:
            raise fail(R.ASSAULT, f"assaulting blocks must all block {approach}")
        if x.assaulted or x.moved:
            raise fail(R.ASSAULT, f"block {x.token} already moved or assaulted this turn")
        if not x.activated and interp("unactivated_may_assault") == "no":
            raise fail(R.ACTIVATION, f"block {x.token} is not activated")
        if x.arm == "artillery" and (state.fired_turn.get(seat, -99) == state.turn or seat in state.bombard):
            raise fail(R.BOMBARDMENT, "the artillery cannot assault in a turn its bombardment is declared or resolved")
    if not blocks_at(state, ap.toward, target, other(seat)):
        raise fail(R.ASSAULT, f"an assault crosses an approach blocked by the enemy; {target} is not "
                              f"(move into {ap.toward} instead: an attack manoeuvre)")
    check_limit(state, 1)
    return target, _check_leaders(state, blocks, leaders, approach, target, interp)


def _check_leaders(state: MarengoState, blocks: list[str], leaders: list[str], approach: str, target: str,
                   interp: Interp) -> str:
    d = data()
    n = max_leaders(target)
    if not 1 <= len(leaders) <= n:
        raise fail(R.ASSAULT_LEADERS, f"an assault has 1 to {n} leader(s) on a {d.approaches[target].width} approach")
    arms = {state.blocks[b].arm for b in leaders}
    if any(b not in blocks for b in leaders):
        raise fail(R.ASSAULT_LEADERS, "leaders are chosen among the assaulting blocks")
    if not arms <= {"infantry", "cavalry"} or len(arms) != 1:
        raise fail(R.ASSAULT_LEADERS, "leaders are all infantry or all cavalry")
    arm = arms.pop()
    penalty = getattr(d.approaches[target].penalty, arm)
    zone, toward = approach.split("/")
    if arm == "cavalry" and cavalry_obstacle(interp, zone, toward):
        raise fail(R.ASSAULT_LEADERS, "cavalry cannot lead an assault in cavalry-obstacle terrain")
    for b in leaders:
        s = state.blocks[b].strength
        if s < 2:
            raise fail(R.ASSAULT_LEADERS, f"a leader has strength 2 or more (block {state.blocks[b].token})")
        if s <= penalty:
            raise fail(R.ASSAULT_LEADERS, f"a leader's strength must exceed the {arm} penalty ({penalty}) of {target}")
    return arm


def do_declare(ctx: Any, seat: str, approach: str, target: str, blocks: list[str], leaders: list[str],
               arm: str) -> None:
    s = ctx.state
    tz = target.split("/")[0]
    defenders = blocks_at(s, tz, target, other(seat))
    ctx.emit(ev.AssaultDeclared(side=seat, approach=approach, target=target, blocks=refs(s, blocks),
                                leaders=refs(s, leaders), defenders=refs(s, defenders), arm=arm,
                                attacker_demoralised=bool(s.demoralised.get(seat)), rule=str(R.ASSAULT)))
    reveal(ctx, leaders, "assault_leader", R.ASSAULT_LEADERS)


# --- the state machine -------------------------------------------------------------------------------
def step(ctx: Any, interp: Interp) -> bool:
    """Advance automatic stages; True when a seat must decide."""
    s = ctx.state
    a: Assault = s.assault
    if a.stage in ("defensive_artillery", "defending_leaders", "pursuit", "advance"):
        return True
    if a.stage == "art_losses":
        stage(ctx, "assault", "defending_leaders", R.DEF_LEADERS)
        return False
    if a.stage == "result_losses":
        if _pursuit_possible(s, interp):
            stage(ctx, "assault", "pursuit", R.PURSUIT)
        else:
            stage(ctx, "assault", "conquest", R.CONQUEST)
        return False
    if a.stage == "pursuit_losses":
        stage(ctx, "assault", "conquest", R.CONQUEST)
        return False
    if a.stage == "conquest":
        _conquest(ctx)
        return False
    if a.stage == "retreat":
        if alive(s, a.blocks) and any(s.blocks[b].zone == a.from_zone for b in alive(s, a.blocks)):
            stage(ctx, "assault", "advance", R.CONQUEST)
        else:
            ctx.emit(ev.AssaultEnded(winner=a.side, advanced=False, rule=str(R.CONQUEST)))
        return False
    return True


# steps 2-3
def check_defensive(state: MarengoState, seat: str, fire: bool) -> None:
    a = state.assault
    if a is None or a.stage != "defensive_artillery":
        raise fail(R.DEF_ARTILLERY, "no assault awaits the defensive artillery")
    if seat == a.side:
        raise fail(R.DEF_ARTILLERY, "the defender decides on defensive artillery")
    if fire and not _defensive_artillery(state):
        raise fail(R.DEF_ARTILLERY, "no defending artillery may fire: none on the approach, or it declared or "
                                    "resolved a bombardment in its previous turn")


def _defensive_artillery(state: MarengoState) -> str | None:
    a = state.assault
    assert a is not None
    arts = [b for b in alive(state, a.defenders) if may_fire_in_defence(state, b)]
    return arts[0] if arts else None


def do_defensive(ctx: Any, fire: bool) -> None:
    s = ctx.state
    a = s.assault
    art = _defensive_artillery(s) if fire else None
    strength = s.blocks[art].strength if art else 0
    if art:
        reveal(ctx, [art], "defensive_artillery", R.DEF_ARTILLERY)
    ctx.emit(ev.DefensiveFire(fire=bool(art), strength=strength, rule=str(R.DEF_ARTILLERY)))
    if art:
        queue_losses(ctx, a.side, strength, alive(s, a.leaders), alive(s, a.blocks), "defensive artillery",
                     R.DEF_ARTILLERY)
    stage(ctx, "assault", "art_losses", R.DEF_ARTILLERY)


# step 4
def check_def_leaders(state: MarengoState, seat: str, leaders: list[str], interp: Interp) -> None:
    a = state.assault
    if a is None or a.stage != "defending_leaders":
        raise fail(R.DEF_LEADERS, "no assault awaits defending leaders")
    if seat == a.side:
        raise fail(R.DEF_LEADERS, "the defender chooses its leaders")
    n = max_leaders(a.target)
    if len(leaders) > n:
        raise fail(R.DEF_LEADERS, f"at most {n} defending leader(s) on this approach")
    pool = alive(state, a.defenders)
    if any(b not in pool for b in leaders):
        raise fail(R.DEF_LEADERS, "defending leaders are chosen among the blocks blocking the approach")
    arms = {state.blocks[b].arm for b in leaders}
    if arms and (not arms <= {"infantry", "cavalry"} or len(arms) != 1):
        raise fail(R.DEF_LEADERS, "defending leaders are all infantry or all cavalry")
    if "cavalry" in arms and cavalry_obstacle(interp, a.from_zone, a.to_zone):
        raise fail(R.DEF_LEADERS, "cavalry cannot lead the defence in cavalry-obstacle terrain")


def do_def_leaders(ctx: Any, leaders: list[str], interp: Interp) -> None:
    s = ctx.state
    a = s.assault
    ctx.emit(ev.DefendingLeaders(blocks=refs(s, leaders), rule=str(R.DEF_LEADERS)))
    reveal(ctx, leaders, "defending_leader", R.DEF_LEADERS)
    _resolve(ctx, interp)


def _resolve(ctx: Any, interp: Interp) -> None:
    """Steps 5-7."""
    s = ctx.state
    a = s.assault
    d = data()
    penalty = getattr(d.approaches[a.target].penalty, a.arm)
    leaders = alive(s, a.leaders)
    demoralised_now = bool(s.demoralised.get(a.side)) and not a.attacker_demoralised
    attack = sum(max(0, s.blocks[b].strength - (1 if demoralised_now else 0)) for b in leaders) - penalty
    defence = sum(effective_defence(s, interp, b) for b in alive(s, a.def_leaders))
    result = attack - defence
    winner = a.side if result > 0 else other(a.side)
    detail = (f"leaders {sum(s.blocks[b].strength for b in leaders)}"
              + (" -1 each (demoralised by the defensive fire)" if demoralised_now else "")
              + f" - {a.arm} penalty {penalty} = {attack}; defence {defence}; result {result}")
    ctx.emit(ev.AssaultResolved(attack=attack, defence=defence, result=result, winner=winner, detail=detail,
                                rule=str(R.ASSAULT_RESULT)))
    negative = max(0, -result)
    if winner == a.side:
        loser_points = 1 + (result if interp("loser_extra_losses") == "margin" else 0)
        def_points, att_points = loser_points, 1
    else:
        def_points, att_points = 1, 1 + negative
    defender = other(a.side)
    queue_losses(ctx, defender, def_points, alive(s, a.def_leaders), alive(s, a.defenders), "assault result",
                 R.ASSAULT_RESULT)
    queue_losses(ctx, a.side, att_points, alive(s, a.leaders), alive(s, a.blocks), "assault result",
                 R.ASSAULT_RESULT)
    stage(ctx, "assault", "result_losses", R.ASSAULT_RESULT)


# steps 8-10
def _pursuit_possible(state: MarengoState, interp: Interp) -> bool:
    a = state.assault
    assert a is not None
    if data().approaches[a.approach].cavalry_obstacle or data().approaches[a.target].cavalry_obstacle:
        return False
    winner_att = a.winner == a.side
    loser_leaders = a.def_leaders if winner_att else a.leaders
    if interp("pursuit_cavalry_leader") == "surviving":
        loser_leaders = alive(state, loser_leaders)
    if any(state.blocks[b].arm == "cavalry" for b in loser_leaders):
        return False
    return bool(_pursuit_pool(state))


def _pursuit_pool(state: MarengoState) -> list[str]:
    """The winner's surviving participants that did not lead (the cavalry among them may pursue)."""
    a = state.assault
    assert a is not None
    if a.winner == a.side:
        return [b for b in alive(state, a.blocks) if b not in a.leaders]
    return [b for b in alive(state, a.defenders) if b not in a.def_leaders]


def max_pursuers(state: MarengoState, interp: Interp) -> int:
    a = state.assault
    assert a is not None
    return max_leaders(a.target if interp("pursuit_width") == "attacked" else a.approach)


def check_pursuit(state: MarengoState, seat: str, blocks: list[str], interp: Interp) -> None:
    a = state.assault
    if a is None or a.stage != "pursuit":
        raise fail(R.PURSUIT, "no assault awaits a pursuit")
    if seat != a.winner:
        raise fail(R.PURSUIT, "the winner decides on pursuit")
    pool = _pursuit_pool(state)
    if any(b not in pool or state.blocks[b].arm != "cavalry" for b in blocks):
        raise fail(R.PURSUIT, "only the winner's cavalry that took part without leading pursues")
    n = max_pursuers(state, interp)
    if len(blocks) > n:
        raise fail(R.PURSUIT, f"at most {n} pursuing cavalry here")


def do_pursuit(ctx: Any, blocks: list[str]) -> None:
    s = ctx.state
    a = s.assault
    if not blocks:
        ctx.emit(ev.PursuitDeclared(side=a.winner, blocks=(), strength=0, rule=str(R.PURSUIT)))
        stage(ctx, "assault", "conquest", R.CONQUEST)
        return
    d = data()
    loser_place = a.approach if a.winner != a.side else a.target
    strength = sum(s.blocks[b].strength for b in blocks) - d.approaches[loser_place].penalty.cavalry
    strength = max(0, strength)
    reveal(ctx, blocks, "pursuit", R.PURSUIT)
    ctx.emit(ev.PursuitDeclared(side=a.winner, blocks=refs(s, blocks), strength=strength, rule=str(R.PURSUIT)))
    queue_losses(ctx, a.winner, 1, [], blocks, "pursuing cavalry", R.PURSUIT)
    if a.winner == a.side:
        lead, parts = alive(s, a.def_leaders), alive(s, a.defenders)
    else:
        lead, parts = alive(s, a.leaders), alive(s, a.blocks)
    queue_losses(ctx, other(a.winner), strength, lead, parts, "cavalry pursuit", R.PURSUIT)
    stage(ctx, "assault", "pursuit_losses", R.PURSUIT)


# step 11
def _conquest(ctx: Any) -> None:
    s = ctx.state
    a = s.assault
    if a.winner != a.side:
        survivors = [b for b in alive(s, a.blocks) if s.blocks[b].zone == a.from_zone]
        if survivors:
            ctx.emit(ev.BlocksMoved(side=a.side, blocks=refs(s, survivors), from_zone=a.from_zone,
                                    to_zone=a.from_zone, place="reserve", kind="fall_back", cost=0,
                                    marks_moved=False, rule=str(R.CONQUEST)))
        ctx.emit(ev.AssaultEnded(winner=a.winner, advanced=False, rule=str(R.CONQUEST)))
        return
    stage(ctx, "assault", "retreat", R.CONQUEST)
    retreat.start(ctx, other(a.side), a.to_zone, a.from_zone, alive(s, a.defenders))


def _survivors(state: MarengoState) -> list[str]:
    a = state.assault
    assert a is not None
    return [b for b in alive(state, a.blocks) if state.blocks[b].zone == a.from_zone]


def check_advance(state: MarengoState, seat: str, advance: bool, stay: list[str], interp: Interp) -> None:
    a = state.assault
    if a is None or a.stage != "advance":
        raise fail(R.CONQUEST, "no conquest awaits the attacker's advance")
    if seat != a.side:
        raise fail(R.CONQUEST, "the attacker decides whether to advance")
    survivors = _survivors(state)
    if stay and not advance:
        raise fail(R.CONQUEST, "name the blocks that stay only when the others advance")
    if any(b not in survivors for b in stay):
        raise fail(R.CONQUEST, "only surviving attackers advance or stay")
    if stay and interp("advance_blocks") == "all_or_none":
        raise fail(R.CONQUEST, "the surviving attackers advance all together or not at all (reading advance_blocks)")
    if advance and len(stay) == len(survivors):
        raise fail(R.CONQUEST, "no block would advance: answer advance false")
    cap = data().zones[a.to_zone].capacity
    if advance and len(survivors) - len(stay) > cap:
        raise fail(R.CAPACITY, f"{a.to_zone} holds at most {cap} of your blocks")


def do_advance(ctx: Any, advance: bool, stay: list[str]) -> None:
    s = ctx.state
    a = s.assault
    movers = [b for b in _survivors(s) if b not in stay] if advance else []
    if movers:
        ctx.emit(ev.BlocksMoved(side=a.side, blocks=refs(s, movers), from_zone=a.from_zone, to_zone=a.to_zone,
                                place="reserve", kind="advance", cost=0, marks_moved=True, group=True,
                                rule=str(R.CONQUEST)))
    ctx.emit(ev.AssaultEnded(winner=a.side, advanced=bool(movers), rule=str(R.CONQUEST)))


def options(state: MarengoState, seat: str, interp: Interp) -> list[dict[str, Any]]:
    a = state.assault
    assert a is not None
    if a.stage == "defensive_artillery":
        out = [{"type": "defensive_artillery", "fire": False}]
        if _defensive_artillery(state):
            out.insert(0, {"type": "defensive_artillery", "fire": True})
        return out
    if a.stage == "defending_leaders":
        pool = [b for b in alive(state, a.defenders) if state.blocks[b].arm in ("infantry", "cavalry")]
        out = []
        for sub in subsets(pool, 0, max_leaders(a.target)):
            try:
                check_def_leaders(state, seat, sub, interp)
            except Illegal:
                continue
            out.append({"type": "defending_leaders", "blocks": tokens(state, sub)})
        return out
    if a.stage == "pursuit":
        pool = [b for b in _pursuit_pool(state) if state.blocks[b].arm == "cavalry"]
        return [{"type": "pursue", "blocks": tokens(state, sub)}
                for sub in subsets(pool, 0, max_pursuers(state, interp))]
    if a.stage == "advance":
        survivors = _survivors(state)
        out = [{"type": "advance", "advance": False, "stay": []}]
        for stay in subsets(survivors, 0, len(survivors) - 1):
            try:
                check_advance(state, seat, True, stay, interp)
            except Illegal:
                continue
            out.append({"type": "advance", "advance": True, "stay": tokens(state, stay)})
        return out
    return []
