"""The command line's report command: `arbitro report`, a game told turn by turn as one seat saw it, in HTML or
Markdown (issue 13), loaded lazily by cli.py (cli.LAZY_COMMANDS) since it draws map pictures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import msgspec

from arbitro.adjudicator.cli_common import (
    Progress, app_for, db_option, handle_errors, json_option, out, reading_as, seat_option, write_text, writing,
)
from arbitro.adjudicator.errors import BadInput
from arbitro.adjudicator.report import PictureChoice, Report, report as tell
from arbitro.adjudicator.report_pages import to_html, to_markdown
from arbitro.adjudicator.viewer_file import game_file_data, offline_page
from arbitro.projections.base import UMPIRE

MARKDOWN_SUFFIXES = (".md", ".markdown")
HTML_SUFFIXES = (".html", ".htm")


def picture_choice(text: str) -> PictureChoice:
    """--pictures: turns | end | none | SEQ[,SEQ...]."""
    if text in ("turns", "end", "none"):
        return text  # type: ignore[return-value]
    try:
        points = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise BadInput(f"--pictures {text!r}: give turns, end, none, or event numbers such as 40,120") from None
    if not points or min(points) < 1:
        raise BadInput(f"--pictures {text!r}: event numbers start at 1")
    return points


@click.command()
@click.argument("source")
@seat_option(required=False, default=UMPIRE)
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Where to write it: FILE.html (one page, pictures inline) or FILE.md (pictures as SVG files in "
                   "FILE-pictures/ beside it). Needed unless --json.")
@click.option("--pictures", "pictures", metavar="turns|end|none|SEQ,...",
              help="Where the report's map pictures go: after each turn (the default), at the end only, none, or "
                   "after these events. Not with --viewer, which draws SEAT's map after every event.")
@click.option("--viewer", is_flag=True,
              help="Write the browser viewer instead, as one self-contained FILE.html to open offline: SEAT's events "
                   "in plain words, its notes, its map picture after each event, the forks it was told of; a "
                   "slider, buttons and arrow keys step through them. It holds only what SEAT was served.")
@db_option
@json_option
@handle_errors
def report(source: str, seat: str, output: Path | None, pictures: str | None, viewer: bool, db: str,
           as_json: bool) -> None:
    """Tell a game turn by turn, as SEAT saw it (default: the umpire, who saw everything): who did what, each
    combat with its dice and result, the losses per turn, the rulings, undos and the notes SEAT may read, map
    pictures, and the result. A seat's report holds only what that seat was served. SOURCE is a game id or an
    exported .jsonl file. --json prints the report's data (the pictures by event number, without their SVG).
    --viewer writes the browser viewer of the game as SEAT saw it, as one HTML file that needs no server.

    \b
    Example:
        arbitro report caldiero-1a2b3c4d --as france -o game.html
        arbitro report logs/marengo-full.jsonl --pictures end -o marengo.md
        arbitro report logs/marengo-full.jsonl --as austria --viewer -o marengo-austria.html
    """
    choice = picture_choice(pictures or "turns")
    if viewer and (output is None or output.suffix.lower() in MARKDOWN_SUFFIXES):
        raise BadInput("--viewer writes one HTML file: say where, -o FILE.html")
    if viewer and pictures is not None:  # refused, not ignored: the viewer steps through a picture per event
        raise BadInput(f"--pictures {pictures} is the report's: --viewer draws {seat}'s map after every event, to "
                       "step through; drop --pictures, or drop --viewer for a report with pictures where you choose")
    if output is None and not as_json:
        raise BadInput("say where to write the report: -o FILE.html or -o FILE.md (or --json for its data)")
    if output is not None and output.suffix.lower() not in (*HTML_SUFFIXES, *MARKDOWN_SUFFIXES):
        raise BadInput(f"-o {output}: a report is written as HTML or Markdown: name the file .html or .md")
    with Progress("reading the log") as progress:
        app, game = app_for(source, db, None if as_json else progress)
    seat = reading_as(app, seat)
    if viewer and output is not None:
        _write_viewer(app, game, seat, output, as_json)
        return
    with Progress("telling the game", threshold=200) as progress:
        story = tell(app, game, seat, choice, None if as_json else progress)
    written = _write(story, output) if output is not None else []
    if as_json:
        out(_data(story) | {"written": written}, True)
    else:
        click.echo(f"{story.title}, {story.game} as {story.seat} saw it: {len(story.sections)} turns, "
                   f"{sum(len(s.pictures) for s in story.sections)} map pictures; wrote {', '.join(written)}")


def _write_viewer(app: Any, game: str, seat: str, output: Path, as_json: bool) -> None:
    with Progress("drawing the pictures", threshold=50) as progress:
        data = game_file_data(app, game, seat, None if as_json else progress)
    write_text(output, offline_page(data))
    frames = data["frames"]
    written = {"game": game, "seat": seat, "events": len(data["events"]), "pictures": len(frames["pictures"]),
               "bytes": output.stat().st_size, "written": [str(output)]}
    out(written, as_json, lambda d: f"{d['game']} as {d['seat']} saw it: {d['events']} events, {d['pictures']} "
                                    f"distinct map pictures; wrote {output} ({d['bytes']:,} bytes), open it in a browser")


def _write(story: Report, output: Path) -> list[str]:
    if output.suffix.lower() not in MARKDOWN_SUFFIXES:
        write_text(output, to_html(story))
        return [str(output)]
    folder = output.with_name(output.stem + "-pictures")
    text, files = to_markdown(story, folder.name)
    if files:
        with writing(folder):
            folder.mkdir(exist_ok=True)
    for name, svg in files.items():
        write_text(folder / name, svg)
    write_text(output, text)
    return [str(output), *(str(folder / name) for name in files)]


def _data(story: Report) -> dict[str, Any]:
    """The report as JSON: every field, a picture by its event number and caption (its SVG is `render`'s)."""
    data: dict[str, Any] = msgspec.to_builtins(story)
    for section in data["sections"]:
        section["pictures"] = [{"at": p["at"], "caption": p["caption"]} for p in section["pictures"]]
    return data
