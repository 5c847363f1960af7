"""arbitro's command line: a thin click layer over arbitro.adjudicator.service.Arbitro.

Every command opens the database, makes one library call and renders the result: readable text by
default, `--json` for scripts. Exit status: 0 success, 1 rejected by the rules or failed verification,
2 bad input or usage, 3 not found.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import json
import shutil
import sys
import textwrap
from pathlib import Path
from typing import Any

import click
import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.demo import run_demo
from arbitro.adjudicator.errors import BadInput, BadPosition
from arbitro.adjudicator.registry import RulesetInfo
from arbitro.adjudicator.seatcopy import SeatCopy
from arbitro.adjudicator.service import Arbitro
from arbitro.projections.base import UMPIRE
from arbitro.adjudicator.cli_common import (
    CONTEXT, db_option, fork_options, invite_option, json_option, legal_filter_options, log_range_options,
    note_at_option, provisional_option, seat_option, handle_errors, open_app, out, read_json_arg, open_reader,
    reading_as, undo_options, view_at_option, write_text,
)
from arbitro.adjudicator.cli_audit import AUDIT_COMMANDS
from arbitro.adjudicator.cli_history import HISTORY_COMMANDS
from arbitro.adjudicator.cli_play import PLAY_COMMANDS
from arbitro.adjudicator.cli_dice import DICE_COMMANDS
from arbitro.adjudicator.cli_disputes import DISPUTE_COMMANDS
from arbitro.adjudicator.cli_store import STORE_COMMANDS
from arbitro.adjudicator.cli_tables import (
    annotated_text, clock_line, data_records, filter_commands, fork_numbered, legal_text, log_text,
    logged, notes_text, status_text, tokens_text, undone_text, view_text,
)


# Commands whose module is imported only when they are run (or listed): `serve` needs the web stack, which
# would double every other command's start-up time; `render` and `report` the SVG library; `remote` httpx. Name -> "module:attribute".
LAZY_COMMANDS = {"serve": "arbitro.adjudicator.cli_serve:serve", "render": "arbitro.adjudicator.cli_render:render",
                 "report": "arbitro.adjudicator.cli_report:report", "remote": "arbitro.adjudicator.cli_remote:remote"}


class LazyGroup(click.Group):
    """click's group, with LAZY_COMMANDS loaded on demand (click's documented lazy-loading pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS:
            module, _, attribute = LAZY_COMMANDS[cmd_name].partition(":")
            command: click.Command = getattr(importlib.import_module(module), attribute)
            return command
        return super().get_command(ctx, cmd_name)


# --- the commands ---------------------------------------------------------------------------------
@click.group(cls=LazyGroup, context_settings=CONTEXT)
@click.version_option(package_name="arbitro")
def cli() -> None:
    """arbitro: event-sourced replay and adjudication for board wargames.

    \b
    Example:
        arbitro new marengo marengo                # prints GAME, its id
        arbitro entropy GAME --as austria          # each seat commits, then each reveals:
        arbitro entropy GAME --as france           #   nothing is rolled before (arbitro §R.2)
        arbitro entropy GAME --as austria
        arbitro entropy GAME --as france
        arbitro legal GAME --as austria
        arbitro submit GAME --as austria '{"type": "end_turn"}'
        arbitro verify GAME
    """


@cli.command()
@json_option
@handle_errors
def rulesets(as_json: bool) -> None:
    """List the rulesets, their scenarios and optional rules.

    \b
    Example:
        arbitro rulesets --json
    """
    def text(infos: list[RulesetInfo]) -> str:
        lines = []
        for r in infos:
            if not r.available:
                lines.append(f"{r.name}: not available ({r.reason})")
                continue
            lines.append(f"{r.name} {r.version}: {r.title}")
            for k, s in (r.scenarios or {}).items():
                opts = f"; options: {', '.join(s.options)}" if s.options else ""
                lines.append(f"    {k}: {s.title} (seats: {', '.join(s.seats)}{opts})")
        return "\n".join(lines)

    out(Arbitro.rulesets(), as_json, text)


