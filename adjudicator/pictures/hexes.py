"""The hex map renderer: a HexPicture (model.py) as SVG, drawn with drawsvg. Terrain fills each hex, roads run
through hex centres, hexside features (rivers, streams, scarps) line the shared edge, every hex shows its id;
counters carry their side's colour, label and visible values; an unexamined stack is a blank marker with its
side's colour and a "?"; the provisional data is listed in the margin.

Each counter is a group carrying `data-piece` (its served id) and `data-hex`, each marker `data-stack`, so tests
and tools read back what was drawn from the SVG itself. No element has an `id` (a layer is named by its class, an
arrow's head is drawn, not referenced as a marker): several pictures can sit in one HTML page, as a report's do."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import drawsvg as draw

from arbitro.adjudicator.maps.hexmap import HexMap
from arbitro.adjudicator.pictures.model import Counter, HexPicture, Piece, StackMarker

SIZE = 36.0  # a hex's circumradius in pixels (its edge length)
MARGIN = 24.0
HEADER = 48.0
COUNTER = 34.0  # a counter's side
LEADER = 9.0  # a commander's disc radius
NOTE_LINE = 14.0
NOTE_WIDTH = 150  # characters per line of the margin note
OFF_MAP_FILL = "#dddddd"

# Fills for the terrains the rulebooks' maps use (Italian names as in the map files); any other: DEFAULT_TERRAIN.
TERRAIN_FILLS: dict[str, str] = {
    "pianura": "#eef3d6", "chiaro": "#eef3d6", "grano": "#f6e7a8", "collina": "#d9c08c", "palude": "#b9d8d0",
    "bosco": "#9cc48a", "villaggio": "#e5b7a5", "cascina": "#ecc9b8", "fortificazione": "#b49a9a",
    "ridotta": "#c5a3a3",
}
DEFAULT_TERRAIN = "#f2f2ec"
SIDE_FEATURES: dict[str, tuple[str, float]] = {  # hexside feature -> (stroke, width)
    "fiume": ("#2f6fb3", 5.0), "torrente": ("#5c9bd6", 3.0), "canale": ("#5c9bd6", 3.0),
    "scarpata": ("#7a4b25", 4.0), "ponte": ("#444444", 6.0),
}
ROAD_STYLES: dict[str, tuple[str, float, str]] = {  # road kind -> (stroke, width, dash)
    "strada": ("#8a3b12", 3.0, ""), "strada_minore": ("#8a3b12", 1.8, "6,3"), "pista": ("#8a3b12", 1.2, "2,3"),
}


@dataclass(frozen=True, slots=True)
class Layout:
    """Hex centres in pixels: the grid's cube plane (a similarity image of the printed map) laid out as printed,
    rows growing downward."""

    hexmap: HexMap
    dx: float
    dy: float

    @classmethod
    def of(cls, hexmap: HexMap) -> Layout:
        raw = [_axial_pixel(hexmap, h) for h in hexmap.hexes()]
        return cls(hexmap, MARGIN + SIZE - min(x for x, _ in raw), HEADER + SIZE - min(y for _, y in raw))

    def centre(self, hex_id: str) -> tuple[float, float]:
        x, y = _axial_pixel(self.hexmap, hex_id)
        return x + self.dx, y + self.dy

    def corners(self, hex_id: str) -> list[float]:
        x, y = self.centre(hex_id)
        start = 0 if self.hexmap.grid.orientation == "flat-top" else 30
        points: list[float] = []
        for k in range(6):
            angle = math.radians(start + 60 * k)
            points += [round(x + SIZE * math.cos(angle), 2), round(y + SIZE * math.sin(angle), 2)]
        return points


def _axial_pixel(hexmap: HexMap, hex_id: str) -> tuple[float, float]:
    cube = hexmap.grid.to_cube(hex_id)
    if hexmap.grid.orientation == "flat-top":
        return SIZE * 1.5 * cube.q, SIZE * math.sqrt(3) * (cube.r + cube.q / 2)
    return SIZE * math.sqrt(3) * (cube.q + cube.r / 2), SIZE * 1.5 * cube.r


def draw_hex_picture(picture: HexPicture) -> draw.Drawing:
    """The picture as an SVG drawing (deterministic: the same picture gives the same bytes)."""
    layout = Layout.of(picture.hexmap)
    hexes = picture.hexmap.hexes()
    width = max(layout.centre(h)[0] for h in hexes) + SIZE + MARGIN
    notes = note_lines(picture.provisional)
    map_bottom = max(layout.centre(h)[1] for h in hexes) + SIZE
    height = map_bottom + MARGIN + NOTE_LINE * len(notes)
    drawing = draw.Drawing(round(width), round(height))
    drawing.append(draw.Rectangle(0, 0, round(width), round(height), fill="white"))
    drawing.append(draw.Text(picture.title, 18, MARGIN, 22, font_family="sans-serif", font_weight="bold"))
    drawing.append(draw.Text(picture.caption, 12, MARGIN, 40, font_family="sans-serif"))
    drawing.append(_terrain(picture, layout))
    drawing.append(_roads(picture.hexmap, layout))
    drawing.append(_hexsides(picture.hexmap, layout))
    if picture.objectives:
        drawing.append(_objectives(picture, layout))
    drawing.append(_pieces(picture, layout))
    if picture.moves:
        drawing.append(_moves(picture, layout))
    if picture.assaults:
        drawing.append(_assaults(picture, layout))
    for i, line in enumerate(notes):
        drawing.append(draw.Text(line, 10, MARGIN, map_bottom + MARGIN + NOTE_LINE * i, font_family="sans-serif",
                                 fill="#8a1c1c", class_="provisional"))
    return drawing


def _terrain(picture: HexPicture, layout: Layout) -> draw.Group:
    # what every hex shares is said once, on its group (SVG inherits it), to keep the file small
    group = draw.Group(class_="terrain", stroke="#9a9a9a", stroke_width=0.8)
    ids = draw.Group(class_="hex-ids", font_size=8, text_anchor="middle", font_family="sans-serif", fill="#555555")
    names = draw.Group(class_="hex-names", font_size=8, text_anchor="middle", font_family="sans-serif",
                       font_style="italic")
    fills = {**TERRAIN_FILLS, **picture.terrain_colours}
    for h in picture.hexmap.hexes():
        info = picture.hexmap.hex(h)
        group.append(draw.Lines(*layout.corners(h), close=True, fill=fills.get(info.terrain, DEFAULT_TERRAIN),
                                data_hex=h, data_terrain=info.terrain))
        x, y = layout.centre(h)
        ids.append(draw.Text(h, None, round(x, 2), round(y - SIZE * 0.62, 2)))
        if info.name:
            names.append(draw.Text(info.name, None, round(x, 2), round(y + SIZE * 0.72, 2)))
    return draw.Group([group, ids, names])


def _roads(hexmap: HexMap, layout: Layout) -> draw.Group:
    group = draw.Group(class_="roads", fill="none")
    for road in hexmap.roads:
        stroke, width, dash = ROAD_STYLES.get(road.kind, ("#8a3b12", 1.5, ""))
        points = [c for h in road.hexes for c in layout.centre(h)]
        extra: dict[str, Any] = {"stroke_dasharray": dash} if dash else {}
        group.append(draw.Lines(*points, close=False, stroke=stroke, stroke_width=width, fill="none",
                                data_road=road.kind, **extra))
    return group


def _hexsides(hexmap: HexMap, layout: Layout) -> draw.Group:
    group = draw.Group(class_="hexsides")
    for h in hexmap.hexes():
        for n in hexmap.grid.neighbours(h):
            if n < h:
                continue  # each edge once
            for feature in hexmap.hexside_features(h, n):
                stroke, width = SIDE_FEATURES.get(feature, ("#333333", 2.0))
                (ax, ay), (bx, by) = layout.centre(h), layout.centre(n)
                mx, my, length = (ax + bx) / 2, (ay + by) / 2, math.hypot(bx - ax, by - ay)
                px, py = -(by - ay) / length * SIZE / 2, (bx - ax) / length * SIZE / 2
                group.append(draw.Line(round(mx - px, 2), round(my - py, 2), round(mx + px, 2), round(my + py, 2),
                                       stroke=stroke, stroke_width=width, data_hexside=f"{h}-{n}",
                                       data_feature=feature))
    return group


def _moves(picture: HexPicture, layout: Layout) -> draw.Group:
    """The last moves as arrows through the centres of the hexes passed (a path leaving the map is not drawn)."""
    group = draw.Group(class_="moves", fill="none", stroke="#c0392b", stroke_width=2.5, stroke_opacity=0.85)
    for path in picture.moves:
        if len(path) < 2 or not all(picture.hexmap.grid.contains(h) for h in path):
            continue
        points = [round(c, 2) for h in path for c in layout.centre(h)]
        arrow = draw.Group(data_move=" ".join(path))
        arrow.append(draw.Lines(*points, close=False))
        arrow.append(arrow_head(*points[-4:], "#c0392b"))
        group.append(arrow)
    return group


def _assaults(picture: HexPicture, layout: Layout) -> draw.Group:
    """The last assault: a dashed arrow from each attacker's hex to each hex it attacks."""
    group = draw.Group(class_="assaults", fill="none", stroke="#6c1010", stroke_width=3, stroke_dasharray="6,3")
    for start, end in picture.assaults:
        if start != end and picture.hexmap.grid.contains(start) and picture.hexmap.grid.contains(end):
            (ax, ay), (bx, by) = layout.centre(start), layout.centre(end)
            group.append(assault_arrow(f"{start} {end}", ax, ay, ax + (bx - ax) * 0.8, ay + (by - ay) * 0.8))
    return group


