"""Chits (monferrato §5, §5.1, §16): drawing with the hand limit, discarding, playing with the per-activation limit,
mandatory (§16.1), dated (§16.2), reinforcement (§16.3), remove-if-used chits and the red cup of March 1629 (§16.4),
new commands entering (§16.5); the effects of the provisional chit table (data/chits.json) and army morale (§15).

What a seat may not know never appears in a refusal: a chit not in the sender's hand is refused without its id.
"""

from __future__ import annotations

from collections.abc import Callable

from arbitro.adjudicator.decisions import close_frame, open_frame
from arbitro.adjudicator.monferrato import battle, replacements
from arbitro.adjudicator.monferrato.movement import entered_enemy
from arbitro.adjudicator.monferrato import rules as R
from arbitro.adjudicator.monferrato.common import Illegal, command_units, data, morale_band
from arbitro.adjudicator.monferrato.data import ChitSpec
from arbitro.adjudicator.ruleset import Decision, Rule
from arbitro.events import core
from arbitro.events import monferrato as ev
from arbitro.projections.monferrato import POOL, MonferratoState, other

Interp = Callable[[str], str]
HAND = 4  # monferrato §5 2
DISCARD = "discard"
MORALE_MIN, MORALE_MAX = 1, 9  # monferrato §15


# --- what a chit allows now -----------------------------------------------------------------------
def dated_ok(s: MonferratoState, chit: ChitSpec) -> bool:
    """monferrato §16.2: on or after its date (a reinforcement chit may be played before: §16.3)."""
    return chit.date is None or s.turn >= data().turn_index[chit.date]


def playable(s: MonferratoState, chit: ChitSpec) -> bool:
    if chit.response:  # only in answer to the opponent's battle (monferrato §5.1)
        return False
    return chit.reinforcements is not None or dated_ok(s, chit)


def mandatory_now(s: MonferratoState, chit: ChitSpec) -> bool:
    """monferrato §16.1, §16.3: a yellow-striped chit; a conditional one, and an R chit, once its date is reached."""
    if chit.mandatory == "yes":
        return dated_ok(s, chit)
    if chit.mandatory == "conditional" or chit.reinforcements is not None:
        return chit.date is not None and dated_ok(s, chit)
    return False


def discardable(s: MonferratoState, chit: ChitSpec) -> bool:
    """monferrato §16.1-§16.3: never a mandatory, a conditionally mandatory or a reinforcement chit."""
    return chit.mandatory == "no" and chit.reinforcements is None


def mandatory_in_hand(s: MonferratoState, seat: str) -> list[str]:
    d = data()
    return [c for c in s.hands.get(seat, []) if mandatory_now(s, d.chits[c])]


def limit(s: MonferratoState) -> int:
    """monferrato §5: two chits with one zone, one with a commander's activation (§5 3, "fino a un chit", however
    many zones); one in low morale (§15)."""
    act = s.activation
    assert act is not None
    if act.commander or len(act.zones) > 1 or morale_band(s, data().army(act.command)) == "low":
        return 1
    return 2


def check_mandatory_done(s: MonferratoState, seat: str) -> None:
    """monferrato §16.1: with a mandatory chit playable, the first thing done in the activation is to play one."""
    act = s.activation
    if act is not None and act.chits == 0 and mandatory_in_hand(s, seat):
        raise Illegal(R.MANDATORY, "a mandatory chit in your hand must be played first in this activation")