@cli.command()
@click.argument("ruleset")
@click.argument("scenario", required=False)
@click.option("--option", "options", multiple=True, metavar="NAME", help="An optional rule to play with (repeatable).")
@click.option("--position", "position_file", type=click.Path(dir_okay=False), help="Start from a position file.")
@click.option("--transcribed", is_flag=True, help="A game played on a table: rolls and draws are entered, not generated.")
@click.option("--data", "data_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Play on your own data folder (the same files as the ruleset's shipped data, e.g. the printed map "
                   "and counters) instead of the shipped data: checked whole, carried by the game, hashed.")
@click.option("--id", "game_id", help="Choose the game id (default: generated).")
@click.option("--seat-entropy/--no-seat-entropy", default=True, show_default=True, envvar="ARBITRO_SEAT_ENTROPY",
              help="Every playing seat commits, then reveals, its own entropy before anything is rolled, so the "
                   "host cannot steer the dice; --no-seat-entropy for hot-seat play (dice then rest on the "
                   "server's seed alone, and status and verify say so).")
@click.option("--provable-rolls", is_flag=True,
              help="Key each roll on its own (derivation arbitro-random/2) and commit to the keys at creation, so the "
                   "umpire can later prove one disputed roll without revealing the seed: `arbitro roll GAME SEQ "
                   "--prove` (arbitro §R.5). Not for --transcribed games.")
@db_option
@json_option
@handle_errors
def new(ruleset: str, scenario: str | None, options: tuple[str, ...], position_file: str | None, transcribed: bool,
        data_dir: str | None, game_id: str | None, seat_entropy: bool, provable_rolls: bool, db: str,
        as_json: bool) -> None:
    """Create a game and print its id. Unless --no-seat-entropy, the game first awaits each seat's entropy
    (arbitro §R.2): every seat commits {"type": "commit_entropy", "commitment": "<SHA-256 hex of its entropy>"}
    (e.g. E=$(openssl rand -hex 16); printf %s "$E" | sha256sum), then, once all have committed, reveals
    {"type": "reveal_entropy", "entropy": "$E"}; nothing is rolled or drawn before.

    \b
    Example:
        arbitro new marengo marengo
        arbitro new caldiero historical --option fog_of_war --transcribed
        arbitro new marengo --position puzzle.json --no-seat-entropy
        arbitro new caldiero historical --provable-rolls      # one roll provable without the seed (§R.5)
        arbitro new marengo marengo --data my-marengo-data/    # map.json and armies.json of your own
        arbitro new caricat pastrengo --data my-caricat-data/  # the six files of adjudicator/caricat/data/, edited
        arbitro new monferrato 1628 --data my-chits/           # e.g. the printed chits.json; the rest shipped
        arbitro new caldiero historical --data my-caldiero/    # a whole copy of adjudicator/caldiero/data/, edited
    """
    position = read_json_arg(None, position_file, "position") if position_file else None
    data = registry.get(ruleset).read_data(Path(data_dir)) if data_dir else None
    try:
        gid = open_app(db, "create").create(ruleset, scenario, options, position=position, transcribed=transcribed,
                                            game_id=game_id, seat_entropy=seat_entropy, data=data,
                                            provable_rolls=provable_rolls)
    except BadPosition as e:  # the file it is about, beside a --data folder's (rev-j R-j-6)
        raise BadPosition(f"position file {position_file}: {e}") if position_file else e from None
    out({"game": gid}, as_json, lambda d: d["game"])


@cli.command()
@click.argument("game")
@seat_option(required=False, default=UMPIRE)
@provisional_option
@db_option
@json_option
@handle_errors
def status(game: str, seat: str, list_provisional: bool, db: str, as_json: bool) -> None:
    """Show a game's status: scenario, kind, head, who is awaited, non-standard overrides, provisional data
    (named in one line; --provisional lists each item; --json keeps the full record), and the ruleset's notices
    about the position as SEAT may read them (default: the umpire's, all of them).

    \b
    Example:
        arbitro status marengo-1a2b3c4d
        arbitro status caldiero-1a2b3c4d --as france
        arbitro status marengo-1a2b3c4d --provisional
    """
    app = open_reader(db, game)
    seat = reading_as(app, seat)

    out(app.status(game, seat), as_json,
        lambda s: status_text(s, clock_line(app.view(game, seat)["state"]), list_provisional))


