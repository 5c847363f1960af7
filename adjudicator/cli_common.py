"""The command line's shared parts: its options, error handling and exit statuses, the database it opens, and
how results are rendered as text (every record whole, wrapped, never cut) or as `--json`."""

from __future__ import annotations

import functools
import json
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar, overload

import click
import msgspec
from rich import progress as rich_progress
from rich.console import Console

from arbitro.adjudicator.errors import (
    REPORTED, BadFile, BadInput, FileUnusable, JsonUnreadable, NoSuchFile, error_payload, exit_status, not_utf8,
    read_outside_json, read_utf8, unusable,
)
from arbitro.adjudicator.seatcopy import SeatCopy
from arbitro.adjudicator.service import Arbitro
from arbitro.events import signing
from arbitro.events.sqlite import OpenMode, SQLiteStore
from arbitro.events.stores import describe, open_store, sqlite_path
from arbitro.events.postgres import PostgresStore, is_postgres_url
from arbitro.projections.base import UMPIRE


F = TypeVar("F", bound=Callable[..., Any])
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


# --- shared options and error handling ----------------------------------------------------------
def db_option(fn: F) -> F:
    return click.option(
        "--db", "--store", "db", envvar=["ARBITRO_STORE", "ARBITRO_DB"], default="arbitro.db", show_default=True,
        metavar="PATH|URL",
        help="The store: a SQLite file, or a postgresql://USER@HOST/DATABASE URL (docs/stores.md); default "
             "$ARBITRO_STORE, else $ARBITRO_DB, else ./arbitro.db.",
    )(fn)


def stacked(*decorators: Callable[[Any], Any]) -> Callable[[F], F]:
    """Several click decorators as one, applied in the order they are written (as if stacked above a function):
    the options a local command and its `arbitro remote` namesake both take, declared once."""
    def apply(fn: F) -> F:
        for decorator in reversed(decorators):
            fn = decorator(fn)
        return fn
    return apply


# `undo`'s and `fork`'s own options, local and remote.
undo_options = stacked(
    click.option("--to", "to", type=int, required=True,
                 help="Take back everything after this event (the umpire) or command (a seat; 0: the creation)."),
    click.option("--reason", default="", help="Why (required for the umpire: an undo by the umpire is a ruling)."))
fork_options = stacked(
    click.option("--at", "at", type=int, required=True, help="Fork after this event."),
    click.option("--keep-dice", is_flag=True,
                 help="Replay the parent's dice (the same rolls follow); the parent's seed must be revealed first."),
    click.option("--id", "new_id", help="Choose the new game's id (default: generated)."))

# The options a local reading or writing command and its `arbitro remote` namesake both take, in one wording: a seat
# names commands, the umpire events (engine-rules §V.6), whichever way it reaches the game.
provisional_option = click.option(
    "--provisional", "list_provisional", is_flag=True,
    help="List every reconstructed (provisional) data item; by default one line names them.")
legal_filter_options = stacked(
    click.option("--unit", help="Only the commands giving this piece (unit, leader, block) an order: the piece's own "
                                "listing, worked out for it alone where the ruleset can; a command aiming at it (an "
                                "attack's target) does not count."),
    click.option("--type", "types", multiple=True, metavar="TYPE", help="Only commands of this type (repeatable)."))
view_at_option = click.option(
    "--at", "at", type=int, help="The state after this event (a seat: after its command; default: now).")
chain_option = click.option(
    "--chain", is_flag=True, help="Also print each event's chain fields (hash, prev, cmd_hash, salt); --json always "
                                  "has them.")
log_range_options = stacked(
    click.option("--from", "first", type=int,
                 help="The first event (a seat: the first command) to show (default: the first)."),
    click.option("--to", "last", type=int,
                 help="The last event (a seat: the last command) to show (default: the head)."),
    chain_option)
note_at_option = click.option(
    "--at", "at", type=int, required=True,
    help="What the note is about: an event of the log (the umpire), a command (a seat, as its log numbers them).")
knowledge_options = stacked(
    click.option("--at", "at", type=int,
                 help="Up to this command of the seat's (the umpire: event; default: the head)."),
    click.option("--about", metavar="NAME",
                 help="Only what concerns this piece, place or zone (an id, a hex, a zone), with every change of it: "
                      "when it came into sight, changed, went out."))
open_only_option = click.option(
    "--open", "only_open", is_flag=True, help="Only the disputes awaiting the umpire's ruling.")
nth_option = click.option(
    "--nth", type=click.IntRange(min=1), default=1, show_default=True, metavar="K",
    help="A seat's: the K-th roll or draw of its command SEQ, as it was served them.")
