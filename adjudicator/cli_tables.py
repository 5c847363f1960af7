"""Readable text for the CLI (issue 14 point 12): a view as a wargame's status table, `legal`'s
commands grouped by kind, provisional data named once.

The table is a generic reading of a ruleset's public view: the clock (turn, phase, step, whose move,
weather) is read from the state's scalar fields, and the pieces from every collection of records that
carry a place (a `hex` or a `zone`). Names, sides and formations a view does not carry come from the
records (`{"id": ..., "name": ...}`) of the ruleset's shipped data files, so nothing is shown that the
seat's view does not already hold. `--json` never comes through here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from functools import cache
from io import StringIO
from pathlib import Path
from typing import Any

import msgspec
from rich import box
from rich.console import Console
from rich.table import Table

from arbitro.adjudicator.cli_common import event_lines, note_lines, printable, record_lines
from arbitro.adjudicator.history import UNDO_RULE, voided_by
from arbitro.adjudicator.pictures.kit import moment
from arbitro.adjudicator.randomness import describe_rerolls
from arbitro.adjudicator.results import Awaiting, Status, SubmitResult
from arbitro.adjudicator.seat_numbers import events_of
from arbitro.events.store import Annotation
from arbitro.projections.views import CLOCK_FIELDS

# The state's fields that say where the game stands, in the order a player reads them.
PLACE_FIELDS = ("hex", "zone")
# A piece's flags worth reading in its state column when true (the rest is bookkeeping).
STATE_FLAGS = ("reduced", "disorganised", "unsupplied", "damaged", "face_up", "activated", "moved", "fought",
               "assaulted", "charging", "hold", "out_of_command")
WIDTH = 110
# A group of legal commands this long that differ only in one number is told as that number's ranges, not a line
# each: a long provable game offers the umpire hundreds of `prove_roll`s (`--json` keeps every one).
COMPACT_FROM = 4


@cache
def data_records(files: tuple[Path, ...]) -> dict[str, dict[str, Any]]:
    """Every record with a string `id` in the ruleset's data files, by id (the first wins)."""
    found: dict[str, dict[str, Any]] = {}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("id"), str):
                found.setdefault(value["id"], value)
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    for path in files:
        if path.suffix == ".json":
            walk(json.loads(path.read_text(encoding="utf-8")))
    return found


def _render(*renderables: Any) -> str:
    console = Console(file=StringIO(), width=WIDTH, force_terminal=False, color_system=None, highlight=False,
                      markup=False, emoji=False)  # a rule citation "[duel §4]" is text, not a style
    for renderable in renderables:
        console.print(renderable)
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(line.rstrip() for line in text.splitlines()).strip("\n")


def clock_line(state: dict[str, Any]) -> str:
    """`turn 3/10 · phase movement · step move · seat france · weather 1`: where the game stands."""
    shown = []
    for field in CLOCK_FIELDS:
        value = state.get(field)
        if value in (None, "") or field in ("last_turn", "rounds"):
            continue
        limit = state.get({"turn": "last_turn", "round": "rounds"}.get(field, ""))
        shown.append(f"{field} {value}{'/' + str(limit) if limit else ''}")
    return " · ".join(shown)


def awaiting_line(awaiting: Awaiting) -> str:
    """`awaiting: france: move a formation [caldiero §8]`, or who won once the game is over."""
    if awaiting.kind == "game_over":
        return f"game over: {awaiting.winner or 'draw'} ({awaiting.prompt}) [{awaiting.rule}]"
    cited = awaiting.rule and awaiting.rule not in awaiting.prompt  # a prompt that cites its rule is not told it twice
    # a seat's turn with no decision open: the engine's bare prompt "command", said as what it means
    prompt = TURN_PROMPT if awaiting.kind == "turn" and awaiting.prompt == "command" else awaiting.prompt
    return (f"awaiting: {', '.join(awaiting.seats) or 'nobody'}: {prompt}"
            + (f" [{awaiting.rule}]" if cited else ""))


TURN_PROMPT = "its turn: any command `arbitro legal` lists"


ID_FIELDS = ("id", "block", "unit", "token")  # a piece's name in a view that lists its pieces