@cli.command()
@click.argument("game")
@seat_option(required=False)
@legal_filter_options
@click.option("--for", "for_seat", metavar="SEAT",
              help="Transcribed games, --as umpire: only the commands the umpire may enter on SEAT's behalf "
                   "(arbitro §S.5); without it the umpire's listing holds its own and every awaited seat's.")
@db_option
@json_option
@handle_errors
def legal(game: str, seat: str | None, unit: str | None, types: tuple[str, ...], for_seat: str | None, db: str,
          as_json: bool) -> None:
    """List the commands SEAT may send now, grouped by type, each without its empty fields (--json: the
    full commands, one list). A group of four or more that differ only in one number is one line of that
    number's ranges (the umpire's `prove_roll`s: "index 0-41, 43-629"). In a transcribed game the umpire's listing also holds each awaited seat's
    commands wrapped as `on_behalf`, ready for `submit --as umpire`.

    \b
    Example:
        arbitro legal marengo-1a2b3c4d --as austria
        arbitro legal caldiero-1a2b3c4d --as france --type move --unit fr-32-demi
        arbitro legal caldiero-1a2b3c4d --as umpire --for austria --type move
    """
    app = open_reader(db, game)
    record = app.game(game)
    seat = reading_as(app, seat)  # a seat's copy answers for its seat alone
    if seat is None:  # name the seats rather than click's bare "missing option"
        raise BadInput(f"say whose commands to list with --as SEAT: game {game}'s seats are "
                       f"{', '.join((*record.seats, UMPIRE))}")
    if for_seat is not None and (seat != UMPIRE or record.kind != "transcribed" or for_seat not in record.seats):
        raise BadInput(f"--for {for_seat}: only the umpire (--as umpire) of a transcribed game lists commands on a "
                       f"seat's behalf, for one of its playing seats ({', '.join(record.seats)}); game {game} is "
                       f"{record.kind} and --as is {seat}")
    commands = filter_commands(app.legal(game, seat, unit), types, for_seat)  # --unit: the lazy listing (issue 15)
    out(commands, as_json, lambda cs: legal_text(cs, seat, f"arbitro entropy {game} --as {seat}"))


@cli.command()
@click.argument("game")
@seat_option(required=False, default=UMPIRE)
@view_at_option
@db_option
@json_option
@handle_errors
def view(game: str, seat: str, at: int | None, db: str, as_json: bool) -> None:
    """Show the game as SEAT may see it (default: the umpire, who sees everything; on a seat's copy, that seat):
    the turn, phase and step, who is awaited, and each side's pieces by formation with place, strength and
    state; --json: the full view.

    \b
    Example:
        arbitro view marengo-1a2b3c4d --as france --at 120
    """
    app = open_reader(db, game)
    seat = reading_as(app, seat)
    shown = app.view(game, seat, at)
    shown["notes"] = [msgspec.to_builtins(n) for n in app.notes(game, seat, None, at)]  # the notes up to that point
    ruleset = registry.get(app.game(game).ruleset)
    out(shown, as_json, lambda v: view_text(v, data_records(tuple(ruleset.data_files())),
                                            app.awaiting_at(game, at, seat)))


@cli.command()
@click.argument("game")
@seat_option(required=False, default="umpire")
@log_range_options
@db_option
@json_option
@handle_errors
def log(game: str, seat: str, first: int | None, last: int | None, chain: bool, db: str, as_json: bool) -> None:
    """Show the events, as SEAT may see them (default: the umpire's full log), each in full (long records
    wrap, nothing is cut), with the notes SEAT may read beneath the event they annotate, and each event an
    undo voided marked so (it stays in the log). A seat is shown one record per command, numbered by the
    command, holding the events it may see (it is never told how many events a command made: engine-rules §V.6).

    \b
    Example:
        arbitro log marengo-1a2b3c4d --as austria --from 100 --to 140
        arbitro log marengo-1a2b3c4d --from 57 --to 57 --chain
    """
    app = open_reader(db, game)
    to_head = app.log(game, seat, first)  # an undo after the range may void events in it
    events = logged(to_head, last, [msgspec.to_builtins(n) for n in app.notes(game, seat, first, last)])
    record = app.game(game)
    by_event = seat == UMPIRE and not isinstance(app, SeatCopy)  # a seat's numbers are its commands' (§V.6)
    forked = fork_numbered(events, (record.parent, int(record.parent_seq or 0))
                           if record.parent is not None and by_event else None)
    out(events, as_json, lambda es: log_text(game, es, chain, forked))


