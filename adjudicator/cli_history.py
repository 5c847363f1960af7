"""The command line's historian commands (issue 14 point 7): `games` (the fork tree), `replay` (and `--step`, event
by event with what changed in words) and `diff` (two games, or two points of one, from their common event)."""

from __future__ import annotations

import re
import sys
import json
from typing import Any

import click
import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.cli_tables import data_records, view_text
from arbitro.adjudicator.errors import BadInput, NoSuchEvent, check_position
from arbitro.adjudicator.history import changes, common_point, fork_tree, lineage, voided_by
from arbitro.adjudicator.results import Replayed
from arbitro.adjudicator.seat_numbers import events_of
from arbitro.adjudicator.seatcopy import SeatCopy
from arbitro.adjudicator.service import Arbitro
from arbitro.projections.base import UMPIRE
from arbitro.adjudicator.cli_common import (
    Progress, app_for, brief, db_option, handle_errors, json_option, note_lines, open_app, out, reading_as, record_lines,
    seat_option,
)


@click.command()
@db_option
@json_option
@handle_errors
def games(db: str, as_json: bool) -> None:
    """List the games in the database as a tree: each fork under the game it forked from, with the event it
    forked at (its own #1 is that event's state; its #2 follows the parent's #N).

    \b
    Example:
        arbitro games --db club.db
    """
    rows = open_app(db, "read").games()

    def text(rs: list[dict[str, Any]]) -> str:
        lines = []
        for depth, r in fork_tree(rs):
            branch = "  " * (depth - 1) + "└─ " if depth else ""
            forked = f"  (forked from {r['parent']} at #{r['parent_seq']})" if r.get("parent") else ""
            lines.append(f"{branch}{r['game']}  {r['ruleset']}/{r['scenario']}  {r['kind']}  #{r['head']}{forked}")
        return "\n".join(lines) or "no games"

    out(rows, as_json, text)


@click.command()
@click.argument("source")
@click.option("--to", "to", type=int, help="Stop after this event (default: the end).")
@click.option("--step", is_flag=True,
              help="Walk the game event by event: each event, and what it changed in SEAT's view, in words. Keys "
                   "(then Enter): n or nothing next, p back, a number goes to that event, q quits.")
@click.option("--from", "first", type=int, default=1, show_default=True, help="With --step: the event to start at.")
@seat_option(required=False, default="umpire")
@db_option
@json_option
@handle_errors
def replay(source: str, to: int | None, step: bool, first: int, seat: str, db: str, as_json: bool) -> None:
    """Rebuild a game's state from its log (a game id, or an exported .jsonl file) and show it; --step walks it.

    \b
    Example:
        arbitro replay logs/marengo-full.jsonl --to 200 --as france
        arbitro replay caldiero-full --step --from 25 --as france
    """
    with Progress("reading the log") as progress:
        app, game = app_for(source, db, None if as_json else progress)
    seat = reading_as(app, seat)
    if step:
        return walk(app, game, seat, first, to, as_json)
    out(app.replay(game, to, seat), as_json, lambda r: replayed_text(app, r, seat))


def replayed_text(app: Arbitro | SeatCopy, r: Replayed, seat: str) -> str:
    """`replay`'s text: where it stopped, the notes up to there, and the state as `view` tells it (the clock, who
    was awaited, the pieces in a table), not the view's JSON (`--json` prints that)."""
    head = f"replayed {r.game} to #{r.seq}" + (f"; state hash {r.state_hash}" if r.state_hash is not msgspec.UNSET
                                               else "")
    notes = [line + "\n" for line in note_lines(msgspec.to_builtins(r.notes), indent="  ")]
    records = data_records(tuple(registry.get(app.game(r.game).ruleset).data_files()))
    return head + "\n" + "".join(notes) + view_text(r.view, records, app.awaiting_at(r.game, r.seq, seat))


