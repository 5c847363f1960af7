"""The area map renderer: an AreaPicture (model.py) as SVG, drawn with drawsvg. Zones are boxes with their name and
capacity, approaches lines between them (a wide approach thick, a narrow one thin, its symbols written on it),
blocks small squares in their zone: the seat's own and face-up ones with their values, an enemy's face-down block
blank in its side's colour.

The rulebooks print no zone positions, so the zones are laid out from the approach graph (a fixed-iteration
spring layout from a start ordered by zone id: the same zones and approaches always give the same picture); the
margin says so. Each block is a group carrying `data-zone`, and `data-piece` (its served id) unless blank."""

from __future__ import annotations

import math
from functools import cache

import drawsvg as draw

from arbitro.adjudicator.pictures.hexes import MARGIN, NOTE_LINE, assault_arrow, note_lines
from arbitro.adjudicator.pictures.model import AreaPicture, Block

WIDTH, HEIGHT = 1100.0, 800.0  # the map's drawing area
ZONE_W, ZONE_H = 120.0, 58.0
BLOCK = 16.0
ITERATIONS = 300
LAYOUT_NOTE = "zone positions: laid out from the approaches (the printed map's are not in the rulebook)"
ZONE_FILLS: dict[str, str] = {"": "#eef3d6", "open": "#eef3d6", "difficult": "#d9c08c"}
# border kind -> (stroke, width, dash); "" is drawn by the approach's width (Marengo's narrow and wide approaches)
BORDER_STYLES: dict[str, tuple[str, float, str]] = {
    "land": ("#7a6a50", 1.5, ""), "river": ("#2f6fb3", 3.5, ""), "bridge": ("#2f6fb3", 3.5, "10,4"),
    "passage": ("#7a6a50", 1.5, "2,3"), "impassable": ("#8a1c1c", 2.5, "6,3"),
}


def layout(zones: list[str], links: list[tuple[str, str]]) -> dict[str, tuple[float, float]]:
    """Zone centres in [0, 1]^2 (Fruchterman-Reingold, rounded each step so the result is exact across runs),
    computed once per map (a report draws the same map many times)."""
    return dict(_layout(tuple(zones), tuple(links)))


@cache
def _layout(zones: tuple[str, ...], links: tuple[tuple[str, str], ...]) -> tuple[tuple[str, tuple[float, float]], ...]:
    n = len(zones)
    pos = {z: (0.5 + 0.4 * math.cos(2 * math.pi * i / n), 0.5 + 0.4 * math.sin(2 * math.pi * i / n))
           for i, z in enumerate(sorted(zones))}
    k = math.sqrt(1.0 / max(n, 1))
    for step in range(ITERATIONS):
        temperature = 0.1 * (1 - step / ITERATIONS)
        move = {z: [0.0, 0.0] for z in pos}
        for a in sorted(pos):
            for b in sorted(pos):
                if a < b:
                    dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
                    d = max(math.hypot(dx, dy), 1e-3)
                    f = k * k / d
                    move[a][0] += dx / d * f; move[a][1] += dy / d * f
                    move[b][0] -= dx / d * f; move[b][1] -= dy / d * f
        for a, b in links:
            dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
            d = max(math.hypot(dx, dy), 1e-3)
            f = d * d / k
            move[a][0] -= dx / d * f; move[a][1] -= dy / d * f
            move[b][0] += dx / d * f; move[b][1] += dy / d * f
        for z in sorted(pos):
            mx, my = move[z]
            d = max(math.hypot(mx, my), 1e-9)
            step_len = min(d, temperature)
            x = min(1.0, max(0.0, pos[z][0] + mx / d * step_len))
            y = min(1.0, max(0.0, pos[z][1] + my / d * step_len))
            pos[z] = (round(x, 6), round(y, 6))
    return tuple(pos.items())


GAP = 6.0  # the least room between two zones' boxes


