"""The pending retreat, written once for both games (caldiero and arrivano §12.6-§12.6.3, §12.8.1, §15.2.1, §11.1):
its frame (kind `retreat`, events/parabellum.RetreatAwaited: the units still to retreat, each with its hexes) opened,
listed, answered and settled. One reading for both books where they were written two ways (D45 in
docs/rulesets/parabellum.md): a unit a line's enemy ZoC routs retreats two more hexes at once in a frame of its own,
citing §15.2.1; the frame is revised after each line taken. When a unit with no line is judged (§12.6.3) is the
interpretation `retreat_blocked_judged` in both games. Which units one answer names and its wire shape stay each
game's (`Variant.retreat_parts`, `retreat_answer`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbitro.adjudicator.decisions import close_frame, open_frame, update_frame
from arbitro.adjudicator.parabellum import elimination, retreat_ground
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.assault_frame import assault_below
from arbitro.adjudicator.parabellum.retreat import Line
from arbitro.adjudicator.parabellum.retreat_ground import lines
from arbitro.adjudicator.parabellum.rout import RETREAT_HEXES, disorder, guns_with
from arbitro.adjudicator.parabellum.steps import Row
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import core
from arbitro.events.parabellum import RetreatAwaited

RETREAT = "retreat"


def opened(a: Act[Any], moves: Mapping[str, int], rule: object, guns: object = None) -> None:
    """`moves` (unit -> hexes) must retreat, forced by `rule`; where an assault forced it (`guns`: the cause the guns
    cite) the artillery stacked with them is eliminated first (§11.1). They wait, one frame a side, the attacker's on
    top; one with no line is eliminated (§12.6.3) here under reading `retreat_blocked_judged` `when_forced`, else when
    its frame comes on top with none left (`settled`: on the position its lines are drawn on)."""
    for gun in guns_with(a.world(), sorted(moves)) if guns is not None else ():
        elimination.eliminate(a, a.variant, gun, a.variant.rules.ARTILLERY_STACKED, because=guns)
    by_side: dict[str, dict[str, int]] = {}
    for u, n in sorted((u, n) for u, n in moves.items() if a.world().on_map(u)):
        if a.reading("retreat_blocked_judged") == "when_forced" and not lines(a.variant, a.world(), [u], n):
            _no_line(a, u, rule)
        else:
            by_side.setdefault(a.state.units[u].side, {})[u] = n
    assaulting = assault_below(a.ctx.game.core.decisions)
    for side in sorted(by_side, key=lambda s: s == (assaulting.attacker_side if assaulting else "")):
        open_frame(a.ctx, RETREAT, (side,), str(rule), f"choose the retreat of each retreating unit ({a.variant.rules.RETREAT})",
                   RetreatAwaited(moves=by_side[side]))


def disordered(a: Act[Any], units: Sequence[str], rule: object, assault: bool = True) -> None:
    """One disorder level each from a combat result (`rule`, rout.disorder); the units it routs retreat two hexes at
    once (§15.2.1 in both, "si deve immediatamente ritirare di 2 esagoni"), after an `assault` the guns with them
    eliminated (§11.1: "a seguito di combattimenti"; a bombardment's stay)."""
    routed = dict.fromkeys((u for u in units if disorder(a, a.variant, u, rule)), RETREAT_HEXES)
    routed_away(a, routed, rule) if assault else opened(a, routed, a.variant.rules.ROUT_COMBAT)


def routed_away(a: Act[Any], moves: Mapping[str, int], rule: object) -> None:
    """Units an assault's result (`rule`: Ad/Dd, the Ex and Dr tests) routed retreat at once (§15.2.1 in both), the
    guns with them eliminated citing the result and the rout (§11.1: the assault forced it; one wording for both
    games and every result since the eighteenth session)."""
    opened(a, moves, a.variant.rules.ROUT_COMBAT, f"{rule}; {a.variant.rules.ROUT_COMBAT}")


def _no_line(a: Act[Any], u: str, because: object) -> None:
    """Eliminated for good (`_blocked`)."""
    elimination.eliminate(a, a.variant, u, _blocked(a.world(), u), permanent=True, because=because)


def _blocked(w: World, u: str) -> Rule:
    """What eliminates a unit with no line: §12.6.3, or §12.8.1 at the edge of a map its lines never leave."""
    return w.variant.rules.OFF_MAP if w.grid.is_edge(w.hex_of(u) or "") else w.variant.rules.RETREAT_BLOCKED


def listed(w: World, frame: core.Frame[RetreatAwaited]) -> list[tuple[list[str], Line]]:
    """Each part one answer may name with each of its lines. Where every line ends in one place, a part splitting a
    stack changes nothing: only the whole stack's (the first part, where it holds every unit of the parts)."""
    moves = {u: n for u, n in frame.ctx.moves.items() if w.on_map(u)}
    parts = w.variant.retreat_parts(w, moves)
    out = [(part, ln) for part in parts for ln in lines(w.variant, w, part, moves[part[0]])]
    if len({(ln.to, ln.off_map) for _, ln in out}) <= 1 and parts and set(parts[0]) == {u for p in parts for u in p}:
        return [(part, ln) for part, ln in out if part == parts[0]] or out
    return out


def answers(w: World, frame: core.Frame[RetreatAwaited]) -> list[dict[str, Any]]:
    return [w.variant.retreat_answer(part, ln) for part, ln in listed(w, frame)]


def refusal(w: World, frame: core.Frame[RetreatAwaited], answer: dict[str, Any], opts: list[dict[str, Any]]) -> tuple[Rule, str]:
    """Why an unlisted answer is refused: a unit it names (its `unit`, or `units`) not waiting; units of one hex with no
    line (left in the frame till no answer is left, `settled`); units of a stack not asked yet; a line not permitted to
    its units; units that may not go apart from their stack (artillery never alone, §11.1; one place for all)."""
    rules, waiting = w.variant.rules, sorted(u for u in frame.ctx.moves if w.on_map(u))
    named = sorted(map(str, answer.get("units") or [answer.get("unit")]))
    if not set(named) <= set(waiting):
        return rules.RETREAT, f"{', '.join(named)}: no retreat to make; the units still to retreat are {', '.join(waiting)}"
    if len({w.hex_of(u) for u in named}) == 1 and not lines(w.variant, w, named, frame.ctx.moves[named[0]]):
        return _blocked(w, named[0]), (f"{', '.join(named)}: no line of retreat, every way closed "
                                       f"({_blocked(w, named[0])}): eliminated when its turn comes; permitted: {opts}")
    found = listed(w, frame)
    mine, asked = [w.variant.retreat_answer(p, ln) for p, ln in found if sorted(p) == named], {u for p, _ in found for u in p}
    if asked and not asked & set(named):  # arrivano's one stack at a time (D45 retreat_parts)
        return rules.RETREAT, f"{', '.join(named)}: not asked yet; first {', '.join(sorted(asked))}; permitted: {opts}"
    if mine:
        return rules.RETREAT, (f"not a legal retreat for {', '.join(named)}: away from the enemy if possible, not into "
                               f"enemy ZoC if avoidable ({rules.RETREAT_EZOC}), where stacking allows "
                               f"({rules.RETREAT_STACKING}), off the map only when forced ({rules.OFF_MAP}); permitted: {mine}")
    return (rules.ARTILLERY_STACKED if any(w.is_artillery(u) for u in waiting) else rules.RETREAT), (
        f"{', '.join(named)} may not retreat apart from the rest: artillery only with a combat unit, and all together "
        f"where every line ends in one place; permitted: {opts}")


def answered(a: Act[Any], frame: core.Frame[RetreatAwaited], command: Any) -> None:
    """A listed answer: the frame revised without its units (closed when nobody is left), which take its line."""
    said = a.ctx.ruleset.dump_command(command)
    units, line = next((p, ln) for p, ln in listed(a.world(), frame) if a.variant.retreat_answer(p, ln) == said)
    _revised(a, frame, {u: n for u, n in frame.ctx.moves.items() if u not in units})
    retreated(a, units, line, frame.rule)


def settled(a: Act[Any], frame: core.Frame[RetreatAwaited]) -> bool:
    """The frame on top with no answer (retreats since made closed the last ways of the stack it asks, or its units are
    gone): that stack's units (the first part) eliminated, the frame revised. False: it has answers."""
    w = a.world()
    if listed(w, frame):
        return False
    moves = {u: n for u, n in frame.ctx.moves.items() if w.on_map(u)}
    stuck = (a.variant.retreat_parts(w, moves) or [[]])[0]
    for u in stuck:
        _no_line(a, u, frame.rule)
    _revised(a, frame, {u: n for u, n in moves.items() if u not in stuck})
    return True


def _revised(a: Act[Any], frame: core.Frame[RetreatAwaited], left: dict[str, int]) -> None:
    update_frame(a.ctx, frame, RetreatAwaited(moves=left)) if left else close_frame(a.ctx, frame)


def retreated(a: Act[Any], units: Sequence[str], line: Line, rule: object) -> None:
    """`units`, stacked together, take `line` (`retreat_ground.take`); those its enemy ZoC routed (§12.6.1) retreat two
    hexes more at once (§15.2.1); the routed enemies next to its end test as §15.2 reads a retreat (`arrived`)."""
    opened(a, dict.fromkeys(retreat_ground.take(a, a.variant, units, line, rule), RETREAT_HEXES), a.variant.rules.ROUT_COMBAT)
    retreat_ground.arrived(a, a.variant, line)


ROW = Row(answers, answered, refusal, closes=False)  # both games' kind `retreat`: revised by its handler