ARROW_HEAD = 10.0  # an arrow head's length in pixels


def arrow_head(ax: float, ay: float, bx: float, by: float, fill: str) -> draw.Lines:
    """A filled triangle whose tip is (bx, by), pointing along a -> b (drawn, not an SVG marker, which needs an id)."""
    length = max(math.hypot(bx - ax, by - ay), 1e-9)
    ux, uy = (bx - ax) / length, (by - ay) / length
    base_x, base_y = bx - ux * ARROW_HEAD, by - uy * ARROW_HEAD
    half = ARROW_HEAD / 2
    return draw.Lines(round(bx, 2), round(by, 2), round(base_x - uy * half, 2), round(base_y + ux * half, 2),
                      round(base_x + uy * half, 2), round(base_y - ux * half, 2), close=True, fill=fill,
                      stroke="none")


def assault_arrow(label: str, ax: float, ay: float, bx: float, by: float) -> draw.Group:
    """An assault's dashed arrow from (ax, ay) to (bx, by), carrying `data-assault` (hex and area maps alike)."""
    arrow = draw.Group(data_assault=label)
    arrow.append(draw.Line(round(ax, 2), round(ay, 2), round(bx, 2), round(by, 2)))
    arrow.append(arrow_head(ax, ay, bx, by, "#6c1010"))
    return arrow