def pieces(state: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(collection, id, piece) for every record of the state that has a place on or off the map: a collection
    keyed by id, or a list whose records name themselves (a seat's view may list what it may not key)."""
    for collection, value in state.items():
        if isinstance(value, list):
            value = {next((str(p[f]) for f in ID_FIELDS if isinstance(p, dict) and p.get(f)), f"#{i}"): p
                     for i, p in enumerate(value)}
        if not isinstance(value, dict) or not value:
            continue
        if all(isinstance(p, dict) and any(f in p for f in PLACE_FIELDS) for p in value.values()):
            for pid, piece in value.items():
                yield collection, pid, piece


def _strength(piece: dict[str, Any], record: dict[str, Any]) -> str:
    if "strength" in piece:
        return str(piece["strength"])
    if "hits" in piece:
        return f"{piece['hits']} hits"
    if isinstance(piece.get("reduced"), bool) and "strength" in record:  # both faces printed on the counter
        return str(record["reduced"] if piece["reduced"] and "reduced" in record else record["strength"])
    return ""


def _state(piece: dict[str, Any]) -> str:
    words = [str(piece[k]) for k in ("status", "place") if piece.get(k) not in (None, "", "good")]
    if piece.get("where") not in (None, "", "map"):
        words.append(str(piece["where"]))
    words += [flag.replace("_", " ") for flag in STATE_FLAGS if piece.get(flag) is True]
    return ", ".join(words)


def units_table(state: dict[str, Any], records: dict[str, dict[str, Any]]) -> Table:
    """Each side's pieces by formation: name (id), kind, place, strength and state. The data records give
    only names, sides and formations (counter-sheet facts); a piece's kind and strength come from what the
    seat's view carries, so a view that hides them shows them hidden here too."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("side", "formation", "name (id)", "kind", "place", "strength", "state"):
        table.add_column(column, overflow="fold")  # wrapped, never cut
    rows = []
    for collection, pid, piece in pieces(state):
        record = records.get(pid, {})
        side = piece.get("side") or record.get("side") or record.get("nation") or "?"
        formation = piece.get("formation") or record.get("formation") or record.get("command") or ""
        name = record.get("name")
        kind = piece.get("arm") or piece.get("kind") or collection.removesuffix("s")
        place = next((str(piece[f]) for f in PLACE_FIELDS if piece.get(f)), "")
        rows.append((str(side), str(formation), f"{name} ({pid})" if name and name != pid else pid, str(kind),
                     place, _strength(piece, record), _state(piece)))
    for row in sorted(rows):
        table.add_row(*row)
    return table


def view_text(view: dict[str, Any], records: dict[str, dict[str, Any]], awaiting: Awaiting) -> str:
    """A seat's view as a wargame's status: the clock, who is awaited, the pieces in a table."""
    state = view.get("state") or {}
    engine = view.get("engine") or {}
    head = [f"{view.get('game', '')} as {view.get('seat', '')}, {moment(view) if 'seq' in engine else 'after #?'}",
            clock_line(state), awaiting_line(awaiting)]
    table = units_table(state, records)
    shown = {*CLOCK_FIELDS, *(collection for collection, _, _ in pieces(state))}
    rest = [f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in state.items()
            if k not in shown and v not in (None, "", [], {})]
    notes = [f"note #{n.get('seq')} {n.get('seat')}: {printable(str(n.get('text')))}" for n in view.get("notes") or []]
    return _render("\n".join(line for line in head if line), table if table.row_count else "", *rest, *notes)


def legal_text(commands: list[dict[str, Any]], seat: str, entropy: str = "") -> str:
    """`legal`'s commands grouped by type, each without the fields it leaves empty; `entropy`, the command line that
    answers the entropy round for the seat (`arbitro entropy GAME --as SEAT`), named beneath its answers."""
    if not commands:
        return f"nothing: {seat} is not awaited now (or nothing matches the filters)"
    groups: dict[str, list[dict[str, Any]]] = {}
    for command in commands:
        label = str(command_type(command))
        if command.get("type") == "on_behalf":
            label = f"{label} for {command.get('seat')} (entered on its behalf, arbitro §S.5)"
        groups.setdefault(label, []).append(command)
    lines = []
    for kind, members in groups.items():
        shown = [{k: v for k, v in c.items() if v is not None} for c in members]
        varying = _one_number_varies(shown) if len(shown) >= COMPACT_FROM else None
        if varying is None:
            lines.append(f"{kind} ({len(members)}):")
            lines += ["  " + json.dumps(c, ensure_ascii=False) for c in shown]
        else:
            template = ", ".join(f"{json.dumps(k)}: {'N' if k == varying else json.dumps(v, ensure_ascii=False)}"
                                 for k, v in shown[0].items())
            lines.append(f"{kind} ({len(members)}): {varying} {number_ranges([c[varying] for c in shown])}")
            lines.append(f"  each sent as {{{template}}}")
        if kind in ENTROPY_ANSWERS and entropy:
            lines.append(f"  (`{entropy}` sends it for you: {ENTROPY_HINT})")
    return "\n".join(lines)


# The entropy round's answers, which `arbitro entropy` (and `arbitro remote entropy`) makes and sends for a seat.
ENTROPY_ANSWERS = ("commit_entropy", "reveal_entropy")
ENTROPY_HINT = ("it draws the entropy, keeps it in a file and commits to it; the same command reveals it once every "
                "seat has committed, arbitro §R.2")


def _one_number_varies(commands: list[dict[str, Any]]) -> str | None:
    """The one field whose value, a whole number, tells these commands apart when every other field is the same
    in all of them (the umpire's hundreds of `prove_roll`s, arbitro §R.5); else None."""
    keys = commands[0].keys()
    if any(c.keys() != keys for c in commands):
        return None
    differing = [k for k in keys if any(c[k] != commands[0][k] for c in commands)]
    if len(differing) != 1:
        return None
    field = differing[0]
    values = [c[field] for c in commands]
    numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
    return field if numbers and len(set(values)) == len(values) else None


def number_ranges(numbers: Iterable[int]) -> str:
    """Whole numbers as ascending runs: "3-17, 21, 40-388"."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def command_type(command: dict[str, Any]) -> Any:
    """A command's type; for one the umpire enters on a seat's behalf, the type of the seat's command."""
    inner = command.get("command") if command.get("type") == "on_behalf" else None
    return inner.get("type") if isinstance(inner, dict) else command.get("type")


def filter_commands(commands: list[dict[str, Any]], types: Iterable[str],
                    for_seat: str | None = None) -> list[dict[str, Any]]:
    """The listed commands of the wanted types; with `for_seat`, only those the umpire enters on that seat's behalf
    (a type filter reads the seat's command inside). A piece's commands are asked of `legal` itself (`--unit`)."""
    wanted = set(types)
    return [c for c in commands if (not wanted or command_type(c) in wanted)
            and (for_seat is None or (c.get("type") == "on_behalf" and c.get("seat") == for_seat))]


def provisional_line(game: str, provisional: list[str]) -> str:
    """Provisional data named once: which files, how many items, and how to list them."""
    return (f"PROVISIONAL DATA: {provisional_items(provisional)}, not the printed game's; "
            f"`arbitro status {game} --provisional` lists them")


def provisional_items(provisional: list[str]) -> str:
    """How many provisional items, and their files: "14 reconstructed items (armies.json, map.json)"."""
    # each item begins with its file ("map.json: ...", "caldiero/oob.json (Caldiero 1796: order of battle): ...")
    files = sorted({m.group() for m in (re.match(r"[^\s:(]+(?=\s*[:(])", p) for p in provisional) if m})
    return f"{len(provisional)} reconstructed item{'' if len(provisional) == 1 else 's'} ({', '.join(files) or 'data'})"


def status_text(s: Status, clock: str, list_provisional: bool = False) -> str:
    """`status`'s text, read locally or from a server: CLOCK is the clock line of the view as the reader sees it."""
    lines = [f"game {s.game}: {s.ruleset} {s.version} / {s.scenario}"
             f"{' with ' + ', '.join(s.options) if s.options else ''}",
             f"kind: {s.kind}{'  (forked from ' + s.parent + ')' if s.parent else ''}",
             f"events: #{s.head}   seed revealed: {'yes' if s.seed_revealed else 'no'}",
             clock]
    if s.outcome:
        o = s.outcome
        lines.append(f"game over: {o.winner or 'draw'} ({o.reason}) [{o.rule}]")
    else:
        lines.append(awaiting_line(s.awaiting))
    lines.append(f"dice: {s.dice.summary}")
    if s.dice.rerolls:
        lines.append(f"re-rolls: {describe_rerolls(s.dice.rerolls)}")
    if s.interpretations:
        lines.append("umpire's interpretations: " + ", ".join(f"{k}={v}" for k, v in s.interpretations.items()))
    lines += [f"note: {n}" for n in s.notices]
    if s.open_disputes:
        lines.append(f"open disputes: {', '.join(f'#{n}' for n in s.open_disputes)} (arbitro disputes {s.game})")
    if s.non_standard:
        lines.append("NON-STANDARD (the position's overrides):")
        lines += [f"  - {n}" for n in s.non_standard]
    if s.provisional and list_provisional:
        lines.append("PROVISIONAL DATA (reconstructed, not the printed game's):")
        lines += [f"  - {p}" for p in s.provisional]
    elif s.provisional:
        lines.append(provisional_line(s.game, s.provisional))
    return "\n".join(lines)


def logged(to_head: list[dict[str, Any]], last: int | None, notes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`log`'s records up to LAST, read from the log to its head (an undo after the range may void events in it):
    each note beneath the event it is about (--json: its `notes` field), each event an undo voided marked so (it
    stays in the log; --json: `voided_by`, the undo's event)."""
    events = [e for e in to_head if last is None or e["seq"] <= last]
    grouped: dict[int, list[dict[str, Any]]] = {}
    for note in notes:
        grouped.setdefault(int(note["seq"]), []).append(note)
    void = voided_by(events_of(to_head))
    for event in events:
        if event["seq"] in grouped:
            event["notes"] = grouped[event["seq"]]
        if event["seq"] in void:
            event["voided_by"] = void[event["seq"]]
    return events


def log_text(game: str, es: list[dict[str, Any]], chain: bool, forked: tuple[str, int] | None = None) -> str:
    """`log`'s text: each record whole, an undo's voided events marked, notes beneath their event; FORKED (the
    parent and the event forked at, read by the umpire) numbers each event in the parent's numbers too."""
    lines = [f"{game} forked from {forked[0]} at #{forked[1]}: its #N is {forked[0]}'s "
             f"#{forked[1]}+N-1 ([parent #...])"] if forked is not None and es else []
    for e in es:
        mark = [f"        VOIDED by the undo at #{e['voided_by']} ({UNDO_RULE})"] if "voided_by" in e else []
        head = record_lines(e, chain)
        if "parent_numbering" in e:
            head[0] = head[0].replace(f"#{e['seq']:<5}", f"#{e['seq']:<5}[parent #{e['parent_numbering']}]", 1)
        lines += [*head, *mark, *note_lines(e.get("notes", []))]
    return "\n".join(lines) or "no events in that range"


def undone_text(r: SubmitResult) -> str:
    """`undo`'s text, local or remote: the undo's command and its events as the seat may see them."""
    return "\n".join([f"command {r.cmd}:", *event_lines(r.events)])


def annotated_text(n: Annotation) -> str:
    """`annotate`'s text, local or remote: the note made, where it lies."""
    return f"note {n.id} at #{n.seq} by {n.seat}{' (private)' if n.private else ''}"


def notes_text(found: list[Annotation], game: str, seat: str) -> str:
    """`notes`'s text, local or remote: each note SEAT may read, or a line saying there is none."""
    return "\n".join(note_lines([msgspec.to_builtins(n) for n in found], indent="")) or \
        f"no notes on {game} that {seat} may read"


def token_lines(tokens: dict[str, str]) -> list[str]:
    """Each role's token on its own line, `role: token`: the one way a token is ever printed (`invite`, and a fork
    or an amendment made with its tokens, local or remote), and only when it was just made."""
    return [f"{role}: {token}" for role, token in tokens.items()]


def tokens_text(game: str, tokens: dict[str, str]) -> str:
    """A new game's id, then its tokens (token_lines): a fork's, or an amendment's fork's."""
    return "\n".join([game, *token_lines(tokens)])


def fork_numbered(events: list[dict[str, Any]], forked: tuple[str, int] | None) -> tuple[str, int] | None:
    """A fork's log as the umpire reads it (FORKED: its parent and the parent's event it was forked at, or None):
    its #1 is the parent's state at that event, so its #k is the parent's #at+k-1, put beside each event
    (`parent_numbering`) for log_text's "[parent #...]"."""
    if forked is not None:
        for event in events:
            event["parent_numbering"] = forked[1] + event["seq"] - 1
    return forked
