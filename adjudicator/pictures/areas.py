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

from arbitro.adjudicator.pictures.hexes import MARGIN, NOTE_LINE, note_lines
from arbitro.adjudicator.pictures.model import AreaPicture, Block

WIDTH, HEIGHT = 1100.0, 800.0  # the map's drawing area
ZONE_W, ZONE_H = 120.0, 58.0
BLOCK = 16.0
ITERATIONS = 300
LAYOUT_NOTE = "zone positions: laid out from the approaches (the printed map's are not in the rulebook)"


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


def draw_area_picture(picture: AreaPicture) -> draw.Drawing:
    links = sorted({tuple(sorted((a.zone, a.toward))) for a in picture.approaches})  # type: ignore[misc]
    unit = layout([z.id for z in picture.zones], links)  # type: ignore[arg-type]
    centre = {z: (MARGIN + ZONE_W / 2 + x * (WIDTH - ZONE_W), 60 + ZONE_H / 2 + y * (HEIGHT - ZONE_H))
              for z, (x, y) in unit.items()}
    notes = note_lines((*picture.provisional, LAYOUT_NOTE))
    height = 60 + HEIGHT + ZONE_H + MARGIN + NOTE_LINE * len(notes)
    drawing = draw.Drawing(round(WIDTH + 2 * MARGIN + ZONE_W), round(height))
    drawing.append(draw.Rectangle(0, 0, round(WIDTH + 2 * MARGIN + ZONE_W), round(height), fill="white"))
    drawing.append(draw.Text(picture.title, 18, MARGIN, 22, font_family="sans-serif", font_weight="bold"))
    drawing.append(draw.Text(picture.caption, 12, MARGIN, 40, font_family="sans-serif"))
    approaches = draw.Group(id="approaches")
    for a in picture.approaches:
        (ax, ay), (bx, by) = centre[a.zone], centre[a.toward]
        approaches.append(draw.Line(round(ax, 2), round(ay, 2), round(bx, 2), round(by, 2), stroke="#7a6a50",
                                    stroke_width=5 if a.width == "wide" else 1.5, data_approach=f"{a.zone}/{a.toward}"))
        if a.symbols:  # written a third of the way from its own zone
            approaches.append(draw.Text(" ".join(a.symbols), 8, round(ax + (bx - ax) / 3, 2),
                                        round(ay + (by - ay) / 3, 2), text_anchor="middle", font_family="sans-serif"))
    drawing.append(approaches)
    zones = draw.Group(id="zones")
    for z in picture.zones:
        x, y = centre[z.id][0] - ZONE_W / 2, centre[z.id][1] - ZONE_H / 2
        zones.append(draw.Rectangle(round(x, 2), round(y, 2), ZONE_W, ZONE_H, rx=8, fill="#eef3d6", stroke="#555555",
                                    data_zone=z.id))
        zones.append(draw.Text(f"{'★ ' if z.star else ''}{z.name[:26]}", 8, round(x + 4, 2), round(y + 11, 2),
                               font_family="sans-serif"))
        zones.append(draw.Text(f"cap. {z.capacity}", 7, round(x + ZONE_W - 4, 2), round(y + ZONE_H - 4, 2),
                               text_anchor="end", font_family="sans-serif", fill="#555555"))
        for i, block in enumerate(picture.blocks.get(z.id, ())):
            zones.append(_block(block, z.id, x + 4 + (BLOCK + 3) * (i % 6), y + 16 + (BLOCK + 3) * (i // 6),
                                picture.colours.get(block.side, "#cccccc")))
    drawing.append(zones)
    for i, line in enumerate(notes):
        drawing.append(draw.Text(line, 10, MARGIN, 60 + HEIGHT + ZONE_H + MARGIN + NOTE_LINE * i,
                                 font_family="sans-serif", fill="#8a1c1c", class_="provisional"))
    return drawing


def _block(block: Block, zone: str, x: float, y: float, fill: str) -> draw.Group:
    attrs = {"data_piece": block.id} if block.id else {"data_face_up" if block.values else "data_blank": block.side}
    group = draw.Group(data_zone=zone, data_side=block.side, **attrs)
    group.append(draw.Rectangle(round(x, 2), round(y, 2), BLOCK, BLOCK, fill=fill, stroke="black", stroke_width=0.8))
    if block.values:
        group.append(draw.Text(block.values, 7, round(x + BLOCK / 2, 2), round(y + BLOCK / 2 + 2.5, 2),
                               text_anchor="middle", font_family="sans-serif"))
    return group
