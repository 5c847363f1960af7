"""arbitro's command line: a thin click layer over arbitro.adjudicator.service.Arbitro.

Every command opens the database, makes one library call and renders the result: readable text by
default, `--json` for scripts. Exit status: 0 success, 1 rejected by the rules or failed verification,
2 bad input or usage, 3 not found.
"""

from __future__ import annotations

import contextlib
import functools
import json
import secrets
import shutil
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.demo import run_demo
from arbitro.adjudicator.errors import ArbitroError, BadFile, BadInput, Declined, NoSuchFile
from arbitro.adjudicator.randomness import describe_rerolls
from arbitro.adjudicator.results import RulesetInfo, Status, SubmitResult
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.storecheck import check_game
from arbitro.events import random as rnd
from arbitro.events import signing
from arbitro.events.sqlite import OpenMode, SQLiteStore
from arbitro.events.store import BrokenChain, GameNotFound, NoDatabase, StoreError
from arbitro.projections.base import UMPIRE
from arbitro.projections.fold import ChainBroken

F = TypeVar("F", bound=Callable[..., Any])
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


# --- shared options and error handling ----------------------------------------------------------
def db_option(fn: F) -> F:
    return click.option(
        "--db", "db", type=click.Path(dir_okay=False), envvar="ARBITRO_DB", default="arbitro.db", show_default=True,
        help="SQLite database (default $ARBITRO_DB, else ./arbitro.db).",
    )(fn)


