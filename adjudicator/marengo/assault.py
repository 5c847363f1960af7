"""marengo §11: assaults, the eleven steps, as frames on the engine's decision stack (arbitro §S.3).

The assault under way is the context of its frames (AssaultUnderway), one kind per step: the defender is asked
about its artillery (`defensive_artillery`) and its leaders (`defending_leaders`), the winner about a pursuit
(`pursuit`), the attacker about its advance (`advance`); `result_losses` and `pursuit_losses` wait below the
losses those steps queue, `conquest` below the defenders' retreat, and move the assault on when what is above
them ends (procedure.run). The defender is always asked about its artillery and leaders, and the winner about
pursuit whenever it is publicly possible, so that the question itself does not reveal a hidden face.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator.decisions import close_frame, open_frame
from arbitro.adjudicator.marengo import retreat
from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.bombardment import may_fire_in_defence
from arbitro.adjudicator.marengo.losses import queue_losses
from arbitro.adjudicator.marengo.common import (
    Illegal,
    Interp,
    alive,
    blocks_at,
    by_content,
    cavalry_obstacle,
    data,
    effective_defence,
    fail,
    refs,
    reveal,
    subsets,
    tokens,
)
from arbitro.adjudicator.marengo.movement import check_limit
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import core
from arbitro.events import marengo as ev
from arbitro.projections.game import GameState, awaited
from arbitro.projections.marengo import MarengoState, other

# the kinds of its frames: asked of a seat, then waiting below the losses or the retreat a step causes
DEF_ART, DEF_LEADERS, PURSUIT, ADVANCE = "defensive_artillery", "defending_leaders", "pursuit", "advance"
RESULT_LOSSES, PURSUIT_LOSSES, CONQUEST = "result_losses", "pursuit_losses", "conquest"
ASKED = (DEF_ART, DEF_LEADERS, PURSUIT, ADVANCE)
KINDS = (*ASKED, RESULT_LOSSES, PURSUIT_LOSSES, CONQUEST)
Frame = core.Frame[ev.AssaultUnderway]


def frame(game: GameState[Any]) -> Frame | None:
    """The assault's frame, when it is on top of the stack."""
    top = awaited(game.core)
    return top if top is not None and top.kind in KINDS else None


def _asks(kind: str, a: ev.AssaultUnderway) -> tuple[str, Rule, str]:
    """Who a frame of `kind` awaits, the rule that asks, and the prompt (a waiting frame names the attacker)."""
    return {
        DEF_ART: (other(a.side), R.DEF_ARTILLERY, "decide whether the defending artillery fires"),
        DEF_LEADERS: (other(a.side), R.DEF_LEADERS, "choose the defending leaders (0 to the limit)"),
        PURSUIT: (a.winner, R.PURSUIT, "choose the pursuing cavalry (none: no pursuit)"),
        ADVANCE: (a.side, R.CONQUEST, "advance into the conquered zone, or stay"),
        RESULT_LOSSES: (a.side, R.ASSAULT_RESULT, "the assault's losses are taken, then the pursuit"),
        PURSUIT_LOSSES: (a.side, R.PURSUIT, "the pursuit's losses are taken, then the conquest"),
        CONQUEST: (a.side, R.CONQUEST, f"the defenders retreat from {a.to_zone}, then the attackers may advance"),
    }[kind]


def _open(ctx: Any, kind: str, a: ev.AssaultUnderway) -> None:
    seat, rule, prompt = _asks(kind, a)
    open_frame(ctx, kind, (seat,), str(rule), prompt, a)


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
    a = ev.AssaultUnderway(side=seat, approach=approach, target=target, blocks=_ids(s, blocks),
                           leaders=_ids(s, leaders), defenders=_ids(s, defenders), arm=arm,
                           attacker_demoralised=bool(s.demoralised.get(seat)))
    ctx.emit(ev.AssaultDeclared(side=seat, approach=approach, target=target, blocks=refs(s, blocks),
                                leaders=refs(s, leaders), defenders=refs(s, defenders), arm=arm,
                                attacker_demoralised=a.attacker_demoralised, rule=str(R.ASSAULT)))
    reveal(ctx, leaders, "assault_leader", R.ASSAULT_LEADERS)
    _open(ctx, DEF_ART, a)


def _ids(state: MarengoState, ids: list[str]) -> tuple[str, ...]:
    """Internal ids in token order, as the frame is served (marengo §4)."""
    return tuple(r.block for r in refs(state, ids))


# --- moving on when what is above a waiting frame has ended -------------------------------------------
def step(ctx: Any, top: Frame, interp: Interp) -> bool:
    """Advance the assault from its frame on top; True when a seat must decide."""
    if top.kind in ASKED:
        return True
    s, a = ctx.state, top.ctx
    close_frame(ctx, top)
    if top.kind == RESULT_LOSSES:
        if _pursuit_possible(s, a, interp):
            _open(ctx, PURSUIT, a)
        else:
            _conquest(ctx, a)
    elif top.kind == PURSUIT_LOSSES:
        _conquest(ctx, a)
    elif _survivors(s, a):  # CONQUEST: the defenders' retreat is over
        _open(ctx, ADVANCE, a)
    else:
        _end(ctx, a, a.side, advanced=False)
    return False