def walk(app: Arbitro | SeatCopy, game: str, seat: str, first: int, to: int | None, as_json: bool) -> None:
    """`replay --step`: one event at a time, forward and back, read from stdin (a key a line; end of input quits)."""
    events = {e["seq"]: e for e in app.log(game, seat)}  # a seat's: one a command, numbered by it (§V.6)
    last = min(to, max(events)) if to is not None else max(events)
    check_position(first, min(events), max(events), f"--from {first}: {game}",
                   "event" if min(events) else "command", then="")
    if first > last:  # the game has it, but after --to: a range the wrong way round
        raise BadInput(f"--from {first}: {game} has {'events' if min(events) else 'commands'} #{min(events)} to "
                       f"#{last}")
    void = voided_by(events_of(events.values()))
    at = first
    stdin = sys.stdin  # click.testing.CliRunner puts its input here too
    while True:
        shown = step_at(app, game, seat, events.get(at), at, void, min(events))
        out(shown, as_json, step_text)
        key = stdin.readline()
        if not key or key.strip().lower() == "q":
            return
        at = next_event(key.strip().lower(), at, last, min(events))


def next_event(key: str, at: int, last: int, start: int = 1) -> int:
    """The number a key walks to, from `start` (the log's #1, a seat's command #0) to `last`."""
    if key.isdigit():
        return min(max(int(key), start), last)
    if key in ("p", "b", "-"):
        return max(at - 1, start)
    return min(at + 1, last)


def step_at(app: Arbitro | SeatCopy, game: str, seat: str, event: dict[str, Any] | None, at: int,
            void: dict[int, int], start: int = 1) -> dict[str, Any]:
    """Event AT (a seat: command AT) as SEAT was served it (None: hidden from it) and what it changed in SEAT's view;
    `start` is the first number (the log's #1, a seat's command #0), which changed nothing before it."""
    before = app.view(game, seat, at - 1)["state"] if at > start else {}
    after = app.view(game, seat, at)["state"]
    notes = [msgspec.to_builtins(n) for n in app.notes(game, seat, at, at)]
    return {"seq": at, "event": event, "voided_by": void.get(at), "notes": notes,
            "changes": changes(before, after) if at > start else []}


def step_text(s: dict[str, Any]) -> str:
    lines = record_lines(s["event"]) if s["event"] else [f"#{s['seq']:<5} (an event you were not shown)"]
    if s["voided_by"]:
        lines.append(f"        VOIDED by the undo at #{s['voided_by']}")
    lines += note_lines(s["notes"])
    lines += [f"    {c}" for c in s["changes"]] or ["    (nothing you can see changed)"]
    return "\n".join([*lines, "[Enter/n next, p back, NUMBER go to, q quit]"])


SPEC = re.compile(r"(?P<game>[^@\n]+)(@(?P<seq>[0-9]+))?")  # fullmatch, ASCII digits only


@click.command()
@click.argument("first", metavar="GAME_A[@SEQ]")
@click.argument("second", metavar="GAME_B[@SEQ]")
@seat_option(required=False, default="umpire")
@db_option
@json_option
@handle_errors
def diff(first: str, second: str, seat: str, db: str, as_json: bool) -> None:
    """Compare two games (a fork and its parent, two forks of one game) or two points of one game: where their
    histories part (the common event, and the first event of each after it), and what differs in SEAT's view,
    in words (each place in the view with its two values). @SEQ takes the state after that event (default: the
    head).

    \b
    Example:
        arbitro diff marengo-1a2b marengo-9f8e            # a game and its fork
        arbitro diff marengo-1a2b@40 marengo-1a2b@60 --as austria
    """
    app = open_app(db, "read")
    (a, a_at), (b, b_at) = _point(app, first, seat), _point(app, second, seat)
    if a.ruleset != b.ruleset:
        raise BadInput(f"{a.id} plays {a.ruleset} and {b.id} {b.ruleset}: only games of one ruleset compare")
    records = {g.id: g for g in app.store.games()}
    common = common_point(lineage(_at(a, a_at), records), lineage(_at(b, b_at), records))
    result: dict[str, Any] = {"a": {"game": a.id, "seq": _told(app, a, seat, a_at)},
                              "b": {"game": b.id, "seq": _told(app, b, seat, b_at)}, "seat": seat,
                              "common": None, "first_difference": None}
    if common is not None:
        result["common"] = {"game": common[0], "seq": _told(app, records[common[0]], seat, common[1])}
        result["first_difference"] = {"a": _after(app, a, a_at, common, seat, records),
                                      "b": _after(app, b, b_at, common, seat, records)}
    result["changes"] = changes(app.view(a.id, seat, _told(app, a, seat, a_at))["state"],
                                app.view(b.id, seat, _told(app, b, seat, b_at))["state"])
    out(result, as_json, diff_text)