def check_play(s: MonferratoState, seat: str, chit: str) -> ChitSpec:
    act, d = s.activation, data()
    assert act is not None
    if chit not in s.hands.get(seat, []):
        raise Illegal(R.CHITS, "that chit is not in your hand")
    spec = d.chits[chit]
    if act.drew:
        raise Illegal(R.ACTIVATION, "a chit was drawn in this activation: no chit may be played (§5 2)")
    if spec.response:
        raise Illegal(R.RESPONSE, f"{spec.name} is a response chit: it is played in answer to the opponent's battle")
    if not playable(s, spec):
        raise Illegal(R.DATED, f"{spec.name} may be played from {spec.date}")
    if act.chits >= limit(s):
        raise Illegal(R.ACTIVATION, f"no more than {limit(s)} chit(s) in this activation")
    if act.chits == 0 and mandatory_in_hand(s, seat) and chit not in mandatory_in_hand(s, seat):
        raise Illegal(R.MANDATORY, "a mandatory chit in your hand must be the first played")
    return spec


def check_draw(s: MonferratoState, seat: str, interp: Interp) -> None:
    act = s.activation
    assert act is not None
    if act.drew or act.acted or act.zones or act.chits:
        raise Illegal(R.ACTIVATION, "drawing a chit is the whole activation: nothing may have been done before")
    blocking = mandatory_in_hand(s, seat) if interp("mandatory_blocks_draw") == "when_playable" else [
        c for c in s.hands.get(seat, []) if data().chits[c].mandatory == "yes"]
    if blocking:
        raise Illegal(R.MANDATORY, "with a mandatory chit in hand no chit may be drawn")
    if not s.chit_cup and not s.discards:
        raise Illegal(R.CHITS, "the chit cup and the discards are empty")


# --- drawing and discarding -------------------------------------------------------------------
def draw(ctx: Decision[MonferratoState], seat: str) -> None:
    """monferrato §5 2: one chit from the cup (the discards back in it first if it is empty, §5.1); with five in
    hand its owner discards one (a decision on the stack), then the activation ends."""
    if not ctx.state.chit_cup:
        ctx.emit(ev.ChitsRecycled(to_cup=tuple(sorted(ctx.state.discards)), rule=str(R.CHITS)))
    chit = ctx.draw(sorted(ctx.state.chit_cup), 1, purpose=f"{R.ACTIVATION} a chit drawn", visible_to=(seat,))[0]
    ctx.emit(ev.ChitDrawn(seat=seat, chit=chit, rule=str(R.ACTIVATION)))
    if len(ctx.state.hands[seat]) > HAND:
        open_frame(ctx, DISCARD, (seat,), str(R.HAND_LIMIT), "discard one chit of five",
                   ev.DiscardAwaited(seat=seat, then="end_activation"))


def discard_options(s: MonferratoState, seat: str) -> list[dict[str, str]]:
    hand = sorted(s.hands.get(seat, []))
    d = data()
    allowed = [c for c in hand if discardable(s, d.chits[c])] or hand  # none discardable: any (never stuck)
    return [{"type": "discard", "chit": c} for c in allowed]


def discard(ctx: Decision[MonferratoState], frame: core.Frame[ev.DiscardAwaited], chit: str) -> None:
    close_frame(ctx, frame)
    ctx.emit(ev.ChitDiscarded(seat=frame.ctx.seat, chit=chit, rule=str(R.HAND_LIMIT)))


# --- playing ------------------------------------------------------------------------------------
def play(ctx: Decision[MonferratoState], seat: str, spec: ChitSpec) -> None:
    """monferrato §5.1, §16: the chit to the discards (or out of the game, RSU), then its effect."""
    ctx.emit(ev.ChitPlayed(seat=seat, chit=spec.id, removed=spec.remove_if_used, rule=str(R.CHITS)))
    effect = spec.effect
    act = ctx.state.activation
    own = data().army(act.command) if act is not None else ""
    match effect.kind:
        case "morale":
            for nation in targets(ctx.state, seat, own, effect.target or "own"):
                change_morale(ctx, nation, effect.delta, R.CHIT_KINDS, f"chit {spec.number} {spec.name}")
        case "vp":
            ctx.emit(ev.VictoryPoints(seat=seat, delta=effect.delta, rule=str(R.CHIT_KINDS),
                                      reason=f"chit {spec.number} {spec.name}"))
        case "reinforcements":
            assert spec.reinforcements is not None and spec.date is not None
            if dated_ok(ctx.state, spec):
                arrive(ctx, spec.reinforcements)
            else:
                ctx.emit(ev.GroupScheduled(group=spec.reinforcements, turn=data().turn_index[spec.date],
                                           rule=str(R.REINFORCEMENTS)))
        case "replacements":
            if act is not None:
                replacements.begin(ctx, seat, act.command, effect.unit_kinds, effect.count)
        case "end":
            last = max(ctx.state.turn, ctx.state.last_turn + effect.delta)
            ctx.emit(ev.EndMoved(last_turn=min(last, len(data().scenario.timeline) - 1), rule=str(R.SEQUENCE)))