# steps 2-3
def check_defensive(state: MarengoState, a: ev.AssaultUnderway, fire: bool) -> None:
    if fire and not _defensive_artillery(state, a):
        raise fail(R.DEF_ARTILLERY, "no defending artillery may fire: none on the approach, or it declared or "
                                    "resolved a bombardment in its previous turn")


def _defensive_artillery(state: MarengoState, a: ev.AssaultUnderway) -> str | None:
    arts = [b for b in alive(state, a.defenders) if may_fire_in_defence(state, b)]
    return arts[0] if arts else None


def do_defensive(ctx: Any, a: ev.AssaultUnderway, fire: bool) -> None:
    """The defender's artillery fires or not; its losses are taken before the defender chooses its leaders."""
    s = ctx.state
    art = _defensive_artillery(s, a) if fire else None
    strength = s.blocks[art].strength if art else 0
    if art:
        reveal(ctx, [art], "defensive_artillery", R.DEF_ARTILLERY)
    ctx.emit(ev.DefensiveFire(fire=bool(art), strength=strength, rule=str(R.DEF_ARTILLERY)))
    _open(ctx, DEF_LEADERS, a)  # below the losses: asked once they are taken
    if art:
        queue_losses(ctx, a.side, strength, alive(s, a.leaders), alive(s, a.blocks), "defensive artillery",
                     R.DEF_ARTILLERY)


# step 4
def check_def_leaders(state: MarengoState, a: ev.AssaultUnderway, leaders: list[str], interp: Interp) -> None:
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


def do_def_leaders(ctx: Any, a: ev.AssaultUnderway, leaders: list[str], interp: Interp) -> None:
    s = ctx.state
    ctx.emit(ev.DefendingLeaders(blocks=refs(s, leaders), rule=str(R.DEF_LEADERS)))
    reveal(ctx, leaders, "defending_leader", R.DEF_LEADERS)
    _resolve(ctx, msgspec.structs.replace(a, def_leaders=_ids(s, leaders)), interp)


def _resolve(ctx: Any, a: ev.AssaultUnderway, interp: Interp) -> None:
    """Steps 5-7."""
    s = ctx.state
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
    _open(ctx, RESULT_LOSSES, msgspec.structs.replace(a, winner=winner))
    queue_losses(ctx, other(a.side), def_points, alive(s, a.def_leaders), alive(s, a.defenders), "assault result",
                 R.ASSAULT_RESULT)
    queue_losses(ctx, a.side, att_points, alive(s, a.leaders), alive(s, a.blocks), "assault result",
                 R.ASSAULT_RESULT)


# steps 8-10
def _pursuit_possible(state: MarengoState, a: ev.AssaultUnderway, interp: Interp) -> bool:
    if data().approaches[a.approach].cavalry_obstacle or data().approaches[a.target].cavalry_obstacle:
        return False
    loser_leaders = list(a.def_leaders if a.winner == a.side else a.leaders)
    if interp("pursuit_cavalry_leader") == "surviving":
        loser_leaders = alive(state, loser_leaders)
    if any(state.blocks[b].arm == "cavalry" for b in loser_leaders):
        return False
    return bool(_pursuit_pool(state, a))


def _pursuit_pool(state: MarengoState, a: ev.AssaultUnderway) -> list[str]:
    """The winner's surviving participants that did not lead (the cavalry among them may pursue)."""
    if a.winner == a.side:
        return [b for b in alive(state, a.blocks) if b not in a.leaders]
    return [b for b in alive(state, a.defenders) if b not in a.def_leaders]


def max_pursuers(a: ev.AssaultUnderway, interp: Interp) -> int:
    return max_leaders(a.target if interp("pursuit_width") == "attacked" else a.approach)


def check_pursuit(state: MarengoState, a: ev.AssaultUnderway, blocks: list[str], interp: Interp) -> None:
    pool = _pursuit_pool(state, a)
    if any(b not in pool or state.blocks[b].arm != "cavalry" for b in blocks):
        raise fail(R.PURSUIT, "only the winner's cavalry that took part without leading pursues")
    n = max_pursuers(a, interp)
    if len(blocks) > n:
        raise fail(R.PURSUIT, f"at most {n} pursuing cavalry here")