def json_option(fn: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")(fn)


def seat_option(required: bool = True, default: str | None = None) -> Callable[[F], F]:
    return click.option("--as", "seat", required=required, default=default, metavar="SEAT",
                        help="The seat acting or viewing (a side of the scenario, or umpire).")


def _exit_status(error: Exception) -> int:
    if isinstance(error, ArbitroError):
        return error.exit_status
    if isinstance(error, (GameNotFound, NoDatabase)):
        return 3
    if isinstance(error, (ChainBroken, BrokenChain)):
        return 1
    return 2


def handle_errors(fn: F) -> F:
    """Turn every library error into a precise message and its exit status; never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = kwargs.get("as_json", False)
        try:
            return fn(*args, **kwargs)
        except (ArbitroError, StoreError, ChainBroken, ValueError) as error:
            code = getattr(error, "code", "input/bad")
            payload = error.to_dict() if isinstance(error, ArbitroError) else {"error": code, "message": str(error)}
            if as_json:
                click.echo(json.dumps(payload, ensure_ascii=False))
            else:
                click.echo(f"error ({code}): {error}", err=True)
            sys.exit(_exit_status(error))

    return wrapper  # type: ignore[return-value]


def open_app(db: str, mode: OpenMode = "write") -> Arbitro:
    """The application over the database: "read" for commands that only read it (read-only, never created),
    "write" for those that change a game in it, "create" for those that may start it (new, import, demo)."""
    if db != ":memory:" and Path(db).exists() and Path(db).is_dir():
        raise BadFile(f"--db {db} is a directory; give a database file path")
    store = SQLiteStore(db, mode=mode)
    if store.created:
        click.echo(f"created the database {db}", err=True)
    return Arbitro(store)


def is_file_source(source: str) -> bool:
    """Whether SOURCE names an exported file (it exists) rather than a game id; a path or a .jsonl name that does
    not exist is reported as a missing file, not as a game missing from the database."""
    if Path(source).is_file():
        return True
    if "/" in source or source.endswith((".jsonl", ".json")):
        raise NoSuchFile(f"{source}: no such file (give an exported .jsonl file, or a game id in the database)")
    return False


def out(data: Any, as_json: bool, text: Callable[[Any], str] | None = None) -> None:
    if as_json:
        click.echo(json.dumps(msgspec.to_builtins(data), ensure_ascii=False, indent=None))
    elif text is not None:
        click.echo(text(data))
    else:
        click.echo(json.dumps(msgspec.to_builtins(data), ensure_ascii=False, indent=2))


CHAIN_FIELDS = ("hash", "prev", "cmd_hash", "salt")
ENTROPY_TYPES = ("entropy_committed", "entropy_revealed", "entropy_waived", "entropy_mixed", "entropy_added")


def record_lines(event: dict[str, Any], chain: bool = False, width: int = 100) -> list[str]:
    """A served event in full, for a log a dispute may rest on: every field whole (long lines wrap, a long
    value such as a hash is never cut), and its chain fields only when asked for (--chain)."""
    data = event.get("event") or {}
    fields = [f"{k}={v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, separators=(',', ':'))}"
              for k, v in data.items() if k not in ("type", "rule")]
    rule = [f"({data['rule']})"] if data.get("rule") else []
    head = f"#{event['seq']:<5} {event['seat']:<8} {event['type']:<22}"
    wrapped = textwrap.wrap(" ".join([head, *fields, *rule]), width=width, subsequent_indent=" " * 8,
                            break_long_words=False, break_on_hyphens=False) or [head]
    if chain:
        wrapped += [f"        {k}={event[k]}" for k in CHAIN_FIELDS if event.get(k)]
    return wrapped


def event_lines(events: list[dict[str, Any]]) -> list[str]:
    """A command's served events, each record whole (wrapped, never cut), as `submit`, `undo`, `entropy` and
    `reveal` print them."""
    return [line for event in events for line in record_lines(event)]


def note_lines(notes: list[dict[str, Any]], indent: str = "        ") -> list[str]:
    """Notes as printed beneath the event they annotate."""
    return [f"{indent}note {n['id']} on #{n['seq']} by {n['seat']}{' (private)' if n['private'] else ''}: {n['text']}"
            for n in notes]


def notes_by_seq(notes: list[Any]) -> dict[int, list[dict[str, Any]]]:
    """Notes (Annotation records) as plain dicts, grouped by the event they annotate."""
    grouped: dict[int, list[dict[str, Any]]] = {}
    for note in notes:
        grouped.setdefault(note.seq, []).append(msgspec.to_builtins(note))
    return grouped


def _brief(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":")) if not isinstance(value, str) else value
    return text if len(text) <= 70 else text[:67] + "..."


class Progress:
    """A progress bar on stderr for long work (shown only past a few hundred steps)."""

    THRESHOLD = 300

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None
        self.shown = 0

    def __call__(self, done: int, total: int) -> None:
        if total < self.THRESHOLD:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done - self.shown)
        self.shown = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def read_json_arg(text: str | None, file: str | None, what: str) -> Any:
    if (text is None) == (file is None):
        raise BadFile(f"give the {what} as a JSON argument or with --file, not both or neither")
    source = "argument" if file is None else file
    try:
        raw = Path(file).read_text(encoding="utf-8") if file else text
        return json.loads(raw)  # type: ignore[arg-type]
    except FileNotFoundError:
        raise NoSuchFile(f"{file}: no such file") from None
    except json.JSONDecodeError as e:
        raise BadFile(f"{what} ({source}) is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None


# --- the commands ---------------------------------------------------------------------------------
@click.group(context_settings=CONTEXT)
@click.version_option(package_name="arbitro")
def cli() -> None:
    """arbitro: event-sourced replay and adjudication for board wargames.

    \b
    Example:
        arbitro new marengo marengo
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
@db_option
@json_option
@handle_errors
def games(db: str, as_json: bool) -> None:
    """List the games in the database.

    \b
    Example:
        arbitro games --db club.db
    """
    rows = [{"game": g.id, "ruleset": g.ruleset, "scenario": g.scenario, "kind": g.kind, "head": g.head_seq,
             "parent": g.parent} for g in open_app(db, "read").store.games()]
    out(rows, as_json, lambda rs: "\n".join(
        f"{r['game']}  {r['ruleset']}/{r['scenario']}  {r['kind']}  #{r['head']}" for r in rs) or "no games")


@cli.command()
@click.argument("ruleset")
@click.argument("scenario", required=False)
@click.option("--option", "options", multiple=True, metavar="NAME", help="An optional rule to play with (repeatable).")
@click.option("--position", "position_file", type=click.Path(dir_okay=False), help="Start from a position file.")
@click.option("--transcribed", is_flag=True, help="A game played on a table: rolls and draws are entered, not generated.")
@click.option("--id", "game_id", help="Choose the game id (default: generated).")
@click.option("--seat-entropy/--no-seat-entropy", default=True, show_default=True, envvar="ARBITRO_SEAT_ENTROPY",
              help="Every playing seat commits, then reveals, its own entropy before anything is rolled, so the "
                   "host cannot steer the dice; --no-seat-entropy for hot-seat play (dice then rest on the "
                   "server's seed alone, and status and verify say so).")
@db_option
@json_option
@handle_errors
def new(ruleset: str, scenario: str | None, options: tuple[str, ...], position_file: str | None, transcribed: bool,
        game_id: str | None, seat_entropy: bool, db: str, as_json: bool) -> None:
    """Create a game and print its id. Unless --no-seat-entropy, the game first awaits each seat's entropy
    (arbitro §R.2): every seat commits {"type": "commit_entropy", "commitment": "<SHA-256 hex of its entropy>"}
    (e.g. E=$(openssl rand -hex 16); printf %s "$E" | sha256sum), then, once all have committed, reveals
    {"type": "reveal_entropy", "entropy": "$E"}; nothing is rolled or drawn before.

    \b
    Example:
        arbitro new marengo marengo
        arbitro new caldiero historical --option fog_of_war --transcribed
        arbitro new marengo --position puzzle.json --no-seat-entropy
    """
    position = read_json_arg(None, position_file, "position") if position_file else None
    gid = open_app(db, "create").create(ruleset, scenario, options, position=position, transcribed=transcribed, game_id=game_id,
                              seat_entropy=seat_entropy)
    out({"game": gid}, as_json, lambda d: d["game"])


@cli.command()
@click.argument("game")
@db_option
@json_option
@handle_errors
def status(game: str, db: str, as_json: bool) -> None:
    """Show a game's status: scenario, kind, head, who is awaited, provisional data.

    \b
    Example:
        arbitro status marengo-1a2b3c4d
    """
    def text(s: Status) -> str:
        a = s.awaiting
        lines = [f"game {s.game}: {s.ruleset} {s.version} / {s.scenario}"
                 f"{' with ' + ', '.join(s.options) if s.options else ''}",
                 f"kind: {s.kind}{'  (forked from ' + s.parent + ')' if s.parent else ''}",
                 f"events: #{s.head}   seed revealed: {'yes' if s.seed_revealed else 'no'}"]
        if s.outcome:
            o = s.outcome
            lines.append(f"game over: {o.winner or 'draw'} ({o.reason}) [{o.rule}]")
        else:
            lines.append(f"awaiting: {', '.join(a.seats)}: {a.prompt}{' [' + a.rule + ']' if a.rule else ''}")
        lines.append(f"dice: {s.dice.summary}")
        if s.dice.rerolls:
            lines.append(f"re-rolls: {describe_rerolls(s.dice.rerolls)}")
        if s.interpretations:
            lines.append("umpire's interpretations: " + ", ".join(f"{k}={v}" for k, v in s.interpretations.items()))
        if s.provisional:
            lines.append("PROVISIONAL DATA (reconstructed, not the printed game's):")
            lines += [f"  - {p}" for p in s.provisional]
        return "\n".join(lines)

    out(open_app(db, "read").status(game), as_json, text)


@cli.command()
@click.argument("game")
@seat_option(required=False)
@db_option
@json_option
@handle_errors
def legal(game: str, seat: str | None, db: str, as_json: bool) -> None:
    """List every command SEAT may send now, one JSON command per line.

    \b
    Example:
        arbitro legal marengo-1a2b3c4d --as austria
    """
    app = open_app(db, "read")
    if seat is None:  # name the seats rather than click's bare "missing option"
        record = app.game(game)
        raise BadInput(f"say whose commands to list with --as SEAT: game {game}'s seats are "
                       f"{', '.join((*record.seats, UMPIRE))}")
    commands = app.legal(game, seat)
    out(commands, as_json, lambda cs: "\n".join(json.dumps(c, ensure_ascii=False) for c in cs) or f"nothing: {seat} is not awaited now")


@cli.command()
@click.argument("game")
@click.argument("command", required=False)
@seat_option()
@click.option("--file", "file", type=click.Path(dir_okay=False), help="Read the command from a JSON file.")
@click.option("--expect", "expected_seq", type=int, help="Refuse unless the log's head is this sequence number.")
@click.option("--key", help="Idempotency key (SEAT's own): the same command retried with it gets the original "
                            "result and is not applied twice; another command under a used key is refused.")
@click.option("--sign", "key_file", type=click.Path(dir_okay=False), metavar="KEYFILE",
              help="Sign the command with SEAT's private key (from `arbitro keygen`): required once SEAT registered "
                   "its key. The signature covers the game, SEAT, the head (--expect) and the key (--key).")
@db_option
@json_option
@handle_errors
def submit(game: str, command: str | None, seat: str, file: str | None, expected_seq: int | None, key: str | None,
           key_file: str | None, db: str, as_json: bool) -> None:
    """Submit a command as SEAT; print the events it caused (as SEAT may see them) and the server's receipt.
    COMMAND is the ruleset's (`arbitro legal GAME --as SEAT` lists those SEAT may send now) or one of the
    engine's own, below (docs/engine-rules.md).

    \b
    Example:
        arbitro submit marengo-1a2b --as austria '{"type": "end_turn"}'
        arbitro submit marengo-1a2b --as austria --file move.json --expect 41 --key turn7-austria
        arbitro submit marengo-1a2b --as austria '{"type": "end_turn"}' --sign austria.key

    \b
    The engine's own commands (every ruleset):
      ruling (umpire, §U.4): a reason, and an interpretation and/or a state patch
        '{"type": "ruling", "reason": "errata", "interpretation": {"dr_in_fortress": "dd"}}'
        '{"type": "ruling", "reason": "misplaced", "patch": [{"op": "replace", "path": "/turn", "value": 3}]}'
      enter_random (umpire, transcribed games, §R.4): the dice or draw made on the table
        '{"type": "enter_random", "values": [3, 5]}'
      commit_entropy, reveal_entropy (each entropy seat, §R.2; `arbitro entropy` does both)
        '{"type": "commit_entropy", "commitment": "<sha256 hex of your entropy>"}'
        '{"type": "reveal_entropy", "entropy": "<your entropy>"}'
      proceed_without_entropy (umpire, §R.2): the round goes on without seats that never answered
        '{"type": "proceed_without_entropy", "seats": ["france"], "reason": "no answer in 3 days"}'
      add_entropy (any seat, games without an entropy round, §R.2)
        '{"type": "add_entropy", "entropy": "<your entropy>"}'
      undo (§U; `arbitro undo`), consent (a seat asked to agree to another's undo, §U.2)
        '{"type": "undo", "to": 118, "reason": "misclick"}'
        '{"type": "consent", "accept": true}'
      reveal_seed (umpire, §R.3; `arbitro reveal`: ENDS THE GAME'S DICE, read `arbitro reveal --help`)
        '{"type": "reveal_seed", "reason": "dispute over turn 7"}'
      fork (umpire, §R.3): recorded by `arbitro fork GAME --at N`, not sent by hand
    """
    raw = read_json_arg(command, file, "command")
    app = open_app(db)
    signature = None
    if key_file is not None:
        # Signed here, on the seat's side: the database never sees the private key.
        expected_seq = app.game(game).head_seq if expected_seq is None else expected_seq
        key = key or secrets.token_hex(16)
        private = read_private_key(key_file)
        signature = signing.sign(private, signing.command_statement(game=game, seat=seat, expected_seq=expected_seq,
                                                                    key=key, command=raw))
    result = app.submit(game, seat, raw, expected_seq=expected_seq, key=key, signature=signature)

    def text(r: SubmitResult) -> str:
        head = f"{'already applied' if r.duplicate else 'accepted'}: command {r.cmd}, head #{r.head}"
        head += f"\nreceipt: #{r.receipt['seq']} {r.receipt['head']} (keep it: `arbitro receipt` prints it again)"
        tail = f"awaiting: {', '.join(r.awaiting.seats) or 'nobody'}: {r.awaiting.prompt}"
        return "\n".join([head, *event_lines(r.events), tail])

    out(result, as_json, text)


@cli.command()
@click.argument("game")
@seat_option()
@click.option("--at", "at", type=int, help="The state after this event (default: now).")
@db_option
@json_option
@handle_errors
def view(game: str, seat: str, at: int | None, db: str, as_json: bool) -> None:
    """Show the game as SEAT may see it (the umpire sees everything).

    \b
    Example:
        arbitro view marengo-1a2b3c4d --as france --at 120
    """
    app = open_app(db, "read")
    shown = app.view(game, seat, at)
    shown["notes"] = [msgspec.to_builtins(n) for n in app.notes(game, seat, 1, at)]  # the notes up to that event
    out(shown, as_json)


@cli.command()
@click.argument("game")
@seat_option(required=False, default="umpire")
@click.option("--from", "first", type=int, default=1, show_default=True)
@click.option("--to", "last", type=int)
@click.option("--chain", is_flag=True, help="Also print each event's chain fields (hash, prev, cmd_hash, salt); "
                                            "--json always has them.")
@db_option
@json_option
@handle_errors
def log(game: str, seat: str, first: int, last: int | None, chain: bool, db: str, as_json: bool) -> None:
    """Show the events, as SEAT may see them (default: the umpire's full log), each in full (long records
    wrap, nothing is cut), with the notes SEAT may read beneath the event they annotate.

    \b
    Example:
        arbitro log marengo-1a2b3c4d --as austria --from 100 --to 140
        arbitro log marengo-1a2b3c4d --from 57 --to 57 --chain
    """
    app = open_app(db, "read")
    events = app.log(game, seat, first, last)
    notes = notes_by_seq(app.notes(game, seat, first, last))
    for event in events:  # a note travels with the event it is about (--json: its `notes` field)
        if event["seq"] in notes:
            event["notes"] = notes[event["seq"]]

    def text(es: list[dict[str, Any]]) -> str:
        lines = []
        for e in es:
            lines += [*record_lines(e, chain), *note_lines(e.get("notes", []))]
        return "\n".join(lines) or "no events in that range"

    out(events, as_json, text)


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
    found = open_app(db, "read").notes(game, seat)
    out(found, as_json, lambda ns: "\n".join(note_lines([msgspec.to_builtins(n) for n in ns], indent=""))
        or f"no notes on {game} that {seat} may read")


@cli.command()
@click.argument("source")
@click.option("--to", "to", type=int, help="Stop after this event (default: the end).")
@seat_option(required=False, default="umpire")
@db_option
@json_option
@handle_errors
def replay(source: str, to: int | None, seat: str, db: str, as_json: bool) -> None:
    """Rebuild a game's state from its log (a game id, or an exported .jsonl file) and show it.

    \b
    Example:
        arbitro replay logs/marengo-full.jsonl --to 200 --as france
    """
    app, game = _app_for(source, db)
    out(app.replay(game, to, seat), as_json, lambda r: f"replayed {r.game} to #{r.seq}"
        + (f"; state hash {r.state_hash}" if r.state_hash is not msgspec.UNSET else "") + "\n"
        + "".join(line + "\n" for line in note_lines(msgspec.to_builtins(r.notes), indent="  "))
        + json.dumps(r.view, ensure_ascii=False, indent=2))


@cli.command()
@click.argument("source")
@click.argument("seq", type=int)
@seat_option(required=False, default="umpire")
@db_option
@json_option
@handle_errors
def roll(source: str, seq: int, seat: str, db: str, as_json: bool) -> None:
    """Explain the roll or draw at event SEQ of a game (an id, or an exported .jsonl file), as SEAT is served
    it: the dice, how they were derived (random index, seed commitment, the mix and the seats' entropy that
    made it: arbitro §R.1, §R.2), its purpose, table, row or column and every modifier as the event records
    them, what followed from it, and, once the seed is revealed, the dice recomputed from it (exit 1 if they
    differ). A roll SEAT may not examine shows only what SEAT is served (arbitro §V.4).

    \b
    Example:
        arbitro roll caldiero-9f8e 30 --as france
        arbitro roll logs/caldiero-full.jsonl 30
    """
    app, game = _app_for(source, db)
    explained = explain_roll(app, game, seq, seat)
    out(explained, as_json, roll_text)
    if explained["recomputed"].get("matches") is False:
        sys.exit(1)


def explain_roll(app: Arbitro, game: str, seq: int, seat: str) -> dict[str, Any]:
    """What a dispute over the roll at `seq` needs, built only from what `seat` is served."""
    record = app.game(game)
    if not 1 <= seq <= record.head_seq:
        raise BadInput(f"game {game} has events #1 to #{record.head_seq}; there is no event #{seq}")
    served = app.log(game, seat, 1, record.head_seq)
    event = served[seq - 1]
    data = event.get("event") or {}
    kind = data.get("type", event["type"])
    if kind not in ("dice_rolled", "items_drawn", "hidden"):
        rolls = [e["seq"] for e in served if e["type"] in ("dice_rolled", "items_drawn")]
        raise BadInput(f"event #{seq} of {game} is a {kind}, not a roll or a draw; its rolls and draws are at "
                       + (", ".join(f"#{n}" for n in rolls[:20]) + (" ..." if len(rolls) > 20 else "") or "no event"))
    before = app.state_at(game, seq - 1).core
    detail = dict(data.get("detail") or {})
    modifiers = detail.get("modifiers", "")
    values = data.get("values") if kind == "dice_rolled" else data.get("drawn")
    source_ = data.get("source")
    explained: dict[str, Any] = {
        "game": game, "seq": seq, "seat": seat, "type": kind, "cmd": event["cmd"], "by": event["seat"],
        "purpose": data.get("purpose", data.get("rule", "")), "source": source_,
        "dice": ({"count": data.get("count"), "sides": data.get("sides"), "values": values}
                 if kind == "dice_rolled" else {"population": data.get("population"), "drawn": values}),
        "table": detail.get("table"), "row": detail.get("row"), "column": detail.get("column"),
        "modifiers": [m.strip() for m in str(modifiers).split(";") if m.strip()] if modifiers else [],
        "detail": detail,
        "withheld": values is None,  # fog of war: this seat is not served the outcome (arbitro §V.4)
        "derivation": derivation(served, seq, data, before.mix) if source_ != "entered" else
        {"rule": "arbitro §R.4", "how": "entered by the umpire from the dice rolled on the table"},
        "followed": followed(served, seq),
        "event": event,
    }
    explained["recomputed"] = recompute(app.state_at(game).core.seed, before.mix, data, values, source_)
    return explained


def followed(served: list[dict[str, Any]], seq: int) -> list[dict[str, Any]]:
    """The events the roll at `seq` led to: those of the same command up to its next roll or draw."""
    cmd, after = served[seq - 1]["cmd"], []
    for e in served[seq:]:
        if e["cmd"] != cmd or e["type"] in ("dice_rolled", "items_drawn"):
            break
        after.append(e)
    return after


def derivation(served: list[dict[str, Any]], seq: int, data: dict[str, Any], mix: str) -> dict[str, Any]:
    """How a generated roll is derived (arbitro §R.1): the committed seed, the mix of the seats' entropy
    (the entropy events before the roll, as served) and the roll's index."""
    created = (served[0].get("event") or {})
    index = data.get("index")
    return {
        "rule": "arbitro §R.1", "algorithm": rnd.DERIVATION, "index": index,
        "seed_commitment": created.get("seed_commitment"), "mix": mix,
        "message": f"{rnd.DERIVATION}|{mix}|{index}|0" if index is not None else None,
        "entropy": [{"seq": e["seq"], **(e.get("event") or {})} for e in served[:seq - 1] if e["type"] in ENTROPY_TYPES],
    }


def recompute(seed: str | None, mix: str, data: dict[str, Any], values: Any, source_: str | None) -> dict[str, Any]:
    """The roll recomputed from the revealed seed (arbitro §R.1, events/random.py), and whether it matches."""
    if source_ == "entered":
        return {"status": "entered from the table: nothing to recompute (arbitro §R.4)"}
    if values is None:
        return {"status": "not served to this seat: nothing to recompute (arbitro §V.4)"}
    if seed is None:
        return {"status": "the seed is not revealed yet: the roll can be recomputed once it is (arbitro §R.3)"}
    if data["type"] == "dice_rolled":
        again: list[Any] = list(rnd.roll(seed, mix, data["index"], data["count"], data["sides"]))
    else:
        again = list(rnd.draw(seed, mix, data["index"], data["population"], len(values)))
    return {"status": "recomputed from the revealed seed", "seed": seed, "values": again,
            "matches": again == list(values)}


def roll_text(r: dict[str, Any]) -> str:
    dice = r["dice"]
    lines = [f"#{r['seq']} of {r['game']}: {r['type']} by {r['by']} (command {r['cmd']}), as served to {r['seat']}",
             f"  purpose:    {r['purpose'] or '(not served)'}"]
    if r["type"] == "dice_rolled":
        lines.append(f"  dice:       {dice['count']}d{dice['sides']} -> "
                     + (" ".join(map(str, dice["values"])) if dice["values"] is not None else "(withheld)"))
    elif r["type"] == "items_drawn":
        lines.append(f"  drew:       {', '.join(dice['drawn']) if dice['drawn'] is not None else '(withheld)'}"
                     + (f" from {', '.join(dice['population'])}" if dice["population"] else ""))
    for key in ("table", "row", "column"):
        if r[key] is not None:
            lines.append(f"  {key + ':':<11} {r[key]}")
    lines += [f"  modifier:   {m}" for m in r["modifiers"]]
    lines += [f"  {k + ':':<11} {v}" for k, v in r["detail"].items() if k not in ("table", "row", "column", "modifiers")]
    d = r["derivation"]
    if d.get("index") is not None:
        lines += [f"  derivation: {d['rule']} {d['algorithm']}: HMAC-SHA256(seed, \"{d['message']}\") ...",
                  f"              random index {d['index']}; seed commitment {d['seed_commitment']}",
                  f"              mix {d['mix'] or '(empty: no entropy mixed in)'}"]
        lines += [f"              #{e['seq']} {e['type']}: " + " ".join(f"{k}={v}" for k, v in e.items()
                                                                          if k not in ("seq", "type", "rule"))
                  for e in d["entropy"]]
    elif "how" in d:
        lines.append(f"  derivation: {d['how']} ({d['rule']})")
    else:
        lines.append(f"  derivation: its random index is not served to {r['seat']} (arbitro §V.4)")
    lines += [f"  followed:   {line}" for e in r["followed"] for line in record_lines(e)]
    c = r["recomputed"]
    if "matches" in c:
        lines.append(f"  recomputed: {c['values']} from seed {c['seed']}: "
                     + ("MATCHES the log" if c["matches"] else "DIFFERS from the log"))
    else:
        lines.append(f"  recomputed: {c['status']}")
    return "\n".join(lines)


def _app_for(source: str, db: str) -> tuple[Arbitro, str]:
    """A game in the database, or an exported file loaded into a private in-memory database."""
    if is_file_source(source):
        app = Arbitro(SQLiteStore(":memory:"))
        with open(source, encoding="utf-8") as f:
            return app, app.import_lines(f, source, seat=UMPIRE)  # the reader's own private database
    return open_app(db, "read"), source


@cli.command()
@click.argument("game")
@click.option("--at", "at", type=int, required=True, help="Fork after this event.")
@click.option("--keep-dice", is_flag=True,
              help="Replay the parent's dice (the same rolls follow); the parent's seed must be revealed first.")
@click.option("--id", "new_id", help="Choose the new game's id (default: generated).")
@seat_option(required=False, default="umpire")
@db_option
@json_option
@handle_errors
def fork(game: str, at: int, keep_dice: bool, new_id: str | None, seat: str, db: str, as_json: bool) -> None:
    """Start a new game from event AT of GAME (the umpire's act, recorded in GAME's log as game_forked);
    print the new game's id. The fork draws a new seed; --keep-dice replays GAME's dice, for analysis,
    and only once GAME's seed is revealed (so no fork can show a roll GAME is about to make).

    \b
    Example:
        arbitro fork marengo-1a2b3c4d --at 120
        arbitro reveal caldiero-9f8e --reason "post-mortem" && arbitro fork caldiero-9f8e --at 300 --keep-dice
    """
    out({"game": open_app(db).fork(game, at, keep_dice=keep_dice, new_id=new_id, by=seat)}, as_json, lambda d: d["game"])


@cli.command()
@click.argument("game")
@seat_option()
@click.option("--to", "to", type=int, required=True, help="Take back everything after this event.")
@click.option("--reason", default="", help="Why (required for the umpire: an undo by the umpire is a ruling).")
@db_option
@json_option
@handle_errors
def undo(game: str, seat: str, to: int, reason: str, db: str, as_json: bool) -> None:
    """Take back everything after event TO (free for your own commands until dice, a reveal or another seat;
    beyond that the other seats are asked to consent, or the umpire rules).

    \b
    Example:
        arbitro undo marengo-1a2b --as austria --to 14
    """
    result = open_app(db).undo(game, seat, to, reason)
    out(result, as_json, lambda r: "\n".join([f"command {r.cmd}:", *event_lines(r.events)]))


@cli.command()
@click.argument("game")
@click.argument("text")
@seat_option()
@click.option("--at", "at", type=int, required=True, help="The event the note is about.")
@click.option("--private", is_flag=True, help="Only SEAT will see it.")
@db_option
@json_option
@handle_errors
def annotate(game: str, text: str, seat: str, at: int, private: bool, db: str, as_json: bool) -> None:
    """Attach a note to event AT (never changes the game).

    \b
    Example:
        arbitro annotate marengo-1a2b --at 57 --as umpire "Lannes should have blocked here"
    """
    note = open_app(db).annotate(game, seat, at, text, private=private)
    out(note, as_json, lambda n: f"note {n.id} at #{n.seq} by {n.seat}{' (private)' if n.private else ''}")


@cli.command()
@click.argument("game")
@seat_option(required=False, default="umpire")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file (default: stdout).")
@click.option("--with-seed", is_flag=True, help="Umpire only: include the unrevealed seed, to move a game to another server.")
@db_option
@handle_errors
def export(game: str, seat: str, output: str | None, with_seed: bool, db: str) -> None:
    """Export a game as JSON Lines; a seat's export holds only what that seat may see.

    \b
    Example:
        arbitro export marengo-1a2b -o game.jsonl
        arbitro export marengo-1a2b --as france -o for-france.jsonl
    """
    lines = list(open_app(db, "read").export(game, seat, with_seed=with_seed))
    if output:
        Path(output).write_text("\n".join(lines) + "\n", encoding="utf-8")
        click.echo(f"wrote {len(lines)} records to {output}", err=True)
    else:
        click.echo("\n".join(lines))


@cli.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--as-id", "as_id", metavar="NEW_ID",
              help="Store it under this id (when its own is taken): a re-sealed copy, a new chain with the same content.")
