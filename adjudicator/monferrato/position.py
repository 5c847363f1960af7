"""A Monferrato position's own consistency (the structure is checked by msgspec): every problem at once, each
naming where it is (docs/rulesets/monferrato.md, "Position format")."""

from __future__ import annotations

from arbitro.adjudicator.monferrato.common import data
from arbitro.projections.monferrato import CUP, ELIMINATED, POOL, SEATS, MonferratoState

MAX_FORTS = 2  # monferrato §10


def validate(s: MonferratoState) -> list[str]:
    d = data()
    problems: list[str] = []
    for u, x in sorted(s.units.items()):
        if u not in d.units:
            problems.append(f"units.{u}: no such unit in oob.json")
        elif x.zone not in d.zones and x.zone not in (POOL, ELIMINATED):
            problems.append(f"units.{u}.zone: unknown zone {x.zone!r}")
    for u in sorted(set(d.units) - set(s.units)):
        problems.append(f"units: unit {u!r} is missing")
    places = {"chit_cup": s.chit_cup, "discards": s.discards, "removed": s.removed, "red_aside": s.red_aside,
              **{f"hands.{seat}": s.hands.get(seat, []) for seat in SEATS}}
    seen: dict[str, str] = {}
    for where, chits in places.items():
        for c in chits:
            if c not in d.chits:
                problems.append(f"{where}: unknown chit {c!r}")
            elif c in seen:
                problems.append(f"{where}: chit {c!r} is also in {seen[c]}")
            seen.setdefault(c, where)
    for c in sorted(set(d.chits) - set(seen)):
        problems.append(f"chits: {c!r} is in no hand, cup, discard pile or the removed")
    for who, chits in sorted(s.laid_face_down.items()):  # a subset of the pile, by who laid them (§5 2, §16.4)
        if who not in (*SEATS, CUP):
            problems.append(f"laid_face_down.{who}: neither a seat nor {CUP!r}")
        problems += [f"laid_face_down.{who}: chit {c!r} is not in discards" for c in chits if c not in s.discards]
    for nation, value in sorted(s.morale.items()):
        if not 1 <= value <= 9:
            problems.append(f"morale.{nation}: {value} is outside 1..9 (monferrato §15)")
    printed = {f"{b.zones[0]}/{b.zones[1]}" if d.zones[b.zones[0]].fortress else f"{b.zones[1]}/{b.zones[0]}":
               b.wall.level for b in d.map.borders if b.wall}
    for side, level in sorted(s.walls.items()):
        if side not in printed:
            problems.append(f"walls.{side}: not a fortress wall side")
        elif not 0 <= level <= printed[side]:
            problems.append(f"walls.{side}: level {level} outside 0..{printed[side]} (monferrato §8.1, §9.3)")
    for zone, owners in sorted(s.forts.items()):
        if zone not in d.zones:
            problems.append(f"forts.{zone}: unknown zone")
        elif len(owners) > MAX_FORTS:
            problems.append(f"forts.{zone}: {len(owners)} forts, at most {MAX_FORTS} (monferrato §10)")
        elif d.zones[zone].fortress and owners:
            problems.append(f"forts.{zone}: no fort in a fortress zone (monferrato §10)")
    for u, fire in sorted(s.chosen_fire.items()):
        if u not in d.units:
            problems.append(f"chosen_fire.{u}: no such unit in oob.json")
        elif not 1 <= fire <= 6:
            problems.append(f"chosen_fire.{u}: {fire} is outside 1..6")
    if s.activation is not None and s.activation.seat not in SEATS:
        problems.append(f"activation.seat: unknown seat {s.activation.seat!r}")
    if not 0 <= s.turn < len(d.scenario.timeline):
        problems.append(f"turn: {s.turn} outside the timeline")
    return problems
