"""What a piece sees and what a side may examine (caldiero §11.3, §20.4.1; arrivano §11.3, §11.3.2), from the
World's lines of sight (the line itself is parabellum/world.World.clear_line: blocking terrain, ground higher than both
ends, units where the variant says they block, D18; which terrain blocks is each game's terrain table)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum.world import World
from arbitro.events.parabellum import PiecesSighted


# --- what a piece sees, what a side may examine (World questions: `grid`, `clear_line`, `sight_range`,
# `piece_hexes`, `lines_key`, `cached`) ---------------------------------------------------------------------------


def sees(w: World, a: str, b: str, reach: int | None = None) -> bool:
    """Whether a piece in `a` sees `b` (caldiero §11.3, arrivano §11.3): its own hex always; otherwise within
    `reach` (the variant's sight range unless the caller's rule shortens it: an artillery's range, weather) along a
    clear line."""
    limit = w.sight_range() if reach is None else reach
    return a == b or (w.grid.distance(a, b) <= limit and w.clear_line(a, b))


def sees_any(w: World, looking: Iterable[str], targets: Collection[str], reach: int | None = None) -> bool:
    """Whether a piece in one of the hexes `looking` sees one of the hexes `targets` (`sees`), each looked at only
    from where it lies within `reach` (issue 15: arrivano §17.1.5's march orders tried every pair after every
    command)."""
    limit = w.sight_range() if reach is None else reach
    near = frozenset(targets)
    return any(sees(w, a, b, limit) for a in sorted(looking) for b in sorted(w.grid.near(a, limit) & near))


def observers(w: World, side: str) -> list[str]:
    """The hexes `side` looks from: those of its units and leaders on the map (caldiero §20.4.1, arrivano
    §11.3.2), in hex order."""
    return sorted(w.piece_hexes(side))


def in_view(w: World, looking_from: Sequence[str], h: str, reach: int) -> bool:
    """Whether a stack in `h` may be examined from one of the hexes `looking_from`: adjacent to it (no hex lies
    between, nothing can block; caldiero §20.4.1 says so even when weather takes the range to nothing) or seen
    within `reach` (arrivano §11.3.2, caldiero §20.4.1)."""
    return any(w.grid.distance(o, h) <= 1 or sees(w, o, h, reach) for o in looking_from)


def visible_hexes(w: World, side: str, reach: int | None = None) -> frozenset[str]:
    """Every hex whose stack `side` may examine (arrivano §11.3.2, caldiero §20.4.1): in view of one of its pieces
    within `reach` (the variant's sight range unless given). Once per position and side, and where the World's lines
    of sight do not depend on the position (`lines_key`) once for every position whose pieces of `side` stand in the
    same hexes: the fog is asked after every command for both seats, and for every event served to a seat, while
    most commands move the pieces of one side only (issue 15)."""
    limit = w.sight_range() if reach is None else reach
    return w.cached(("visible hexes", side, str(limit)), lambda: _visible_hexes(w, side, limit))


def sighted(w: World, side: str, unknown: Mapping[str, str], reach: int | None = None) -> list[str]:
    """Of the pieces `unknown` (each with its hex), those `side` may examine now, in id order (caldiero §20.4.1,
    arrivano §11.3.2): asked after every command for the pieces a seat has never examined, so nothing is worked out
    while there are none, and only their hexes are looked at, each from the side's pieces near enough to see it
    (`_in_sight`; issue 15)."""
    if not unknown:
        return []
    limit = w.sight_range() if reach is None else reach
    pieces = frozenset(w.piece_hexes(side))  # the World's own: no copy
    key = w.lines_key()
    # units never block (arrivano §11.3.1): whether a hex is in sight of these pieces holds for every position where
    # they stand there, so the side that did not move finds what it had asked (issue 15: ~5 % of a verify). The
    # pieces' hexes name the table as a frozenset, whose hash is worked out once for the position (a sorted tuple of
    # them was sorted again at every position, and hashed again at every look-up: issue 15). Where units block
    # (caldiero §11.3.1) the table is the position's: serving one event asks it for each hidden thing the event may
    # name (its pieces, units, frame), each of which traced every line again (issue 15: most of a Caldiero fog
    # attack's submit)
    table = w.cached(("in sight", side, limit), dict) if key is None else _IN_SIGHT.table((), (key, limit, pieces))
    found = []
    for p, h in unknown.items():
        seen_there = table.get(h)
        if seen_there is None:
            seen_there = table[h] = _in_sight(w, h, pieces, limit)
        if seen_there:
            found.append(p)
    return sorted(found)


_IN_SIGHT = Memo(256)
"""Whether a hex is in sight of a side's pieces (`_in_sight`), a table per lines key, reach and the hexes they stand
in: filled by `sighted` as it asks."""


def _in_sight(w: World, h: str, pieces: frozenset[str], limit: int) -> bool:
    """`in_view` of `h` from the hexes `pieces`, asked only of those within max(1, limit) of it: no other can be
    adjacent or see it. Its lines are the World's, kept across positions where units never block (`clear_line`):
    a verify traced every line of each unknown hex's whole view (4,364 on arrivano-montebello) to answer which of a
    few pieces see it (129 lines now). Most unknown hexes have no piece that near: one `isdisjoint` of the pieces
    with the hexes near `h` says so, walking the pieces (tens) rather than the hexes in reach (hundreds)."""
    reach = w.grid.near(h, max(1, limit))
    if reach.isdisjoint(pieces):
        return False
    return in_view(w, sorted(reach.intersection(pieces)), h, limit)


_SEEN = Memo(256)  # recent positions: the side that did not move finds its view here (~30 kB each)


def new_sightings(w: World, side: str, reach: int | None = None, commanders: bool = True) -> list[str]:
    """The enemy pieces on the map `side` may examine now and had never examined (`state.seen`), in id order
    (caldiero §20.4, arrivano §11.3.2, both "si può esaminare uno stack nemico solo se si ha una LoS"): its units, and
    its commanders where `commanders` (Arrivano records them; Caldiero names units only, a commander's name being
    public in both games, so his sighting changes nothing served)."""
    known = set(w.state.seen.get(side, []))
    enemy = w.enemy(side)
    # the enemy's pieces on the map read off the state in one pass each, not through the World's sorted lists of
    # every unit (issue 15: after every command, for both sides, most often at a position nothing else asked them)
    unknown = {u: s.hex for u, s in w.state.units.items()
               if s.side == enemy and s.where == "map" and s.hex and u not in known}
    if commanders:
        unknown |= {lid: le.hex for lid, le in w.state.leaders.items()
                    if le.side != side and le.where == "map" and le.hex and lid not in known}
    return sighted(w, side, unknown, reach)


def secret_units(w: World, side: str, reach: int | None = None) -> set[str]:
    """The enemy units `side` never examined and may not examine now, whose names nothing served to it may carry
    (caldiero §20.4, arrivano §11.3.2): on the map where it may not examine them (`sighted`), or off it where the
    state says (`unseen_off_map`: not yet seen arriving). A unit once examined is known by name; a commander's name
    is public in both games (each formation's general is printed), only his place is hidden."""
    known = set(w.state.seen.get(side, []))
    unknown = {u: s for u, s in w.state.units.items() if s.side != side and u not in known}
    on_map = {u: s.hex for u, s in unknown.items() if s.where == "map" and s.hex}
    off_map = {u for u, s in unknown.items() if s.where in w.state.unseen_off_map}
    return off_map | (set(on_map) - set(sighted(w, side, on_map, reach)))


def fog_in_force(fog_option: str | None, option: Callable[[str], bool]) -> bool:
    """Whether the fog of war is in force (caldiero §20.4, an optional rule; arrivano §11.3.2, always): the variant's
    `fog_option` (None: always) among the game's optional rules in play, as `option` says (`World.option`)."""
    return fog_option is None or option(fog_option)


def unexaminable(w: World, side: str, places: Iterable[str], reach: int | None = None) -> frozenset[str]:
    """The map hexes among `places` whose stacks `side` may not examine now (caldiero §20.4.1, arrivano §11.3.2);
    any other string (an off-map box, a name) is not a place of the map and is left out."""
    hexes = {p: p for p in places if w.grid.contains(p)}
    return frozenset(hexes) - frozenset(sighted(w, side, hexes, reach))


def sightings(w: World, rule: str, reach: int | None = None, commanders: bool = True) -> list[PiecesSighted]:
    """Each side's first sight of enemy pieces, as the events that record it (one a side, the sides in order;
    `new_sightings`), citing the game's fog of war rule."""
    out = []
    for side in w.sides:
        pieces = new_sightings(w, side, reach, commanders)
        if pieces:
            out.append(PiecesSighted(seat=side, pieces=tuple(pieces), rule=rule))
    return out


def _visible_hexes(w: World, side: str, limit: int) -> frozenset[str]:
    looking_from = tuple(observers(w, side))
    key = w.lines_key()
    if key is None:
        return _union(w, looking_from, limit)
    return _SEEN.get((), (key, limit, looking_from), lambda: _union(w, looking_from, limit))


def _union(w: World, looking_from: Sequence[str], limit: int) -> frozenset[str]:
    out: set[str] = set()
    for o in looking_from:
        out |= view_from(w, o, limit)
    return frozenset(out)


_VIEWS = Memo(50_000)


def view_from(w: World, o: str, limit: int) -> frozenset[str]:
    """The hexes a piece in `o` may examine within `limit` (`in_view`). Where the World's lines of sight do not
    depend on the position (`lines_key`: arrivano §11.3.1, units never block) what one hex sees is worked out once
    for every position (a game's fog is asked after every command, for both seats: issue 15)."""
    key = w.lines_key()
    return _view(w, o, limit) if key is None else _VIEWS.get((), (key, o, limit), lambda: _view(w, o, limit))


def _view(w: World, o: str, limit: int) -> frozenset[str]:
    """`in_view` from `o` alone, written out for the hexes `within` reach (every one no farther than max(1, limit)):
    adjacent, or along a clear line. Each first sight of a hex asks it of hundreds of hexes (issue 15)."""
    distance, clear = w.grid.distance, w.clear_line
    return frozenset(h for h in w.grid.within(o, max(1, limit)) if distance(o, h) <= 1 or clear(o, h))