def separate(centre: dict[str, tuple[float, float]], zone_h: float) -> dict[str, tuple[float, float]]:
    """No two zones' boxes overlap: taken in zone id order, a zone whose box would overlap one already placed moves to
    the nearest free cell of a grid of boxes over the drawing area (a map whose layout has no overlap is unchanged;
    the spring layout crowds a big map's zones against the edges)."""
    cells = [(MARGIN + ZONE_W / 2 + i * (ZONE_W + GAP), 60 + zone_h / 2 + j * (zone_h + GAP))
             for j in range(int((HEIGHT - zone_h) // (zone_h + GAP)) + 1)
             for i in range(int((WIDTH - ZONE_W) // (ZONE_W + GAP)) + 1)]
    placed: dict[str, tuple[float, float]] = {}

    def free(x: float, y: float) -> bool:
        return all(abs(x - px) >= ZONE_W + GAP or abs(y - py) >= zone_h + GAP for px, py in placed.values())

    for zone in sorted(centre):
        x, y = centre[zone]
        if not free(x, y):
            x, y = min((c for c in cells if free(*c)), key=lambda c: (math.hypot(c[0] - x, c[1] - y), c),
                       default=(x, y))
        placed[zone] = (x, y)
    return placed


def zone_height(picture: AreaPicture) -> float:
    """Tall enough for the fullest zone's blocks (six a row) and its marks line."""
    rows = max([math.ceil(len(bs) / 6) for bs in picture.blocks.values()] + [2])
    marked = any(z.marks for z in picture.zones)
    return max(ZONE_H, 16 + (BLOCK + 3) * rows + (10 if marked else 0) + 4)


def draw_area_picture(picture: AreaPicture) -> draw.Drawing:
    links = sorted({tuple(sorted((a.zone, a.toward))) for a in picture.approaches})  # type: ignore[misc]
    unit = layout([z.id for z in picture.zones], links)  # type: ignore[arg-type]
    zone_h = zone_height(picture)
    centre = separate({z: (MARGIN + ZONE_W / 2 + x * (WIDTH - ZONE_W), 60 + zone_h / 2 + y * (HEIGHT - zone_h))
                       for z, (x, y) in unit.items()}, zone_h)
    notes = note_lines((*picture.provisional, LAYOUT_NOTE))
    height = 60 + HEIGHT + zone_h + MARGIN + NOTE_LINE * len(notes)
    drawing = draw.Drawing(round(WIDTH + 2 * MARGIN + ZONE_W), round(height))
    drawing.append(draw.Rectangle(0, 0, round(WIDTH + 2 * MARGIN + ZONE_W), round(height), fill="white"))
    drawing.append(draw.Text(picture.title, 18, MARGIN, 22, font_family="sans-serif", font_weight="bold"))
    drawing.append(draw.Text(picture.caption, 12, MARGIN, 40, font_family="sans-serif"))
    approaches = draw.Group(class_="approaches")
    for a in picture.approaches:
        (ax, ay), (bx, by) = centre[a.zone], centre[a.toward]
        stroke, width, dash = BORDER_STYLES.get(a.kind, ("#7a6a50", 5 if a.width == "wide" else 1.5, ""))
        style = {"stroke_dasharray": dash} if dash else {}
        approaches.append(draw.Line(round(ax, 2), round(ay, 2), round(bx, 2), round(by, 2), stroke=stroke,
                                    stroke_width=width, data_approach=f"{a.zone}/{a.toward}", **style))
        if a.symbols:  # written a third of the way from its own zone
            approaches.append(draw.Text(" ".join(a.symbols), 8, round(ax + (bx - ax) / 3, 2),
                                        round(ay + (by - ay) / 3, 2), text_anchor="middle", font_family="sans-serif"))
    drawing.append(approaches)
    zones = draw.Group(class_="zones")
    for z in picture.zones:
        x, y = centre[z.id][0] - ZONE_W / 2, centre[z.id][1] - zone_h / 2
        zones.append(draw.Rectangle(round(x, 2), round(y, 2), ZONE_W, zone_h, rx=8, fill=ZONE_FILLS.get(z.terrain,
                                    ZONE_FILLS[""]), stroke="#555555", data_zone=z.id))
        zones.append(draw.Text(f"{'★ ' if z.star else ''}{z.name[:26]}", 8, round(x + 4, 2), round(y + 11, 2),
                               font_family="sans-serif"))
        if z.capacity:
            zones.append(draw.Text(f"cap. {z.capacity}", 7, round(x + ZONE_W - 4, 2), round(y + zone_h - 4, 2),
                                   text_anchor="end", font_family="sans-serif", fill="#555555"))
        if z.marks:
            zones.append(draw.Text(" · ".join(z.marks)[:40], 7, round(x + 4, 2), round(y + zone_h - 4, 2),
                                   font_family="sans-serif", fill="#8a1c1c", data_marks=z.id))
        for i, block in enumerate(picture.blocks.get(z.id, ())):
            zones.append(_block(block, z.id, x + 4 + (BLOCK + 3) * (i % 6), y + 16 + (BLOCK + 3) * (i // 6),
                                picture.colours.get(block.side, "#cccccc")))
    drawing.append(zones)
    if picture.assaults:
        drawing.append(_assaults(picture, centre))
    for i, line in enumerate(notes):
        drawing.append(draw.Text(line, 10, MARGIN, 60 + HEIGHT + zone_h + MARGIN + NOTE_LINE * i,
                                 font_family="sans-serif", fill="#8a1c1c", class_="provisional"))
    return drawing


def _assaults(picture: AreaPicture, centre: dict[str, tuple[float, float]]) -> draw.Group:
    """The last assault: a dashed arrow from the attackers' zone most of the way to the zone attacked."""
    group = draw.Group(class_="assaults", fill="none", stroke="#6c1010", stroke_width=3, stroke_dasharray="6,3")
    for start, end in picture.assaults:
        if start in centre and end in centre and start != end:
            (ax, ay), (bx, by) = centre[start], centre[end]
            group.append(assault_arrow(f"{start} {end}", ax + (bx - ax) * 0.2, ay + (by - ay) * 0.2,
                                       ax + (bx - ax) * 0.75, ay + (by - ay) * 0.75))
    return group


def _block(block: Block, zone: str, x: float, y: float, fill: str) -> draw.Group:
    attrs = {"data_piece": block.id} if block.id else {"data_face_up" if block.values else "data_blank": block.side}
    group = draw.Group(data_zone=zone, data_side=block.side, **attrs)
    group.append(draw.Rectangle(round(x, 2), round(y, 2), BLOCK, BLOCK, fill=fill, stroke="black", stroke_width=0.8))
    if block.values:
        group.append(draw.Text(block.values, 7, round(x + BLOCK / 2, 2), round(y + BLOCK / 2 + 2.5, 2),
                               text_anchor="middle", font_family="sans-serif"))
    if block.marks:  # a red bar across its foot, the words in its tooltip
        group.append(draw.Rectangle(round(x, 2), round(y + BLOCK - 3, 2), BLOCK, 3, fill="#c0392b",
                                    data_marks=" ".join(block.marks)))
        group.append(draw.Title(", ".join(block.marks)))
    return group
