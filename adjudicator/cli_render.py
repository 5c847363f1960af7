"""The command line's picture command: `arbitro render`, a seat's view of a game's map as SVG (issue 13), loaded
lazily by cli.py (cli.LAZY_COMMANDS): the SVG library is not imported by every other command."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import click

from arbitro.adjudicator.errors import BadInput
from arbitro.adjudicator.cli_common import (
    db_option, handle_errors, json_option, open_app, out, seat_option, write_text,
)
from arbitro.adjudicator.render import render as render_picture
from arbitro.projections.base import UMPIRE


@click.command()
@click.argument("game")
@seat_option(required=False, default=UMPIRE)
@click.option("--at", "at", type=int, help="The position after this event (default: now).")
@click.option("-o", "--output", "output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              metavar="FILE.svg", help="Where to write the SVG picture.")
@click.option("--png", is_flag=True, help="Also write FILE.png beside it (needs rsvg-convert: apt-get install librsvg2-bin).")
@db_option
@json_option
@handle_errors
def render(game: str, seat: str, at: int | None, output: Path, png: bool, db: str, as_json: bool) -> None:
    """Draw the map of GAME as SEAT sees it (default: the umpire, who sees everything) as an SVG picture: the
    terrain, roads, rivers and hex ids; every piece SEAT may examine as a counter in its side's colours with its
    printed values; the last move SEAT was served as arrows; an enemy stack SEAT may not examine as a blank
    marker; on Marengo's area map the zones, approaches and blocks, an enemy block face down as a blank block;
    on Monferrato's the zones, borders, fortress walls, forts and units; the provisional data in the margin.
    --json prints what was drawn.

    \b
    Example:
        arbitro render caldiero-1a2b3c4d --as france --at 40 -o map.svg
        arbitro render marengo-1a2b3c4d --as austria -o map.svg --png
    """
    app = open_app(db, "read")
    app.game(game)  # an unknown game is said first (exit 3), as by every command naming one
    if output.suffix.lower() != ".svg":  # an SVG written under another name misleads (and --png's FILE.png is it)
        raise BadInput(f"-o {output}: render writes an SVG picture: name the file .svg (--png adds FILE.png beside it)")
    converter = shutil.which("rsvg-convert")
    if png and converter is None:  # said before anything is written
        raise BadInput("--png needs rsvg-convert, which is not installed here (apt-get install librsvg2-bin); "
                       "the SVG alone needs nothing: leave out --png")
    rendered = render_picture(app, game, seat, at)
    write_text(output, rendered.svg)
    drawn = {**rendered.drawn, "output": str(output)}
    if png and converter is not None:
        drawn["png"] = str(output.with_suffix(".png"))
        subprocess.run([converter, str(output), "-o", drawn["png"]], check=True, capture_output=True)
    out(drawn, as_json, _summary)


def _summary(d: dict[str, Any]) -> str:
    if d["kind"] == "area":
        pieces = f"{len(d['blocks'])} blocks ({d['blank_blocks']} face down), {d['zones']} zones"
    else:
        pieces = f"{len(d['counters'])} counters, {len(d['hidden_stacks'])} unexamined stacks, {d['hexes']} hexes"
    return f"{d['output']}: {d['title']}, {d['caption']}; {pieces}"