@seat_option(required=False, default="umpire")
@db_option
@json_option
@handle_errors
def import_(file: str, as_id: str | None, seat: str, db: str, as_json: bool) -> None:
    """Import an exported game, whole or not at all, after checking its chain and command log (an error names
    the file's first bad line); print its id. `arbitro verify FILE` re-adjudicates it too.

    \b
    Example:
        arbitro import game.jsonl --db club.db
        arbitro import game.jsonl --as-id marengo-copy --db club.db
    """
    if not Path(file).is_file():
        raise NoSuchFile(f"{file}: no such file")
    with open(file, encoding="utf-8") as f:
        gid = open_app(db, "create").import_lines(f, file, seat=seat, as_id=as_id)
    out({"game": gid}, as_json, lambda d: d["game"])


def read_receipts(files: tuple[str, ...]) -> list[Any]:
    """Receipts from files: one receipt, a list of them, or a saved `submit --json` answer."""
    receipts: list[Any] = []
    for file in files:
        data = read_json_arg(None, file, "receipt")
        items = data if isinstance(data, list) else [data]
        receipts += [item.get("receipt", item) if isinstance(item, dict) else item for item in items]
    return receipts


def parse_seat_keys(items: tuple[str, ...]) -> dict[str, str]:
    keys = {}
    for item in items:
        seat, sep, key = item.partition("=")
        if not sep or not seat or not key:
            raise BadInput(f"--seat-key {item!r}: write SEAT=PUBLIC_KEY, e.g. austria=3b6a27bc...")
        try:
            keys[seat] = signing.check_public_key(key)
        except signing.BadKey as e:
            raise BadInput(f"--seat-key {seat}: {e}") from None
    return keys