# `withdraw-key`'s, local and remote (arbitro §L.6): the seat whose key the umpire withdraws, why, and which key.
withdrawal_options = stacked(
    click.option("--seat", "target", required=True, help="The seat whose signing key is withdrawn."),
    click.option("--reason", required=True, help="Why: served to every seat with the withdrawal."),
    click.option("--key", default=None, help="The key meant (its public key or 16-digit fingerprint): refused unless "
                                               "it is the one in force."))
export_options = stacked(
    click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file (default: stdout)."),
    click.option("--with-seed", is_flag=True,
                 help="The umpire only: include the unrevealed seed, to move a game to another server."))


def invite_option(fn: F) -> F:
    return click.option("--invite", is_flag=True,
                        help="Also make the new game's tokens, for `arbitro serve` (one a seat and the umpire's, as "
                             "`arbitro invite` makes them), and print them after its id, one line a role: shown "
                             "this once.")(fn)


def json_option(fn: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")(fn)


def seat_option(required: bool = True, default: str | None = None) -> Callable[[F], F]:
    # No default at all unless one is given: click 8.3+ takes an explicit `default=None` as a value, which would
    # let a required --as through as None ("unknown seat None") instead of "Missing option '--as'".
    given = {} if default is None else {"default": default}
    return click.option("--as", "seat", required=required, metavar="SEAT",
                        help="The seat acting or viewing (a side of the scenario, or umpire).", **given)


def server_key_option(fn: F) -> F:
    return click.option(
        "--server-key", "server_key", metavar="KEY",
        help="The umpire's server key or its fingerprint, as the umpire told you (`arbitro receipt` prints it): "
             "a seat's export must be sealed with it.",
    )(fn)


def handle_errors(fn: F) -> F:
    """Turn every library error into a precise message and its exit status; never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = kwargs.get("as_json", False)
        try:
            return fn(*args, **kwargs)
        except REPORTED as error:
            payload = error_payload(error)
            if as_json:
                click.echo(json_text(payload))
            else:
                click.echo(f"error ({payload['error']}): {error}", err=True)
            sys.exit(exit_status(error))

    return wrapper  # type: ignore[return-value]


def open_app(db: str, mode: OpenMode = "write") -> Arbitro:
    """The application over the database: "read" for commands that only read it (read-only, never created),
    "write" for those that change a game in it, "create" for those that may start it (new, import, demo)."""
    store = open_location(db, mode)
    if store.created:
        made = "arbitro's tables in" if is_postgres_url(db) else "the database"
        click.echo(f"created {made} {describe(db)}", err=True)
    return Arbitro(store)


def open_reader(db: str, game: str) -> Arbitro | SeatCopy:
    """What a read command reads GAME from: the game in the database, or a seat's own copy of it (a game played
    by e-mail, adjudicator/seatcopy.py), read as that seat was served it."""
    app = open_app(db, "read")
    return SeatCopy.find(app.store, game) or app


def open_location(db: str, mode: OpenMode = "write") -> SQLiteStore | PostgresStore:
    """The store that --db / --store names (events.stores.open_store), a directory refused by name."""
    path = sqlite_path(db) if not is_postgres_url(db) else ""
    if path and path != ":memory:" and Path(path).is_dir():
        raise BadFile(f"--db {db} is a directory; give a database file path")
    return open_store(db, mode)


def is_file_source(source: str) -> bool:
    """Whether SOURCE names an exported file (it exists) rather than a game id; a path or a .jsonl name that does
    not exist is reported as a missing file, not as a game missing from the database, and one that is there but is
    not a regular file (a directory; a pipe, which cannot be read twice as verify reads it) as that."""
    path = Path(source)
    if path.is_file():
        return True
    if "/" in source or source.endswith((".jsonl", ".json")):
        if path.exists():
            kind = "a directory" if path.is_dir() else "a pipe or a device"
            raise FileUnusable(f"{source}: cannot be read: not a regular file ({kind}); save the export to a file")
        raise NoSuchFile(f"{source}: no such file (give an exported .jsonl file, or a game id in the database)")
    return False


def out(data: Any, as_json: bool, text: Callable[[Any], str] | None = None) -> None:
    if as_json:
        click.echo(json_text(msgspec.to_builtins(data)))
    elif text is not None:
        click.echo(text(data))
    else:
        click.echo(json_text(msgspec.to_builtins(data), indent=2))


CHAIN_FIELDS = ("hash", "prev", "cmd_hash", "salt")


def printable(text: str) -> str:
    """TEXT as a terminal shows it literally: each character that is not printable (a line end, the ESC of a
    terminal's control sequence, a bidirectional override) written as its Python escape (\\n, \\x1b, \\u202e),
    so that words another party wrote (a note, a claim, a server's error) cannot start a line that reads as the
    log's, move the cursor over what was printed, or command the reader's terminal (rev-r)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def json_text(data: Any, indent: int | None = None) -> str:
    """DATA as JSON whose every character a terminal shows literally: json.dumps escapes the C0 controls (ESC, a line
    end) itself; the other characters that are not printable (DEL, the C1 controls, a bidirectional override, a line
    separator), which it writes as they are, are written as JSON's \\u escapes too. The JSON decodes to the same data:
    --json keeps a server's or a player's words exact, and still cannot command the terminal it is printed on."""
    return "\n".join(map(json_line, json.dumps(data, ensure_ascii=False, indent=indent).split("\n")))  # indent's


def json_line(line: str) -> str:
    """A line of JSON with each character a terminal does not show literally written as JSON's \\u escape: the
    same data decoded (an export's line printed on the terminal, rev-s S6; json_text's lines), nothing a terminal
    acts on. A line already printable is kept whole (checked at C's speed)."""
    return line if line.isprintable() else "".join(c if c.isprintable() else _json_escape(c) for c in line)


def _json_escape(c: str) -> str:
    """C as JSON's \\u escape: one for a character of the Basic Multilingual Plane, a surrogate pair beyond it."""
    code = ord(c)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def scrubbed(value: Any) -> Any:
    """VALUE (decoded JSON) with every string in it, a key or a value at any depth, made `printable`: what another
    party sent, before any renderer reads it, so that no renderer, present or future, can print a control sequence
    or a line end it holds (a hostile server's seat name, event type, ruleset or clock word: reread-c). A string
    already printable is unchanged, and so is the text of arbitro's own server."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {scrubbed(k): scrubbed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [scrubbed(v) for v in value]
    return value


def record_lines(event: dict[str, Any], chain: bool = False, width: int = 100) -> list[str]:
    """A served event in full, for a log a dispute may rest on: every field whole (long lines wrap, a long
    value such as a hash is never cut), and its chain fields only when asked for (--chain). A seat's item (one per
    command, seat_numbers.per_command) is each event it holds under the command's number, or one line saying the
    seat was shown nothing of that command."""
    if "events" in event:
        head = {"seq": event["seq"], "seat": event["seat"]}
        lines = [line for inner in event["events"] for line in record_lines({**head, **inner}, width=width)] or [
            f"#{event['seq']:<5} {event['seat']:<8} (a command you were shown nothing of)"]
        return lines + [f"        {k}={event[k]}" for k in CHAIN_FIELDS if chain and event.get(k)]
    data = event.get("event") or {}
    fields = [printable(f"{k}={v if isinstance(v, str) else field_json(v, width - 8)}")
              for k, v in data.items() if k not in ("type", "rule")]
    rule = [f"({data['rule']})"] if data.get("rule") else []
    head = f"#{event['seq']:<5} {event['seat']:<8} {event['type']:<22}"
    wrapped = textwrap.wrap(" ".join([head, *fields, *rule]), width=width, subsequent_indent=" " * 8,
                            break_long_words=False, break_on_hyphens=False) or [head]
    if chain:
        wrapped += [f"        {k}={event[k]}" for k in CHAIN_FIELDS if event.get(k)]
    return wrapped


def field_json(value: Any, width: int) -> str:
    """A field's value as compact JSON; one longer than a line with a space after each comma, so that it wraps there
    rather than running on as one word hundreds of characters long (a decision's context, a combat's table)."""
    compact = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return compact if len(compact) <= width else json.dumps(value, ensure_ascii=False, separators=(", ", ":"))


def event_lines(events: list[dict[str, Any]]) -> list[str]:
    """A command's served events, each record whole (wrapped, never cut), as `submit`, `undo`, `entropy` and
    `reveal` print them."""
    return [line for event in events for line in record_lines(event)]


def note_lines(notes: list[dict[str, Any]], indent: str = "        ") -> list[str]:
    """Notes as printed beneath the event they annotate."""
    return [f"{indent}{'private ' if n['private'] else ''}note {n['id']} on #{n['seq']} by {n['seat']}: {printable(n['text'])}"
            for n in notes]


def brief(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":")) if not isinstance(value, str) else value
    return text if len(text) <= 70 else text[:67] + "..."


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


class Progress:
    """A progress bar (rich) on stderr for long work (its label is plain text, never rich markup: a citation such as
    `[arbitro §R.2]` would read as a style): drawn only when stderr is a terminal and the work is past a
    few hundred steps, never into a pipe, a file or --json output (the caller passes no Progress with --json).
    Called as `progress(done, total)`; `close()` (or leaving its `with`) takes the bar away."""

    def __init__(self, label: str, threshold: int = 300) -> None:
        self.label = label
        self.threshold = threshold
        self.bar: rich_progress.Progress | None = None
        self.task: rich_progress.TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if total < self.threshold:
            return
        if self.bar is None:
            if not stderr_is_terminal():
                return
            self.bar = rich_progress.Progress(
                rich_progress.TextColumn(self.label, markup=False), rich_progress.BarColumn(), rich_progress.MofNCompleteColumn(),
                rich_progress.TimeRemainingColumn(), console=Console(stderr=True, force_terminal=True),
                transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total)
        assert self.task is not None
        self.bar.update(self.task, completed=done, total=total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def read_text(path: str, missing: str = "no such file") -> str:
    """The text of a file named on the command line, every CLI path's one reader: a missing file is NoSuchFile
    (`missing` says what to do), one that is not UTF-8 a BadFile naming the file, the byte and the fix, one that
    cannot be read (a directory, no permission) FileUnusable with the system's reason."""
    def refused(e: OSError | UnicodeDecodeError) -> Exception:
        if isinstance(e, UnicodeDecodeError):
            return not_utf8(path, e)
        return NoSuchFile(f"{path}: {missing}") if isinstance(e, FileNotFoundError) else unusable(path, e, "read")
    return read_utf8(Path(path), refused)


@contextmanager
def writing(path: str | Path) -> Iterator[None]:
    """Around the writing of a file (or folder) named on the command line: an OSError (its folder missing, no
    permission, a directory there) is FileUnusable naming it, never a traceback."""
    try:
        yield
    except OSError as e:
        raise unusable(path, e, "written") from None


def write_text(path: str | Path, text: str) -> None:
    """Write `text` (UTF-8) to a file named on the command line, every CLI output's one writer (`writing`)."""
    with writing(path):
        Path(path).write_text(text, encoding="utf-8")


def read_json_arg(text: str | None, file: str | None, what: str) -> Any:
    if (text is None) == (file is None):
        raise BadFile(f"give the {what} as a JSON argument or with --file, not both or neither")
    source = "argument" if file is None else file
    given = read_text(file) if file else text
    try:
        return read_outside_json(given)  # type: ignore[arg-type]
    except JsonUnreadable as e:
        raise e.bad_file(f"{what} ({source})", "is not valid JSON") from None


@overload
def reading_as(app: Arbitro | SeatCopy, seat: str) -> str: ...


@overload
def reading_as(app: Arbitro | SeatCopy, seat: None) -> str | None: ...


def reading_as(app: Arbitro | SeatCopy, seat: str | None) -> str | None:
    """The seat a read is for: on a seat's copy, the umpire's default or `--as` left out is the copy's seat, whose
    served game is all it holds, so what is shown or written names that seat; elsewhere `seat` as given."""
    return app.seat if isinstance(app, SeatCopy) and seat in (UMPIRE, None) else seat


def app_for(source: str, db: str, progress: Progress | None = None) -> tuple[Arbitro | SeatCopy, str]:
    """A game in the database (or a seat's copy of it), or an exported file loaded into a private in-memory
    database (a seat's export as that seat's copy)."""
    if is_file_source(source):
        return copy_of(read_text(source).splitlines(keepends=True), source, progress)
    return open_reader(db, source), source


def copy_of(lines: list[str], source: str, progress: Progress | None = None) -> tuple[Arbitro | SeatCopy, str]:
    """An export's LINES (from SOURCE: a file, a server) loaded into a private in-memory database, the reader's own:
    a seat's export as that seat's copy, a full one as the game."""
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.import_lines(lines, source, seat=UMPIRE, progress=progress, seat_copy=True)
    return SeatCopy.find(app.store, game) or app, game


def read_private_key(path: str) -> bytes:
    text = read_text(path, f"no such key file (make one with `arbitro keygen -o {path}`)").strip()
    try:
        private = bytes.fromhex(text)
        signing.public_key(private)
    except (ValueError, signing.BadKey):
        raise BadFile(f"{path}: not an Ed25519 private key (64 hex digits, as `arbitro keygen` writes)") from None
    return private


def parse_readings(readings: tuple[str, ...], option: str) -> dict[str, str]:
    """NAME=READING values of a repeatable option, as a mapping (bad input, exit 2, when one is not of that form)."""
    parsed: dict[str, str] = {}
    for reading in readings:
        name, sep, value = reading.partition("=")
        if not sep or not name or not value:
            raise BadInput(f"{option} {reading!r}: give NAME=READING, e.g. {option} ex_defender_loss=minimal_sets "
                           "(`arbitro interpretations RULESET` lists them)")
        parsed[name] = value
    return parsed
