"""The drawing interface between a ruleset and a renderer: what a picture holds, built by each ruleset from a seat's
VIEW (never from the full state), so a seat's picture holds exactly what that seat is served (issue 13).

A renderer knows map kinds, not games; a ruleset knows its view, not SVG."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from arbitro.adjudicator.maps.hexmap import HexMap


@dataclass(frozen=True, slots=True)
class Counter:
    """A piece the seat may examine: its id as served, its side, a short label and its visible printed values."""

    id: str
    side: str
    label: str
    values: str = ""
    marks: tuple[str, ...] = ()  # e.g. "reduced", "disordered": drawn as small words under the values
    leader: bool = False
    order: str = ""  # a commander's order or commitment level (attack, advance, ...): a tag under his disc


@dataclass(frozen=True, slots=True)
class StackMarker:
    """An enemy stack the seat may not examine (fog of war): only its side, never what is in it."""

    side: str


Piece = Counter | StackMarker


@dataclass(frozen=True, slots=True)
class Objective:
    """A victory hex printed on the map: its value as printed, and who holds it where the game keeps that."""

    name: str  # the place, e.g. "Caldiero"
    value: str  # its victory points as printed, e.g. "2" (or "i5" where they differ by side)
    holder: str = ""


@dataclass(frozen=True, slots=True)
class HexPicture:
    """A hex map and what stands on it, as one seat sees it."""

    hexmap: HexMap
    title: str
    caption: str  # who sees it and when: seat, turn, phase
    pieces: Mapping[str, tuple[Piece, ...]]  # hex id -> its pieces, top of the stack last
    colours: Mapping[str, str]  # side -> fill colour of its counters
    terrain_colours: Mapping[str, str] = field(default_factory=dict)  # terrain -> fill; others: a neutral grey
    provisional: tuple[str, ...] = ()  # the reconstructed data this picture rests on, noted in the margin
    moves: tuple[tuple[str, ...], ...] = ()  # the last moves as arrows: each the hexes passed, in order
    objectives: Mapping[str, Objective] = field(default_factory=dict)  # hex id -> the victory hex printed there
    assaults: tuple[tuple[str, str], ...] = ()  # the last assault as arrows: (an attacker's hex, a target hex)


@dataclass(frozen=True, slots=True)
class Zone:
    """An area of an area map: its id, printed name and capacity (in pieces)."""

    id: str
    name: str
    capacity: int = 0  # 0: the game sets no capacity (not drawn)
    star: bool = False
    terrain: str = ""  # its fill (areas.ZONE_FILLS); "": the plain fill
    marks: tuple[str, ...] = ()  # e.g. "fortress", "VP 10", "fort pro_france": written under its name


@dataclass(frozen=True, slots=True)
class Approach:
    """A link between two zones, with its width and the symbols printed on it."""

    zone: str
    toward: str
    width: str  # narrow | wide
    symbols: tuple[str, ...] = ()
    kind: str = ""  # how the line is drawn (areas.BORDER_STYLES): "" by its width; land, river, bridge, passage, ...


@dataclass(frozen=True, slots=True)
class Block:
    """A block on an area map: face up (or the seat's own) with its values, or a blank block (`values` empty,
    `id` empty): an enemy block whose face the seat may not see, drawn with its side's colour only."""

    side: str
    id: str = ""
    label: str = ""
    values: str = ""
    marks: tuple[str, ...] = ()  # e.g. "disorganised": a red bar across the block, the words in its tooltip


@dataclass(frozen=True, slots=True)
class AreaPicture:
    """An area map and the blocks in its zones, as one seat sees it."""

    title: str
    caption: str
    zones: tuple[Zone, ...]
    approaches: tuple[Approach, ...]
    blocks: Mapping[str, tuple[Block, ...]]  # zone id -> its blocks
    colours: Mapping[str, str]
    provisional: tuple[str, ...] = ()
    assaults: tuple[tuple[str, str], ...] = ()  # the last assault as arrows: (the attackers' zone, the zone attacked)


Picture = HexPicture | AreaPicture


class Picturing(Protocol):
    """What a ruleset implements to be drawn: its picture of one served view (`view["state"]` is the ruleset's
    view for `view["seat"]`, as `Arbitro.view` returns it), drawn on `data`, the data files the game carries (name ->
    text, Ruleset.carried_data; None or {}: the shipped data)."""

    def __call__(self, view: Mapping[str, Any], provisional: tuple[str, ...],
                 data: Mapping[str, str] | None = None) -> Picture: ...