@cli.command()
@click.argument("game")
@seat_option(required=False, default="umpire")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@db_option
@json_option
@handle_errors
def delete(game: str, seat: str, yes: bool, db: str, as_json: bool) -> None:
    """Delete GAME and everything stored of it (the umpire's act; it cannot be undone: export it first if in
    doubt). Asks for confirmation unless --yes. Its forks keep their own logs.

    \b
    Example:
        arbitro delete marengo-1a2b3c4d
        arbitro delete marengo-1a2b3c4d --yes --db club.db
    """
    app = open_app(db)
    record = app.game(game)
    if not yes and not click.confirm(f"Delete game {game} ({record.ruleset}/{record.scenario}, {record.head_seq} "
                                     f"events) from {db}? This cannot be undone", err=True):
        raise Declined(f"nothing deleted: game {game} is still in {db}")
    result = app.delete(game, seat)
    out(result, as_json, lambda r: f"deleted {r['game']} ({r['events']} events)"
        + (f"; its forks {', '.join(r['forks_kept'])} are kept" if r["forks_kept"] else ""))


@cli.command()
@click.argument("source")
@click.option("--head", "head", metavar="HASH",
              help="A hash you recorded yourself (e.g. from a submit): the file's chain up to it must be the one you saw.")
@click.option("--receipt", "receipt_files", multiple=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="A receipt the server signed for one of your submissions (repeatable): the file must hold its head.")
@click.option("--seat-key", "seat_keys", multiple=True, metavar="SEAT=PUBLIC_KEY",
              help="A seat's own public key, as you know it (repeatable): the file must carry it, and every command "
                   "in that seat's name since its registration must be signed with it.")