def _objectives(picture: HexPicture, layout: Layout) -> draw.Group:
    """Each victory hex: a star left of the hex's centre (in its holder's colour where the game keeps one) and its
    printed value."""
    group = draw.Group(class_="objectives", font_family="sans-serif", font_size=7, text_anchor="middle")
    for h, objective in sorted(picture.objectives.items()):
        if not picture.hexmap.grid.contains(h):
            continue
        x, y = layout.centre(h)
        cx, cy = x - SIZE * 0.66, y - 2
        points = [round(c, 2) for k in range(10) for c in (
            cx + (6.5 if k % 2 == 0 else 2.8) * math.sin(math.pi * k / 5),
            cy - (6.5 if k % 2 == 0 else 2.8) * math.cos(math.pi * k / 5))]
        star = draw.Group(data_objective=h, data_holder=objective.holder)
        star.append(draw.Title(f"{objective.name}: {objective.value} VP"
                               + (f", held by {objective.holder}" if objective.holder else "")))
        star.append(draw.Lines(*points, close=True, fill=picture.colours.get(objective.holder, "#f1c40f"),
                               stroke="#7d6608", stroke_width=0.8))
        star.append(draw.Text(objective.value, None, round(cx, 2), round(cy + 13, 2), font_weight="bold"))
        group.append(star)
    return group