@cli.command()
@click.argument("game")
@seat_option(required=False, default="umpire")
@db_option
@json_option
@handle_errors
def notes(game: str, seat: str, db: str, as_json: bool) -> None:
    """List the notes on GAME that SEAT may read: the public ones, and SEAT's own private ones (default: the
    umpire, who reads the public notes and its own). Write one with `arbitro annotate`.

    \b
    Example:
        arbitro notes marengo-1a2b3c4d --as france
        arbitro notes marengo-1a2b3c4d --json
    """
    out(open_reader(db, game).notes(game, seat), as_json, lambda ns: notes_text(ns, game, seat))


@cli.command()
@click.argument("game")
@fork_options
@invite_option
@seat_option(required=False, default="umpire")
@db_option
@json_option
@handle_errors
def fork(game: str, at: int, keep_dice: bool, new_id: str | None, invite: bool, seat: str, db: str,
         as_json: bool) -> None:
    """Start a new game from event AT of GAME (the umpire's act, recorded in GAME's log as game_forked);
    print the new game's id (with --invite, then its tokens for `arbitro serve`). The fork draws a new seed;
    --keep-dice replays GAME's dice, for analysis, and only once GAME's seed is revealed (so no fork can show a
    roll GAME is about to make).

    \b
    Example:
        arbitro fork marengo-1a2b3c4d --at 120
        arbitro fork marengo-1a2b3c4d --at 120 --invite --db club.db     # then hand each seat its token
        arbitro reveal caldiero-9f8e --reason "post-mortem" && arbitro fork caldiero-9f8e --at 300 --keep-dice
    """
    app = open_app(db)
    made = app.fork(game, at, keep_dice=keep_dice, new_id=new_id, by=seat)
    shown = {"game": made, **({"tokens": app.issue_tokens(made)} if invite else {})}  # as the server's fork answers
    out(shown, as_json, lambda d: tokens_text(d["game"], d.get("tokens", {})))


@cli.command()
@click.argument("game")
@seat_option()
@undo_options
@db_option
@json_option
@handle_errors
def undo(game: str, seat: str, to: int, reason: str, db: str, as_json: bool) -> None:
    """Take back everything after TO: an event of the log for the umpire, a command for a seat (as its log and
    status number them, engine-rules §V.6). Free for your own commands until dice, a reveal or another seat;
    beyond that the other seats are asked to consent, or the umpire rules.

    \b
    Example:
        arbitro undo marengo-1a2b --as austria --to 14
    """
    result = open_app(db).undo(game, seat, to, reason)
    out(result, as_json, undone_text)


@cli.command()
@click.argument("game")
@click.argument("text")
@seat_option()
@note_at_option
@click.option("--private", is_flag=True, help="Only SEAT will see it.")
@db_option
@json_option
@handle_errors
def annotate(game: str, text: str, seat: str, at: int, private: bool, db: str, as_json: bool) -> None:
    """Attach a note to event AT, or as a seat to command AT (never changes the game). A seat numbers what it reads
    and sends by command (docs/engine-rules.md §V.6): its note lies on the command's last event.

    \b
    Example:
        arbitro annotate marengo-1a2b --at 57 --as umpire "Lannes should have blocked here"
        arbitro annotate marengo-1a2b --at 19 --as france "my reserve waits here" --private
    """
    note = open_app(db).annotate(game, seat, at, text, private=private)
    out(note, as_json, annotated_text)


@cli.command()
@click.argument("game")
@click.option("--at", "at", type=int, help="The state after this event (default: now).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file (default: stdout).")
@seat_option(required=False, default="umpire")
@db_option
@json_option
@handle_errors
def position(game: str, at: int | None, output: str | None, seat: str, db: str, as_json: bool) -> None:
    """Write the game's state as a position file (start a game from it with `arbitro new --position`). With --json,
    errors are JSON and -o's answer is {"file"} (the position itself is JSON already).

    \b
    Example:
        arbitro position marengo-1a2b --at 120 -o puzzle.json
    """
    text = json.dumps(open_app(db, "read").position(game, at, seat=seat), ensure_ascii=False, indent=2)
    if output:
        write_text(output, text + "\n")
        if as_json:
            out({"file": output}, True)
    else:
        click.echo(text)