@db_option
@json_option
@handle_errors
def verify(source: str, head: str | None, receipt_files: tuple[str, ...], seat_keys: tuple[str, ...], db: str,
           as_json: bool) -> None:
    """Verify a game (id) or an exported file: chain, genesis, commands, build, dice, re-adjudication,
    annotations; with --receipt and --head, that the file is the log the server acknowledged to you.

    \b
    Example:
        arbitro verify logs/marengo-full.jsonl
        arbitro verify for-france.jsonl --receipt r41.json   (a receipt france kept from a submit)
        arbitro verify for-france.jsonl --head 3f9a...       (a hash france recorded)
    """
    progress = None if as_json else Progress("re-adjudicating commands")
    if is_file_source(source):
        app = Arbitro(SQLiteStore(":memory:"))
        with open(source, encoding="utf-8") as f:
            report = app.verify_lines(f, source, progress, head, read_receipts(receipt_files), parse_seat_keys(seat_keys))
    else:
        if head is not None or receipt_files or seat_keys:
            raise BadFile("--head, --receipt and --seat-key check an exported file: export the game first")
        report = open_app(db, "read").verify(source, progress)
    if progress is not None:
        progress.close()

    def text(r: Any) -> str:
        lines = [f"{r.game}: {r.ruleset} {r.version}, {r.kind} game"]
        lines += [f"  {c.status.upper():<9} {c.name}: {c.detail}" for c in r.checks]
        if r.divergence:
            d = r.divergence
            lines.append(f"  first divergence at #{d.seq} [{d.rule}]")
            lines.append(f"    log holds: {_brief(d.expected)}")
            lines.append(f"    rules give: {_brief(d.found)}")
        if r.provisional:
            lines.append("  played with PROVISIONAL data: " + "; ".join(r.provisional))
        lines.append("VERIFIED" if r.passed else "FAILED")
        return "\n".join(lines)

    out(report, as_json, text)
    if not report.passed:
        sys.exit(1)


