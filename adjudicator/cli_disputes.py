"""The command line's dispute commands (docs/engine-rules.md §D): `dispute open|reply|rule`, `disputes`."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import click
import msgspec

from arbitro.adjudicator import settling
from arbitro.adjudicator.cli_common import (
    CONTEXT, db_option, event_lines, handle_errors, invite_option, json_option, knowledge_options, open_app,
    open_only_option, out, parse_readings, printable, read_json_arg, seat_option, stacked,
)
from arbitro.adjudicator.cli_tables import tokens_text
from arbitro.adjudicator.errors import BadInput
from arbitro.adjudicator.report_phrases import NoteNames, evidence_words
from arbitro.adjudicator.results import SubmitResult
from arbitro.projections.base import UMPIRE
from arbitro.projections.disputes import Dispute, Message

private_option = click.option(
    "--private", is_flag=True,
    help="Only the umpire (and you, its writer) read the text and the cited events; the other seats are served that "
         "you wrote, not what (for a text that tells what only you know).")


# The options of `dispute open|reply|rule` and `amend`, local and remote (arbitro remote).
claim_options = stacked(
    click.option("--at", "about", type=int, multiple=True, required=True, metavar="N",
                 help="A command the dispute is about, as your `status` and `log` number them (repeatable)."))
reply_options = stacked(
    click.option("--cite", "cites", type=int, multiple=True, metavar="N",
                 help="A command the answer rests on (the umpire: an event; repeatable)."),
    click.option("--pause", is_flag=True, help="The umpire's: play waits for the ruling (arbitro §D.3)."))
ruling_options = stacked(
    click.option("--uphold", "outcome", flag_value="upheld", help="The claim stands (with an effect below, or none)."),
    click.option("--dismiss", "--reject", "outcome", flag_value="dismissed", help="The claim fails: nothing changes."),
    click.option("--undo-to", type=int, metavar="SEQ",
                 help="Upheld: take back everything after event SEQ (arbitro §U.4)."),
    click.option("--interpretation", "interpretations", multiple=True, metavar="NAME=READING",
                 help="Upheld: rule this reading of an ambiguous rule (`arbitro interpretations RULESET` lists them)."),
    click.option("--patch", "patch", metavar="JSON", help="Upheld: a JSON-pointer patch of the state (arbitro §U.4)."),
    click.option("--public-patch", is_flag=True,
                 help="Show the patch itself to the seats (the reason is always shown)."))
amend_options = stacked(
    click.argument("command", required=False),
    click.option("--at", "at", type=int, required=True, metavar="SEQ", help="An event of the command to replace."),
    click.option("--file", "file", type=click.Path(dir_okay=False), help="Read the replacement from a JSON file."),
    click.option("--dispute", "dispute_number", type=int, metavar="N",
                 help="The open dispute this amendment rules on."),
    click.option("--reason", default="", help="The ruling's reason, served to every seat (with --dispute)."),
    click.option("--id", "new_id", help="Choose the amended game's id (default: generated)."))


def evidence_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The evidence a message may cite beyond events (arbitro §D.7), as `dispute open|reply|rule` take it."""
    options = [
        click.option("--note", "notes", multiple=True, metavar="[private:[SEAT:]]N",
                     help="Cite public note N of the game (`arbitro notes GAME`), or private:N your own private note "
                          "N (only in a --private message; the umpire names a seat's: private:austria:N)."),
        click.option("--position", "positions", multiple=True, metavar="[SEAT:]N",
                     help="Cite the position after your command N as you were served it (the umpire: after event N, "
                          "and it may name a SEAT)."),
        click.option("--readjudication", "readings", multiple=True, metavar="NAME=READING",
                     help="Cite the game judged again with this reading (`arbitro readjudicate GAME --ruling`)."),
        click.option("--fork", "forks", multiple=True, metavar="GAME",
                     help="Cite a game forked from this one (an amendment's, `arbitro games`)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def evidence(notes: tuple[str, ...], positions: tuple[str, ...], readings: tuple[str, ...],
             forks: tuple[str, ...]) -> list[dict[str, Any]]:
    """The typed evidence references of the options above; a note by its number, completed as the game holds it
    by the service (admission.cited_notes)."""
    cited: list[dict[str, Any]] = [note_name(name) for name in notes]  # completed by the service, in one read
    for position in positions:
        whose, _, at = position.rpartition(":")
        if not at.isdigit():
            raise BadInput(f"--position {position!r}: give the command's number, e.g. --position 40 (the umpire: "
                           "an event's, --position austria:40)")
        cited.append({"kind": "position", "at": int(at), "seat": whose})
    if readings:
        cited.append({"kind": "readjudication", "readings": parse_readings(readings, "--readjudication")})
    return cited + [{"kind": "fork", "game": fork} for fork in forks]


def submitted(result: SubmitResult) -> str:
    return "\n".join([f"accepted: command {result.cmd}, head #{result.head}", *event_lines(result.events)])


@click.group(context_settings=CONTEXT)
def dispute() -> None:
    """Open, answer and rule on a dispute about events of a game's log (docs/engine-rules.md §D). Each step is an
    event on the game's chain; `arbitro disputes GAME` lists them. A seat's numbers are its commands', the
    umpire's the log's events (§V.6).

    \b
    Example:
        arbitro dispute open marengo-1a2b --as austria --at 57 "the French could not see my reserve in #57"
        arbitro dispute reply marengo-1a2b 1 --as france --cite 52 "your reserve moved in plain sight in #52"
        arbitro dispute rule marengo-1a2b 1 --dismiss "the move at #52 was served to france"
    """


@dispute.command(name="open")
@click.argument("game")
@click.argument("claim")
@seat_option()
@claim_options
@private_option
@evidence_options
@db_option
@json_option
@handle_errors
def open_(game: str, claim: str, seat: str, about: tuple[int, ...], private: bool, notes: tuple[str, ...],
          positions: tuple[str, ...], readings: tuple[str, ...], forks: tuple[str, ...], db: str,
          as_json: bool) -> None:
    """Open a dispute as SEAT (a playing seat) about its command N (a seat's numbers are its commands',
    docs/engine-rules.md §V.6): CLAIM says what is wrong. Play goes on meanwhile; the umpire rules with `arbitro
    dispute rule`.

    \b
    Example:
        arbitro dispute open caldiero-9f8e --as austria --at 412 "that retreat crossed a river without a bridge"
        arbitro dispute open caldiero-9f8e --as france --at 97 --at 98 "my battery was hidden in the woods" --private
        arbitro dispute open caldiero-9f8e --as austria --at 412 --position 411 --note 3 "see my view before it"
    """
    command = claim_command(about, claim, private, evidence(notes, positions, readings, forks))
    out(open_app(db).submit(game, seat, command), as_json, submitted)


def claim_command(about: tuple[int, ...], claim: str, private: bool, cited: list[dict[str, Any]]) -> dict[str, Any]:
    """`dispute open`'s command, local or remote."""
    return {"type": "dispute_open", "about": list(about), "text": claim, "private": private, "evidence": cited}


@dispute.command()
@click.argument("game")
@click.argument("number", type=int)
@click.argument("text")
@seat_option()
@reply_options
@private_option
@evidence_options
@db_option
@json_option
@handle_errors
def reply(game: str, number: int, text: str, seat: str, cites: tuple[int, ...], pause: bool, private: bool,
          notes: tuple[str, ...], positions: tuple[str, ...], readings: tuple[str, ...], forks: tuple[str, ...],
          db: str, as_json: bool) -> None:
    """Answer dispute NUMBER, or add evidence to it, as SEAT (any seat, the umpire too), citing commands (the
    umpire: events); the umpire may --pause play until its ruling (only the dispute goes on meanwhile).

    \b
    Example:
        arbitro dispute reply caldiero-9f8e 1 --as france --cite 409 "the bridge at 0813 was built at #409"
        arbitro dispute reply caldiero-9f8e 1 --as umpire --pause "play waits while I read the log"
        arbitro dispute reply caldiero-9f8e 1 --as france --readjudication dr_in_fortress=dd "judged so, it holds"
    """
    command = reply_command(number, text, cites, pause, private, evidence(notes, positions, readings, forks))
    out(open_app(db).submit(game, seat, command), as_json, submitted)


def reply_command(number: int, text: str, cites: tuple[int, ...], pause: bool, private: bool,
                  cited: list[dict[str, Any]]) -> dict[str, Any]:
    """`dispute reply`'s command, local or remote."""
    return {"type": "dispute_reply", "dispute": number, "text": text, "cites": list(cites), "private": private,
            "pause": pause, "evidence": cited}


@dispute.command()
@click.argument("game")
@click.argument("number", type=int)
@click.argument("reason")
@ruling_options
@private_option
@evidence_options
@seat_option(required=False, default=UMPIRE)
@db_option
@json_option
@handle_errors
def rule(game: str, number: int, reason: str, outcome: str | None, undo_to: int | None, interpretations: tuple[str, ...],
         patch: str | None, public_patch: bool, private: bool, notes: tuple[str, ...], positions: tuple[str, ...],
         readings: tuple[str, ...], forks: tuple[str, ...], seat: str, db: str, as_json: bool) -> None:
    """The umpire's ruling on dispute NUMBER, which closes it: --uphold (optionally with one effect: --undo-to,
    or --patch and/or --interpretation) or --dismiss. REASON is served to every seat unless --private. An
    amendment is ruled by `arbitro amend ... --dispute NUMBER`.

    \b
    Example:
        arbitro dispute rule caldiero-9f8e 1 --uphold --undo-to 408 "no bridge: the retreat is taken back"
        arbitro dispute rule caldiero-9f8e 2 --dismiss "the woods do not block sight from a hill" --position france:96
    """
    command = ruling_command(number, reason, outcome, undo_to, interpretations, patch, public_patch, private,
                             (notes, positions, readings, forks))
    out(open_app(db).submit(game, seat, command), as_json, submitted)


def ruling_command(number: int, reason: str, outcome: str | None, undo_to: int | None,
                   interpretations: tuple[str, ...], patch: str | None, public_patch: bool, private: bool,
                   cited: tuple[tuple[str, ...], ...]) -> dict[str, Any]:
    """`dispute rule`'s command, local or remote; CITED: the evidence options' values, read after the outcome."""
    if outcome is None:
        raise BadInput("say how the dispute is ruled: --uphold or --dismiss (an amendment: `arbitro amend`)")
    interpretation = parse_readings(interpretations, "--interpretation")
    return {"type": "dispute_rule", "dispute": number, "outcome": outcome, "text": reason, "private": private,
            "undo_to": undo_to, "interpretation": interpretation,
            "patch": read_json_arg(patch, None, "patch") if patch else [], "public_patch": public_patch,
            "evidence": evidence(*cited)}


def note_name(name: str) -> dict[str, Any]:
    """`--note`'s value as the note's reference by number: N (public note N), private:N (the citing seat's own
    private note N) or private:SEAT:N (SEAT's, as the umpire cites it)."""
    parts = name.split(":")
    if not parts[-1].isdigit() or len(parts) > 3 or (len(parts) > 1 and parts[0] != "private") or "" in parts:
        raise BadInput(f"--note {name!r}: give a public note's number (--note 3), or private:N for your own private "
                       "note (the umpire: private:SEAT:N); `arbitro notes GAME` lists them")
    return {"kind": "note", "note": int(parts[-1]), **({"private": True} if len(parts) > 1 else {}),
            **({"by": parts[1]} if len(parts) == 3 else {})}


def message_lines(label: str, message: Message, notes: NoteNames) -> list[str]:
    cites = (f" citing {', '.join(f'#{n}' for n in message.cites)}" if isinstance(message.cites, list) and message.cites
             else f" citing {message.cites}" if isinstance(message.cites, str) else "")
    if isinstance(message.evidence, str):
        cites += f" with evidence {printable(message.evidence)}"
    elif message.evidence:
        cites += f" with evidence: {'; '.join(evidence_words(ref, notes) for ref in message.evidence)}"
    private = " (private)" if message.private else ""
    head = f"  #{message.seq} {message.by} {label}{private}{cites}: {printable(message.text)}"
    return textwrap.wrap(head, width=100, subsequent_indent="      ", break_long_words=False, break_on_hyphens=False)


def dispute_text(found: list[Dispute], game: str, notes: NoteNames) -> str:
    """The disputes listed for a reader, each cited note named as `notes` (the reader's) names it."""
    lines = []
    for d in found:
        state = "OPEN" if d.ruling is None else d.ruling.outcome.upper()
        about = d.about if isinstance(d.about, str) else ", ".join(f"#{n}" for n in d.about)
        lines.append(f"dispute {d.number} [{state}] by {d.claim.by} about {about}")
        lines += message_lines("claims", d.claim, notes)
        for answer in d.replies:
            lines += message_lines("answers", answer, notes)
        if d.ruling is not None:
            effects = f" ({', '.join(d.ruling.effects)})" if d.ruling.effects else ""
            fork = f", play goes on in {d.ruling.fork}" if d.ruling.fork else ""
            lines += message_lines(f"rules: {d.ruling.outcome}{effects}{fork}", d.ruling, notes)
    return "\n".join(lines) or f"no disputes in {game}"


@click.command(context_settings=CONTEXT)
@click.argument("game")
@seat_option(required=False, default=UMPIRE)
@open_only_option
@db_option
@json_option
@handle_errors
def disputes(game: str, seat: str, only_open: bool, db: str, as_json: bool) -> None:
    """List GAME's disputes as SEAT may read them (default: the umpire, who reads everything): the claim, each
    answer and the ruling with its outcome, each with the event that records it (a seat: the command).

    \b
    Example:
        arbitro disputes caldiero-9f8e --as france
        arbitro disputes caldiero-9f8e --open --json
    """
    app = open_app(db, "read")
    found = settling.disputes(app, game, seat)
    if only_open:
        found = [d for d in found if d.status == "open"]
    out(found, as_json, lambda ds: dispute_text(ds, game, NoteNames(app.notes(game, seat), seat)))



def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def counted(types: str) -> str:
    """A command's event types ("a, b, a") each once, in the order first made, with how many: "a ×2, b"."""
    counts: dict[str, int] = {}
    for name in types.split(", "):
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(name if n == 1 else f"{name} ×{n}" for name, n in counts.items())


def knowledge_text(k: settling.Knowledge) -> str:
    about = f" about {k.about}" if k.about is not None else ""
    served = (f"{k.events} events served ({k.hidden} as a bare envelope)" if k.seat == UMPIRE else
              f"{k.events} commands served")  # a seat's numbers: its commands' (engine-rules §V.6)
    lines = [f"{k.seat} at #{k.at}{about}: {served}; "
             f"its view shows {len(k.facts)} facts{' (--about NAME: their history)' if k.about is None else ''}"]
    items: dict[str, list[str]] = {}
    for fact in k.facts:  # one line per record: each field with the event it is shown since
        parent, _, field = fact.path.rpartition("/")
        items.setdefault(parent or "/", []).append(f"{field}={_value(fact.value)}@#{fact.since}")
    for parent, fields in items.items():
        lines += textwrap.wrap(f"  {parent}: {' '.join(fields)}", width=100, subsequent_indent="      ",
                               break_long_words=False, break_on_hyphens=False)
    if k.about is not None:
        lines.append(f"changes of what {k.seat} was shown{about}, up to #{k.at}:" if k.changes
                     else f"{k.seat} was never shown anything{about} up to #{k.at}")
    for c in k.changes:  # a seat's command names every event its item holds: wrapped, as the facts are
        cause = f"{counted(c.event)}{f' ({c.rule})' if c.rule else ''}"
        shown = f"= {_value(c.value)}" if c.shown else "no longer shown"
        lines += textwrap.wrap(f"  #{c.seq} {cause}: {c.path} {shown}", width=100, subsequent_indent="      ",
                               break_long_words=False, break_on_hyphens=False)
    return "\n".join(lines)


@click.command(context_settings=CONTEXT)
@click.argument("game")
@seat_option()
@knowledge_options
@db_option
@json_option
@handle_errors
def knowledge(game: str, seat: str, at: int | None, about: str | None, db: str, as_json: bool) -> None:
    """Who knew what, when (arbitro §D.6): what SEAT had been served up to its command AT (a seat's numbers are its
    commands', docs/engine-rules.md §V.6), each fact of its view with the command from which it was shown; --about
    NAME adds when it came into and went out of sight, and the command, as SEAT was served its events, that did it.
    Computed from SEAT's served views and events alone.

    \b
    Example:
        arbitro knowledge marengo-1a2b --as austria --at 141 --about b007
        arbitro knowledge caldiero-9f8e --as france --about 2013 --json
    """
    out(settling.knowledge(open_app(db, "read"), game, seat, at, about), as_json, knowledge_text)


def replay_lines(changed: list[settling.Changed], refused: settling.Refusal | None, game: str, fork: str) -> list[str]:
    """The commands whose events changed, and the first one refused, of a log played again in `fork`."""
    lines = [f"  changed: command {c.cmd} ({c.seat}): #{c.parent[0]}-#{c.parent[1]} in {game}, "
             f"#{c.fork[0]}-#{c.fork[1]} in {fork}" for c in changed]
    if refused is not None:
        lines += textwrap.wrap(f"REFUSED: command {refused.cmd} ({refused.seat}) {_value(refused.command)}: "
                               f"{refused.message}{f' [{refused.rule}]' if refused.rule else ''}", width=100,
                               subsequent_indent="  ", break_long_words=False)
    return lines


def reinterpretation_text(r: settling.Reinterpretation) -> str:
    readings = ", ".join(f"{k}={v}" for k, v in r.readings.items())
    lines = [f"{r.game} judged again with {readings} from its start: {r.replayed} commands played again "
             f"({r.skipped} records of forks and disputes skipped)",
             *replay_lines(r.changed, r.refused, r.game, "the re-adjudication")]
    return "\n".join([*lines, "IDENTICAL" if r.identical else "DIVERGES"])


def amendment_text(a: settling.Amendment) -> str:
    lines = [f"amended {a.game}: command {a.cmd} ({a.seat}) replaced in {a.fork}",
             f"  was: {_value(a.replaced)}", f"  now: {_value(a.command)}",
             f"played again: {a.replayed} later commands ({a.skipped} records of forks and disputes skipped); "
             f"{a.fork} ends at #{a.head}", *replay_lines(a.changed, a.refused, a.game, a.fork)]
    if a.refused is not None:
        lines.append(f"  {a.fork} ends before it: agree how to go on from there, and play on in {a.fork}")
    else:
        lines.append(f"every later command replays: play on in {a.fork}")
    if a.dispute is not None:
        lines.append(f"dispute {a.dispute} ruled: amended ({a.fork})")
    return "\n".join(lines)


@click.command(context_settings=CONTEXT)
@click.argument("game")
@amend_options
@invite_option
@seat_option(required=False, default=UMPIRE)
@db_option
@json_option
@handle_errors
def amend(game: str, command: str | None, at: int, file: str | None, dispute_number: int | None, reason: str,
          new_id: str | None, invite: bool, seat: str, db: str, as_json: bool) -> None:
    """The umpire's amendment of a transcription (arbitro §D.5): in a fork made before the command whose events
    include event SEQ, play COMMAND instead (for the same seat), then every later command of GAME again, in order;
    report each one whose events changed and the first one the rules now refuse (exit 1; the fork ends before
    it). Entered rolls are entered again as they were; a generated game needs its seed revealed first. GAME
    itself is not changed (it records the fork, and with --dispute the ruling).

    \b
    Example:
        arbitro amend caldiero-9f8e --at 13 '{"type": "activate", "formation": "massena"}'
        arbitro amend marengo-1a2b --at 35 --file move.json --dispute 1 --reason "b003 went to fontanone"
    """
    raw = read_json_arg(command, file, "replacement command")
    app = open_app(db)
    amended = settling.amend(app, game, seat, at, raw, dispute=dispute_number, reason=reason, new_id=new_id)
    if invite:  # as the server's amendment answers: the amendment, and its fork's tokens
        tokens = app.issue_tokens(amended.fork)
        out({**msgspec.to_builtins(amended), "tokens": tokens}, as_json, lambda _: amended_text(amended, tokens))
    else:
        out(amended, as_json, amendment_text)
    if amended.refused is not None:
        sys.exit(1)


def amended_text(amended: settling.Amendment, tokens: dict[str, str]) -> str:
    """An amendment made with its fork's tokens (`amend --invite`, `arbitro remote amend`): the amendment, then the
    fork's id and each role's token."""
    return amendment_text(amended) + "\n" + tokens_text(amended.fork, tokens)


DISPUTE_COMMANDS = (dispute, disputes, knowledge, amend)
