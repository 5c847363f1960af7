"""The cavalry's retreat before combat, step 2 of the assault (§12.1 in both books; caldiero §14.1 "le unità di
cavalleria difendenti possono ritirarsi di un esagono prima del calcolo dei rapporti di forza se l'attaccante è
composto da sola fanteria", arrivano §14.1 the same words with its own conditions), written once for both games:
asked hex by hex of the assaulted hexes (the assault's frame keeps those asked, `cavalry_done`), the defender naming
the units of the hex that go and where their one-hex line ends (`{units, to, off_map}`; `to` null: the rest stay),
the others asked again; who may be asked and who may only stay are the variant's (D46: `retreats_before_combat`,
`before_combat_barred`), the lines the kernel's (retreat_ground.before_combat_lines). Arrivano's light troops'
retreat (§16.3.5) is its own step, carried out by `retreated` here."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

import msgspec

from arbitro.adjudicator.parabellum import retreat_frame
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.retreat import Line
from arbitro.adjudicator.parabellum.retreat_ground import BEFORE_COMBAT_LENGTH, before_combat_asked, before_combat_lines
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import core
from arbitro.events.parabellum import AssaultUnderway, BeforeCombatAwaited

CAVALRY_RETREAT = "cavalry_retreat"  # the kind of the question in both games
STAY = {"type": CAVALRY_RETREAT, "to": None, "units": None, "off_map": False}


def candidates(w: World, c: AssaultUnderway, h: str) -> list[str]:
    """The units of assaulted hex `h` asked (§14.1 in both): only against attackers all infantry; the defender's units
    not routed the variant lets retreat (`Variant.retreats_before_combat`), where a line starts for one of them
    (retreat_ground.before_combat_asked: under the fog whatever the defender's own stacks hold)."""
    attackers = [u for u in c.attackers if w.on_map(u)]
    if not attackers or any(w.arm(u) != "infantry" for u in attackers):
        return []
    out = [u for u in w.units_at(h) if w.side_of(u) != c.attacker_side and w.status(u) != "routed"
           and w.variant.retreats_before_combat(w, u, c.attacker_side)]
    return out if any(before_combat_asked(w.variant, w, [u]) for u in out) else []


def asked(a: Act[Any], c: AssaultUnderway) -> bool:
    """The question opened for the first assaulted hex not asked yet that has candidates (§12.1 step 2: before the
    defensive fire), above the assault, for the defender: True; none left to ask: False (the assault goes on)."""
    w = a.world()
    for h in c.targets:
        if h in c.cavalry_done:
            continue
        units = candidates(w, c, h)
        if units:
            a.assault_frames().revise(cavalry_done=(*c.cavalry_done, h))
            _ask(a, w.enemy(c.attacker_side), BeforeCombatAwaited(units=tuple(units), hex=h))
            return True
    return False


def _ask(a: Act[Any], seat: str, ctx: BeforeCombatAwaited) -> None:
    rule = a.variant.rules.CAVALRY_RETREAT
    a.assault_frames().push(CAVALRY_RETREAT, (seat,), str(rule),
                            f"defending cavalry may retreat one hex before combat ({rule})", ctx)


def still_here(w: World, frame: core.Frame[BeforeCombatAwaited]) -> list[str]:
    """The asked units still in the asked hex, in the order asked (this question's and arrivano §16.3.5's)."""
    return [u for u in frame.ctx.units if w.on_map(u) and w.hex_of(u) == frame.ctx.hex]


def answers(w: World, frame: core.Frame[BeforeCombatAwaited]) -> list[dict[str, Any]]:
    """Every accepted answer: any of the asked units still in the hex that may go (not `before_combat_barred`), alone
    or together ("possono ritirarsi": each may; §12.6 lets stacked units part), along any of their lines, larger
    parts first; or STAY (the rest stay and fight)."""
    units = sorted(u for u in still_here(w, frame) if w.variant.before_combat_barred(w, u) is None)
    out = [{"type": CAVALRY_RETREAT, "to": ln.to, "units": list(part), "off_map": ln.off_map}
           for k in range(len(units), 0, -1) for part in combinations(units, k)
           for ln in before_combat_lines(w.variant, w, list(part))]
    return out + [STAY]


def answered(a: Act[Any], frame: core.Frame[BeforeCombatAwaited], cmd: Any) -> None:
    """A listed answer (the engine took no other): the named units take the named line (`retreated`); the others
    still in the hex are asked again where a line is still theirs. `to` null: they all stay."""
    if cmd.to is None:
        return
    retreated(a, list(cmd.units), line(a.world(), list(cmd.units), cmd.to, cmd.off_map),
              a.variant.rules.CAVALRY_RETREAT)
    w = a.world()
    rest = [u for u in still_here(w, frame) if u not in cmd.units]
    if any(before_combat_asked(a.variant, w, [u]) for u in rest):
        _ask(a, frame.seats[0], msgspec.structs.replace(frame.ctx, units=tuple(rest)))


def line(w: World, units: list[str], to: str, off_map: bool) -> Line:
    """The line a listed answer names (`answers`, and arrivano §16.3.5's light retreat, list only existing ones)."""
    return next(ln for ln in before_combat_lines(w.variant, w, units) if ln.to == to and ln.off_map == off_map)


def retreated(a: Act[Any], units: Sequence[str], line: Line, rule: object) -> None:
    """Units leave an assaulted hex before the combat along `line`, carried out as any retreat (the kernel's
    retreat_frame.retreated: §12.6.1 a disorder level through EZoC, §12.6.2 cited, off the map §12.8.1, the routed
    two hexes more, §15.2.1); they are out of the assault's defenders, and a hex they leave empty is kept in its frame
    (`left`): its stage `advance` offers it with the hexes the combat vacates, one advance into either (§12.7.2)."""
    w, c = a.world(), a.assault_frames().running()  # revised first: the retreats the line causes wait above it
    start = w.hex_of(units[0])
    changed: dict[str, Any] = {}
    if any(u in c.defenders for u in units):
        changed["defenders"] = tuple(u for u in c.defenders if u not in units)
    if start is not None and set(w.units_at(start)) <= set(units) and start not in c.left:
        changed["left"] = (*c.left, start)
    if changed:
        a.assault_frames().revise(**changed)
    retreat_frame.retreated(a, units, line, rule)


def _listed(named: Any) -> str:
    """An answer's unit or units as a player reads them: `a, b`, not a Python list."""
    return ", ".join(map(str, named)) if isinstance(named, list) else str(named)


def refusal(w: World, frame: core.Frame[BeforeCombatAwaited], answer: dict[str, Any],
            opts: list[dict[str, Any]]) -> tuple[Rule, str]:
    """Why an unlisted answer to a retreat before combat is refused (its frame's rule), and what is permitted: units
    not asked, or asked but barred (`before_combat_barred`: why), or an end no line of theirs reaches. A hex named
    without its units is judged as all the units still in the hex. `key`: the answer's field naming who goes,
    `units` (this question) or a game's own `unit` (arrivano §16.3.5's light troops)."""
    key = "units" if frame.kind == CAVALRY_RETREAT else "unit"
    if key == "units" and answer.get("to") is not None:
        named = sorted(answer["units"]) if answer.get("units") is not None else still_here(w, frame)
        answer = answer | {"units": named}
        if answer in opts:
            return frame.rule, f"name the units that retreat: {', '.join(named)}"
    if answer.get(key) not in [o[key] for o in opts]:
        return frame.rule, _who_may_not(w, answer.get(key), key, opts)
    where = f"{answer['to']}" + (" off the map" if answer.get("off_map") else "")
    mine = ", ".join(sorted({o["to"] + (" off the map" if o.get("off_map") else "")
                             for o in opts if o[key] == answer[key] and o["to"] is not None})) or "none"
    return frame.rule, (f"{where} is not a permitted end of this retreat before combat: {_lawful(w)}; "
                        f"permitted: {mine}")


def _who_may_not(w: World, named: Any, key: str, opts: list[dict[str, Any]]) -> str:
    may = sorted({_listed(o[key]) for o in opts if o[key] is not None})
    units = named if isinstance(named, list) else [named]
    why = ""
    if key == "units":  # why the named units may not (the variant's bars, D46)
        why = "".join(f" ({u}: {reason})" for u in units if u in w.state.units
                      and (reason := w.variant.before_combat_barred(w, u)) is not None)
    return f"{_listed(named)} may not retreat before this combat{why}; may: {'; '.join(may) or 'none'}"


def _lawful(w: World) -> str:
    """The rules a line's end keeps, as the readings in force have them (§12.6, §12.6.1, §7.1 or §12.6.2, §12.8.1)."""
    rules = w.variant.rules
    leave = (f"off the map only under the ruling retreat_before_combat_off_map: as_forced ({rules.OFF_MAP})"
             if w.variant.before_combat_leaves_map(w.reading) else
             f"never off the map: no unit is obliged to this retreat ({rules.OFF_MAP} reading stays_on_map)")
    fit = (f"where stacking allows, going on past full hexes ({rules.RETREAT_STACKING}; reading "
           f"{BEFORE_COMBAT_LENGTH} goes_on)" if w.reading(BEFORE_COMBAT_LENGTH) == "goes_on" else
           f"into a hex where stacking allows, never going on past a full one ({rules.STACKING}; "
           f"{rules.RETREAT_STACKING} is a forced retreat's: reading {BEFORE_COMBAT_LENGTH} one_hex)")
    return (f"one hex away from the enemy if possible ({rules.RETREAT}), not into EZoC if avoidable "
            f"({rules.RETREAT_EZOC}), {fit}, {leave}")