def read_private_key(path: str) -> bytes:
    try:
        text = Path(path).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise NoSuchFile(f"{path}: no such key file (make one with `arbitro keygen -o {path}`)") from None
    try:
        private = bytes.fromhex(text)
        signing.public_key(private)
    except (ValueError, signing.BadKey):
        raise BadFile(f"{path}: not an Ed25519 private key (64 hex digits, as `arbitro keygen` writes)") from None
    return private


@cli.command()
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="Where to write the private key.")
@json_option
@handle_errors
def keygen(output: str, as_json: bool) -> None:
    """Make a seat's Ed25519 key pair: write the private key to OUTPUT (keep it; the server never sees it)
    and print the public key, to register with `arbitro register-key`.

    \b
    Example:
        arbitro keygen -o austria.key
    """
    if Path(output).exists():
        raise BadFile(f"{output} already exists: a key file is never overwritten")
    private = signing.new_private_key()
    Path(output).write_text(private.hex() + "\n", encoding="utf-8")
    Path(output).chmod(0o600)
    out({"public_key": signing.public_key(private), "file": output}, as_json, lambda d: d["public_key"])


@cli.command(name="register-key")
@click.argument("game")
@click.argument("public_key")
@seat_option()
@db_option
@json_option
@handle_errors
def register_key(game: str, public_key: str, seat: str, db: str, as_json: bool) -> None:
    """Register SEAT's public key in GAME: from then on its commands are accepted only signed with the
    private half (`arbitro submit --sign KEYFILE`), so nobody else, the host included, can send or alter one.

    \b
    Example:
        arbitro register-key marengo-1a2b --as austria 3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29
    """
    result = open_app(db).register_key(game, seat, public_key)
    out(result, as_json, lambda r: f"{r['seat']} signs its commands in {r['game']} after command {r['since_cmd']}")