def targets(s: MonferratoState, seat: str, own: str, target: str) -> list[str]:
    """The armies a morale chit touches: the activated command's, the enemy's in play, or all in play."""
    d = data()
    in_play = sorted({d.units[u].nation for u in s.units if s.units[u].zone in d.zones})
    if target == "own":
        return [own] if own else []
    if target == "enemy":
        return [n for n in in_play if d.faction_of_nation(n) == other(seat)]
    return in_play


def change_morale(ctx: Decision[MonferratoState], nation: str, delta: int, rule: Rule, reason: str) -> None:
    """monferrato §15: never below 1 nor above 9."""
    before = ctx.state.morale.get(nation, MORALE_MIN)
    after = max(MORALE_MIN, min(MORALE_MAX, before + delta))
    if after != before:
        ctx.emit(ev.MoraleChanged(nation=nation, value=after, rule=str(rule), reason=reason))


# --- reinforcements (monferrato §16.3, §16.5) --------------------------------------------------------
def arrive(ctx: Decision[MonferratoState], group: str) -> None:
    """The group's units still waiting enter at its zone; a command new to the map goes to the activated box, and
    so enters the cup next turn (§16.5). Into a zone the enemy holds they attack at once, and are eliminated if
    they lose; at the start of a turn that battle is fought before the first marker's activation (its frames are
    above it on the stack)."""
    d = data()
    g = d.groups[group]
    units = tuple(u for u in g.units if ctx.state.units[u].zone == POOL)
    new = not command_units(ctx.state, g.command)
    ctx.emit(ev.GroupArrived(group=group, zone=g.entry, units=units, new_command=new, rule=str(R.NEW_UNITS)))
    seat = d.faction_of_nation(d.army(g.command))
    entered = entered_enemy(ctx.state, seat, group)
    if entered is not None:  # §16.5: entering the enemy's zone, they fight at once
        battle.begin(ctx, entered, seat, entering=True)


def arrival_rolls(ctx: Decision[MonferratoState]) -> None:
    """monferrato §4.1 e, §16.3: each group on an earlier turn's box rolls a die less one; as written, it enters
    when that is at least the turns passed since its box (interpretation `arrival_roll`)."""
    s = ctx.state
    for group, placed in sorted(s.scheduled.items()):
        if placed > s.turn:
            continue
        if placed == s.turn:
            arrive(ctx, group)
            continue
        late = s.turn - placed
        die = ctx.roll(1, purpose=f"{R.REINFORCEMENTS} arrival of {group}", detail={"turns_late": late})[0]
        if ctx.interpretation("arrival_roll") == "as_written":
            enters = die - 1 >= late
        else:
            enters = die - 1 <= late
        if enters:
            arrive(ctx, group)


def red_chits(ctx: Decision[MonferratoState]) -> None:
    """monferrato §16.4: at the start of March 1629 the blue chits left in the cup go to the discards, the red in."""
    s = ctx.state
    ctx.emit(ev.ChitsRecycled(to_cup=tuple(sorted(s.red_aside)), to_discards=tuple(sorted(s.chit_cup)),
                              rule=str(R.RED_CHITS)))