def do_pursuit(ctx: Any, a: ev.AssaultUnderway, blocks: list[str]) -> None:
    s = ctx.state
    if not blocks:
        ctx.emit(ev.PursuitDeclared(side=a.winner, blocks=(), strength=0, rule=str(R.PURSUIT)))
        _conquest(ctx, a)
        return
    d = data()
    loser_place = a.approach if a.winner != a.side else a.target
    strength = sum(s.blocks[b].strength for b in blocks) - d.approaches[loser_place].penalty.cavalry
    strength = max(0, strength)
    reveal(ctx, blocks, "pursuit", R.PURSUIT)
    ctx.emit(ev.PursuitDeclared(side=a.winner, blocks=refs(s, blocks), strength=strength, rule=str(R.PURSUIT)))
    _open(ctx, PURSUIT_LOSSES, a)
    queue_losses(ctx, a.winner, 1, [], blocks, "pursuing cavalry", R.PURSUIT)
    if a.winner == a.side:
        lead, parts = alive(s, a.def_leaders), alive(s, a.defenders)
    else:
        lead, parts = alive(s, a.leaders), alive(s, a.blocks)
    queue_losses(ctx, other(a.winner), strength, lead, parts, "cavalry pursuit", R.PURSUIT)


# step 11
def _conquest(ctx: Any, a: ev.AssaultUnderway) -> None:
    """The defender won: the attackers fall back to their reserve. The attacker won: the defenders retreat
    (below their retreat waits the `conquest` frame, which then asks the attacker to advance)."""
    s = ctx.state
    if a.winner != a.side:
        survivors = _survivors(s, a)
        if survivors:
            ctx.emit(ev.BlocksMoved(side=a.side, blocks=refs(s, survivors), from_zone=a.from_zone,
                                    to_zone=a.from_zone, place="reserve", kind="fall_back", cost=0,
                                    marks_moved=False, rule=str(R.CONQUEST)))
        _end(ctx, a, a.winner, advanced=False)
        return
    _open(ctx, CONQUEST, a)
    retreat.start(ctx, other(a.side), a.to_zone, a.from_zone, alive(s, a.defenders))


def _end(ctx: Any, a: ev.AssaultUnderway, winner: str, advanced: bool) -> None:
    """The assault ends with the closures it leaves this turn (marengo §11 step 11): lost, nobody crosses the
    attackers' approach; won, the zone is conquered, whether they advanced or not, and only its attackers now in
    it may enter it."""
    s = ctx.state
    if winner != a.side:
        ctx.emit(ev.AssaultEnded(winner=winner, advanced=False, closed_approach=a.approach, rule=str(R.CONQUEST)))
        return
    inside = [b for b in a.blocks if s.blocks[b].zone == a.to_zone]
    ctx.emit(ev.AssaultEnded(winner=winner, advanced=advanced, conquered=a.to_zone, may_enter=refs(s, inside),
                             rule=str(R.CONQUEST)))


def _survivors(state: MarengoState, a: ev.AssaultUnderway) -> list[str]:
    return [b for b in alive(state, a.blocks) if state.blocks[b].zone == a.from_zone]


def check_advance(state: MarengoState, a: ev.AssaultUnderway, advance: bool, stay: list[str], interp: Interp) -> None:
    survivors = _survivors(state, a)
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


def do_advance(ctx: Any, a: ev.AssaultUnderway, advance: bool, stay: list[str]) -> None:
    s = ctx.state
    movers = [b for b in _survivors(s, a) if b not in stay] if advance else []
    if movers:
        ctx.emit(ev.BlocksMoved(side=a.side, blocks=refs(s, movers), from_zone=a.from_zone, to_zone=a.to_zone,
                                place="reserve", kind="advance", cost=0, marks_moved=True, group=True,
                                rule=str(R.CONQUEST)))
    _end(ctx, a, a.side, advanced=bool(movers))


def options(state: MarengoState, top: Frame, interp: Interp) -> list[dict[str, Any]]:
    """The answers to an asked frame, ordered by content (tokens), never by internal id."""
    return by_content(_options(state, top, interp))


def _options(state: MarengoState, top: Frame, interp: Interp) -> list[dict[str, Any]]:
    a = top.ctx
    if top.kind == DEF_ART:
        out = [{"type": DEF_ART, "fire": False}]
        if _defensive_artillery(state, a):
            out.insert(0, {"type": DEF_ART, "fire": True})
        return out
    if top.kind == DEF_LEADERS:
        pool = [b for b in alive(state, a.defenders) if state.blocks[b].arm in ("infantry", "cavalry")]
        out = []
        for sub in subsets(pool, 0, max_leaders(a.target)):
            try:
                check_def_leaders(state, a, sub, interp)
            except Illegal:
                continue
            out.append({"type": DEF_LEADERS, "blocks": tokens(state, sub)})
        return out
    if top.kind == PURSUIT:
        pool = [b for b in _pursuit_pool(state, a) if state.blocks[b].arm == "cavalry"]
        return [{"type": "pursue", "blocks": tokens(state, sub)} for sub in subsets(pool, 0, max_pursuers(a, interp))]
    if top.kind == ADVANCE:
        survivors = _survivors(state, a)
        out = [{"type": ADVANCE, "advance": False, "stay": []}]
        for stay in subsets(survivors, 0, len(survivors) - 1):
            try:
                check_advance(state, a, True, stay, interp)
            except Illegal:
                continue
            out.append({"type": ADVANCE, "advance": True, "stay": tokens(state, stay)})
        return out
    return []  # a waiting frame: nobody answers it