@cli.command()
@click.argument("game")
@click.option("--cmd", "cmd", type=int, help="The command's number (default: the last one).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the receipt to this file.")
@db_option
@json_option
@handle_errors
def receipt(game: str, cmd: int | None, output: str | None, db: str, as_json: bool) -> None:
    """Print the server's signed receipt for a command (every submit also returns it): keep it, and check an
    exported log against it later with `arbitro verify FILE --receipt R.json`.

    \b
    Example:
        arbitro receipt marengo-1a2b --cmd 41 -o r41.json
    """
    app = open_app(db)
    signed = app.receipt(game, app.game(game).head_cmd if cmd is None else cmd)
    if output:
        Path(output).write_text(json.dumps(signed) + "\n", encoding="utf-8")
    out(signed, as_json, lambda r: (f"command {r['cmd']} of {r['game']}: head #{r['seq']} {r['head']}\n"
                                    f"signed by server key {r['server_key']}"))


@cli.command()
@click.argument("game", required=False)
@db_option
@json_option
@handle_errors
def check(game: str | None, db: str, as_json: bool) -> None:
    """Check the whole store (or one GAME) for damage: every game's hash chain and genesis, command log,
    snapshots and annotations (no re-adjudication: that is `verify`). Exit 1 on any problem.

    \b
    Example:
        arbitro check
        arbitro check marengo-1a2b --json
    """
    app = open_app(db, "read")
    ids = [game] if game else [g.id for g in app.store.games()]
    if game:
        app.game(game)  # not found: exit 3
    results = []
    with click.progressbar(ids, label="checking games", file=sys.stderr, show_pos=True) if not as_json and len(ids) > 1 \
            else contextlib.nullcontext(ids) as games_:
        for gid in games_:
            results.append(check_game(app.store, gid))

    def text(rs: list[Any]) -> str:
        lines = []
        for r in rs:
            lines.append(f"{'OK     ' if r.ok else 'DAMAGED'} {r.game}: {r.events} events, {r.commands} commands, "
                         f"{r.snapshots} snapshots, {r.annotations} notes")
            lines += [f"        {p}" for p in r.problems]
        bad = sum(not r.ok for r in rs)
        lines.append(f"{len(rs)} games checked, {bad} with problems" if rs else "no games")
        return "\n".join(lines)

    out(results, as_json, text)
    if any(not r.ok for r in results):
        sys.exit(1)