def _point(app: Arbitro, spec: str, seat: str) -> tuple[Any, int]:
    """The game and the log's number of the event SPEC names (a seat names the command after which: §V.6)."""
    match = SPEC.fullmatch(spec)
    if match is None:
        raise BadInput(f"{spec!r}: write GAME or GAME@SEQ, e.g. marengo-1a2b@40")
    record = app.game(match["game"])
    seq = int(match["seq"]) if match["seq"] else record.head_seq
    if match["seq"] and seat != UMPIRE:
        seq = app.event_number(record, seat, seq) or 0
    if seat == UMPIRE:
        check_position(seq, 1, record.head_seq, f"{spec}: {record.id}", then="")
    elif not 1 <= seq <= record.head_seq:  # in the reader's numbers (event_number refused a command it lacks)
        raise NoSuchEvent(f"{spec}: {record.id} has commands #0 to #{app.numbers(record).head}")
    return record, seq


def _told(app: Arbitro, record: Any, seat: str, seq: int) -> int:
    """The number `seat` is told for event `seq` of the log: the event's to the umpire, its command's to a seat."""
    return seq if seat == UMPIRE else app.numbers(record).command_of(seq)


def _at(record: Any, seq: int) -> Any:
    return msgspec.structs.replace(record, head_seq=seq)


def _after(app: Arbitro, record: Any, at: int, common: tuple[str, int], seat: str,
           records: dict[str, Any]) -> dict[str, Any] | None:
    """The first event of this side after the common event: in the common game itself, or else event #2 of the
    fork on this side's line that left the common game there (a fork's #1 holds the state it forked from); None
    when this side stops at the common event."""
    game, seq = common
    nxt, bound = seq + 1, at
    while record.id != game and record.parent != game:
        bound, record = record.parent_seq, records[record.parent]
    if record.id != game:
        nxt = 2
    if nxt > bound:
        return None
    told = _told(app, record, seat, nxt)
    served = app.log(record.id, seat, told, told)
    return served[0] if served else {"seq": told, "type": "hidden"}


def diff_text(r: dict[str, Any]) -> str:
    a, b = r["a"], r["b"]
    lines = [f"A: {a['game']} after #{a['seq']}    B: {b['game']} after #{b['seq']}    (as {r['seat']})"]
    if r["common"] is None:
        lines.append("no common history: the two games share no event")
    else:
        c = r["common"]
        lines.append(f"common history: {c['game']} to #{c['seq']}")
        for side in ("a", "b"):
            first = r["first_difference"][side]
            lines += [f"first event of {side.upper()} after it:"] + (
                [f"  {line}" for line in record_lines(abridged(first))] if first else ["  none (it stops there)"])
    n = len(r["changes"])
    lines.append(f"the state, A → B ({n} difference{'' if n == 1 else 's'}):" if n else "the states are the same")
    lines += [f"  {c}" for c in r["changes"]]
    return "\n".join(lines)


def abridged(served: dict[str, Any], longest: int = 200) -> dict[str, Any]:
    """A served event with each field longer than `longest` characters as JSON cut to its start: where two histories
    part, a fork's first event holds its whole starting state (`initial`, 13,000 characters for Caldiero), one line
    no reader can read. diff's --json, and `arbitro log`, keep every field whole."""
    if isinstance(served.get("events"), list):  # a seat's item: the events of one command
        return {**served, "events": [abridged(inner, longest) for inner in served["events"]]}
    event = served.get("event")
    if not isinstance(event, dict):
        return served
    cut = {k: v if len(json.dumps(v, ensure_ascii=False)) <= longest else f"{brief(v)} (cut: --json has it whole)"
           for k, v in event.items()}
    return {**served, "event": cut}


HISTORY_COMMANDS = (games, replay, diff)