@cli.command()
@click.argument("ruleset_name", metavar="RULESET")
@click.argument("game", required=False)
@db_option
@json_option
@handle_errors
def interpretations(ruleset_name: str, game: str | None, db: str, as_json: bool) -> None:
    """List RULESET's named readings of ambiguous rules: the rule, the Italian phrase each rests on, the
    choices and the default; with GAME, the reading in force there (the umpire changes one with a ruling:
    `arbitro submit GAME --as umpire '{"type": "ruling", "reason": "...", "interpretation": {NAME: CHOICE}}'`).

    \b
    Example:
        arbitro interpretations caldiero
        arbitro interpretations caldiero caldiero-9f8e --json
    """
    readings = registry.get(ruleset_name).interpretations()
    chosen: dict[str, str] = {}
    if game is not None:
        app = open_app(db, "read")
        record = app.game(game)
        if record.ruleset != ruleset_name:
            raise BadInput(f"game {game} plays {record.ruleset}, not {ruleset_name}: "
                           f"run `arbitro interpretations {record.ruleset} {game}`")
        chosen = app.state_at(game).core.interpretations
    rows = [{**msgspec.to_builtins(r), **({"in_force": chosen.get(name, r.default), "ruled": name in chosen}
                                          if game is not None else {})}
            for name, r in sorted(readings.items())]

    def text(rs: list[dict[str, Any]]) -> str:
        lines = []
        for r in rs:
            force = (f"; in force: {r['in_force']}" + (" (ruled by the umpire)" if r["ruled"] else " (default)")
                     if "in_force" in r else "")
            lines.append(f"{r['name']} ({r['rule']}): default {r['default']}; choices {', '.join(r['choices'])}{force}")
            lines += textwrap.wrap(f"«{r['phrase']}» {r['explanation']}", width=100, initial_indent="    ",
                                   subsequent_indent="    ")
        return "\n".join(lines) or f"{ruleset_name} names no interpretations"

    out(rows, as_json, text)


@cli.command()
@click.option("--ruleset", "ruleset_name", default="marengo", show_default=True, help="A shipped ruleset.")
@click.option("--steps", default=40, show_default=True, help="How many commands to play.")
@db_option
@handle_errors
def demo(ruleset_name: str, steps: int, db: str) -> None:
    """Run a real demonstration: create a game, play commands through the adjudicator (those that fight or
    move the game on first; one illegal, rejected with its citation), play on past --steps if need be until
    a combat and a roll have been shown, show each seat's view, fork, replay and verify. The game stays in
    the database.

    \b
    Example:
        arbitro demo
        arbitro demo --ruleset caldiero --steps 80 --db demo.db
    """
    game = run_demo(open_app(db, "create"), ruleset_name, click.echo, steps)
    me = program()
    click.echo(f"\nThe game is in {db}. Try: {me} status {game} --db {db}; {me} log {game} --as "
               f"umpire --db {db}; {me} export {game} -o game.jsonl --db {db}")
    if me != "arbitro":
        click.echo("(`arbitro` alone is not on your PATH: activate the virtual environment first, "
                   "`. .venv/bin/activate`, or run it by its path as above)")


def program() -> str:
    """How to run arbitro again from the user's shell: the bare name when it is on PATH, else the path of the
    script that is running (e.g. .venv/bin/arbitro when the virtual environment is not active)."""
    script = Path(sys.argv[0])
    if shutil.which("arbitro") is None and script.name == "arbitro" and script.is_file():
        return str(script)
    return "arbitro"


def main() -> None:
    # A one-shot command frees everything at its exit: frozen first, the interpreter's last collection walks none of it
    # (issue 15: a tenth of a Caldiero `legal`'s CPU). The server settles its rulesets' data at its start instead.
    atexit.register(gc.freeze)
    cli(prog_name="arbitro")


for _command in (*AUDIT_COMMANDS, *DICE_COMMANDS, *DISPUTE_COMMANDS, *HISTORY_COMMANDS, *PLAY_COMMANDS, *STORE_COMMANDS):
    cli.add_command(_command)


if __name__ == "__main__":
    main()