@cli.command()
@click.argument("game")
@db_option
@json_option
@handle_errors
def readjudicate(game: str, db: str, as_json: bool) -> None:
    """Judge GAME's whole command log again under this build's ruleset version and report the first
    divergence (a game is pinned to the version it was made with: arbitro §L.5). Nothing is changed;
    exit 0 if the log replays identically, 1 if it diverges.

    \b
    Example:
        arbitro readjudicate marengo-1a2b3c4d
        arbitro fork marengo-1a2b3c4d --at 120     (then: continue under this build)
    """
    progress = None if as_json else Progress("re-adjudicating commands")
    result = open_app(db, "read").readjudicate(game, progress)
    if progress is not None:
        progress.close()

    def text(r: dict[str, Any]) -> str:
        lines = [f"{r['game']}: made with {r['ruleset']} {r['played_with']}, re-adjudicated under {r['installed']}"]
        lines += [f"  {c['status'].upper():<9} {c['name']}: {c['detail']}" for c in r["checks"]]
        if r["divergence"]:
            d = r["divergence"]
            lines += [f"  first divergence at #{d['seq']} [{d['rule']}]", f"    log holds: {_brief(d['expected'])}",
                      f"    {r['installed']} gives: {_brief(d['found'])}"]
        lines.append("IDENTICAL" if r["identical"] else "DIVERGES")
        return "\n".join(lines)

    out(result, as_json, text)
    if not result["identical"]:
        sys.exit(1)


@cli.command()
@click.argument("game")
@seat_option()
@click.option("--file", "path", type=click.Path(dir_okay=False),
              help="Where SEAT keeps its entropy between commit and reveal (default: GAME.SEAT.entropy).")
@db_option
@json_option
@handle_errors
def entropy(game: str, seat: str, path: str | None, db: str, as_json: bool) -> None:
    """Answer the game's entropy round for SEAT (arbitro §R.2). The first call draws 128 random bits, keeps
    them in FILE (readable by you alone) and commits to their SHA-256; once every seat has committed, the
    same call reveals them. With FILE already there, its text is the entropy (make your own).

    \b
    Example:
        arbitro entropy marengo-1a2b3c4d --as france
        arbitro entropy marengo-1a2b3c4d --as france        (again, once austria has committed too)
    """
    keep = Path(path or f"{game}.{seat}.entropy")
    made = not keep.exists()
    if made:  # kept before it is committed: a commitment whose entropy is lost can never be revealed
        keep.touch(mode=0o600)
        keep.write_text(secrets.token_hex(16), encoding="utf-8")
    text = keep.read_text(encoding="utf-8").strip()
    try:
        result = open_app(db).entropy(game, seat, text)
    except Exception:
        if made:
            keep.unlink()
        raise
    out(result, as_json, lambda r: "\n".join(event_lines(r.events)) + f"\n(entropy kept in {keep})")


@cli.command()
@click.argument("game")
@click.option("--reason", default="revealed by the umpire", show_default=True)
@seat_option(required=False, default="umpire")
@db_option
@json_option
@handle_errors
def reveal(game: str, reason: str, seat: str, db: str, as_json: bool) -> None:
    """Reveal the game's dice seed (the umpire's act): from then on anyone can recompute every roll.

    BEFORE YOU DO IT: a reveal ENDS THE DICE IN GAME. Once the seed is public every later roll would be
    predictable, so GAME makes no further roll or draw (arbitro §R.3): to play on you must fork it
    (`arbitro fork GAME --at N`, a new game with a new secret seed), and the reveal cannot be undone. To
    settle a dispute without it, `arbitro roll GAME SEQ` shows how a roll was derived; a proof of one roll
    that keeps the seed secret is not possible with this derivation (docs/engine-rules.md §R.5).

    \b
    Example:
        arbitro reveal marengo-1a2b --reason "dispute over turn 7"
        arbitro fork marengo-1a2b --at 412       (then: play on in the fork it prints)
    """
    result = open_app(db).reveal(game, reason, seat=seat)
    # the only way play goes on (arbitro §R.3): the fork command, beside the result's own fields
    shown = {**msgspec.to_builtins(result), "continue": f"arbitro fork {game} --at {result.head}"}
    out(shown, as_json, lambda r: "\n".join([*event_lines(result.events),
                                             f"{game} makes no further roll (arbitro §R.3). To play on, fork it: "
                                             f"{r['continue']}  (add --keep-dice to replay the same dice, for "
                                             "analysis)"]))


@cli.command()
@click.argument("game")
@click.option("--at", "at", type=int, help="The state after this event (default: now).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file (default: stdout).")
@seat_option(required=False, default="umpire")
@db_option
@handle_errors
def position(game: str, at: int | None, output: str | None, seat: str, db: str) -> None:
    """Write the game's state as a position file (start a game from it with `arbitro new --position`).

    \b
    Example:
        arbitro position marengo-1a2b --at 120 -o puzzle.json
    """
    text = json.dumps(open_app(db, "read").position(game, at, seat=seat), ensure_ascii=False, indent=2)
    if output:
        Path(output).write_text(text + "\n", encoding="utf-8")
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
    cli(prog_name="arbitro")


if __name__ == "__main__":
    main()