def _pieces(picture: HexPicture, layout: Layout) -> draw.Group:
    group = draw.Group(class_="pieces")
    for h in sorted(picture.pieces):
        x, y = layout.centre(h)
        stack = picture.pieces[h]
        for depth, piece in enumerate(stack):
            offset = 3.0 * (depth - (len(stack) - 1) / 2)
            group.append(_piece(piece, h, x + offset - COUNTER / 2, y + offset - COUNTER / 2, picture.colours))
        if len(stack) > 2:
            group.append(draw.Text(str(len(stack)), 9, x + COUNTER / 2 + 4, y - COUNTER / 2, font_family="sans-serif",
                                   font_weight="bold"))
    return group


def _piece(piece: Piece, hex_id: str, x: float, y: float, colours: dict[str, str] | Any) -> draw.Group:
    fill = colours.get(piece.side, "#cccccc")
    if isinstance(piece, StackMarker):
        group = draw.Group(data_stack=piece.side, data_hex=hex_id)
        group.append(draw.Rectangle(x, y, COUNTER, COUNTER, fill=fill, stroke="black", stroke_width=1))
        group.append(draw.Text("?", 18, x + COUNTER / 2, y + COUNTER / 2 + 6, text_anchor="middle",
                               font_family="sans-serif", font_weight="bold"))
        return group
    return _counter(piece, hex_id, x, y, fill)


def _counter(counter: Counter, hex_id: str, x: float, y: float, fill: str) -> draw.Group:
    group = draw.Group(data_piece=counter.id, data_hex=hex_id, data_side=counter.side)
    group.append(draw.Title(f"{counter.id} ({counter.side}) {counter.values} {' '.join(counter.marks)}".strip()))
    if counter.leader:  # a small disc at the stack's corner, so the units under him stay legible
        group.append(draw.Circle(x, y, LEADER, fill=fill, stroke="black", stroke_width=1))
        group.append(draw.Text(counter.label[:4], 6, x, y + 2, text_anchor="middle", font_family="sans-serif"))
        if counter.order:  # his order (or commitment level) on a tag under the disc
            tag = draw.Group(data_order=counter.order)
            tag.append(draw.Rectangle(x - 9, y + LEADER - 1, 18, 8, fill="white", stroke="black", stroke_width=0.6))
            tag.append(draw.Text(counter.order[:4].upper(), 5.5, x, y + LEADER + 5, text_anchor="middle",
                                 font_family="sans-serif", font_weight="bold"))
            group.append(tag)
        return group
    group.append(draw.Rectangle(x, y, COUNTER, COUNTER, fill=fill, stroke="black", stroke_width=1, rx=2))
    lines = [counter.label[:9], counter.values, " ".join(counter.marks)[:9]]
    for i, line in enumerate(lines):
        if line:
            group.append(draw.Text(line, 7, x + COUNTER / 2, y + 10 + 9 * i, text_anchor="middle",
                                   font_family="sans-serif"))
    return group


def note_lines(provisional: tuple[str, ...]) -> list[str]:
    if not provisional:
        return []
    lines = ["Provisional (reconstructed, not printed in the rulebook):"]
    for item in provisional:
        text = "- " + item
        while len(text) > NOTE_WIDTH:
            cut = text.rfind(" ", 0, NOTE_WIDTH)
            cut = cut if cut > 0 else NOTE_WIDTH
            lines.append(text[:cut])
            text = "  " + text[cut:].lstrip()
        lines.append(text)
    return lines
