"""What a command must pass before it is judged, and what the server signs after: its type is one the game takes,
its game's ruleset version is this build's, its seat's signature verifies once the seat registered a key
(arbitro §L.6), a dispute's cited notes are notes the seat may read (arbitro §D.7), and hidden content goes to the
umpire only (arbitro §A.1). Functions over the store."""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable
from typing import Any

from arbitro.adjudicator.core_commands import CORE_COMMAND_TYPES
from arbitro.adjudicator.disputes import R_EVIDENCE, no_note, note_label
from arbitro.adjudicator.engine_steps import EntropyStep
from arbitro.adjudicator.signing_keys import R_KEYS
from arbitro.adjudicator.errors import (
    BadInput, IllegalCommand, MalformedCommand, NotFound, NotUmpire, Unsigned, VersionPinned,
)
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.ruleset import Ruleset
from arbitro.adjudicator.seat_numbers import CommandNumbers
from arbitro.events import core, signing
from arbitro.events.codec import to_builtins
from arbitro.events.records import GameRecord
from arbitro.events.store import Annotation, Store
from arbitro.projections.base import UMPIRE, reads_chain


def command_types(command: Any) -> list[str]:
    """The `type` tags of a ruleset's command model (a pydantic model, or a union of them, maybe Annotated)."""
    args = typing.get_args(command)
    if typing.get_origin(command) is typing.Annotated:
        return command_types(args[0])
    if typing.get_origin(command) in (typing.Union, types.UnionType):
        return [tag for arg in args for tag in command_types(arg)]
    return [str(tag) for tag in typing.get_args(command.model_fields["type"].annotation)]


_COMMAND_TYPES = Memo(64)  # per command model: walking its typing every submit cost ~0.5 ms (issue 15)


def known_type(ruleset: Ruleset[Any], raw: Any) -> None:
    """Refuse a command of an unknown type with every type this game takes: the ruleset's and the engine's own
    (whose answers `arbitro legal` lists when they are awaited)."""
    kind = raw.get("type") if isinstance(raw, dict) else None
    if not isinstance(kind, str) or kind in CORE_COMMAND_TYPES:
        return
    ruleset_types = _COMMAND_TYPES.get((ruleset.Command,), "types", lambda: command_types(ruleset.Command))
    if kind not in ruleset_types:
        wanted = (f"one of {ruleset.name}'s {', '.join(map(repr, ruleset_types))}, or of the engine's own "
                  f"{', '.join(map(repr, CORE_COMMAND_TYPES))}")
        raise MalformedCommand(
            f"unknown command type {kind!r}: a command's type is {wanted} (see `arbitro submit --help`; "
            "`arbitro legal GAME --as SEAT` lists what SEAT may send now)",
            [{"field": "(command)", "problem": f"unknown command type: wanted {wanted}", "given": repr(kind)}])


# An entropy answer is the same whatever the other seats answered meanwhile, so answers mailed at once cross (§R.2).
ROUND_ANSWERS = ("commit_entropy", "reveal_entropy")
ANSWERED = ("entropy_committed", "entropy_revealed")  # the events a seat's answer to the round leaves


def stale(store: Store, game: GameRecord, expected_seq: int, command: Any, seat: str) -> bool:
    """Whether `seat`'s command sent against head `expected_seq` is refused as stale now (arbitro §L.2): the head
    moved, and not only by the other seats' answers to the entropy round this command answers too and the round's
    revised decision (arbitro §R.2: answers sent at once, by e-mail, cross; their order changes nothing, the mix is
    made in the seats' own order)."""
    if expected_seq == game.head_seq:
        return False
    if not (isinstance(command, dict) and command.get("type") in ROUND_ANSWERS and 0 < expected_seq < game.head_seq):
        return True
    since = (json.loads(e.body)["event"] for e in store.events(game.id, expected_seq + 1, game.head_seq))
    return not all(_crosses(event, seat) for event in since)


def _crosses(event: dict[str, Any], seat: str) -> bool:
    """Whether an event after the head `seat`'s answer to the round was sent against is one §L.2 lets it cross:
    another seat's answer to the round, or the round's own revised decision (who is still awaited)."""
    if event["type"] in ANSWERED:
        return bool(event["seat"] != seat)
    return bool(event["type"] == "decision_revised" and event["kind"] == EntropyStep.kind)


def umpire_only(seat: str, why: str) -> None:
    """The library's authority check for what serves hidden content (arbitro §A.1): the caller names the
    acting seat; the CLI takes it on trust (`--as`), a remote server from its authentication."""
    if seat != UMPIRE:
        raise NotUmpire(f"only the umpire may do this, not {seat!r}: {why}", rule="arbitro §A.1")


def pinned(game: GameRecord, created: core.GameCreated, ruleset: Ruleset[Any], command: Any, seat: str) -> None:
    """A game is judged under the ruleset version it was made with (its genesis names it): a build with
    another version refuses its commands rather than silently judge the rest under other rules. A fork is
    let through: the engine records it without asking the ruleset, and it is how the game moves on; so are a
    dispute's claim and answers, which ask nothing of the ruleset (arbitro §D). The refusal suggests the umpire's
    fork at the head, by the log's number to the umpire and by none to a seat, whose numbers are its commands' and
    which is never told how many events the log holds (engine-rules §V.6)."""
    if isinstance(command, dict) and command.get("type") in ("fork", "dispute_open", "dispute_reply"):
        return
    if created.version != ruleset.version:
        fork = (f"`arbitro fork {game.id} --at {game.head_seq}`" if seat == UMPIRE else
                f"the umpire's fork of it at its head (`arbitro fork {game.id} --at N`, N the log's head)")
        raise VersionPinned(
            f"game {game.id} was made with {created.ruleset} {created.version} but this build has {ruleset.name} "
            f"{ruleset.version}, so its commands are refused. Continue it with a build of {created.ruleset} "
            f"{created.version}; or run `arbitro readjudicate {game.id}` to see whether its log replays identically under "
            f"{ruleset.version}, then {fork} to continue under {ruleset.version}",
            rule="arbitro §L.5")


def seat_signature(
    store: Store, game: GameRecord, seat: str, command: Any, expected_seq: int | None, key: str | None,
    signature: str | None,
) -> signing.CommandSignature | None:
    """The seat's signature on this command, checked; required once the seat registered a key."""
    registered = store.seat_keys(game.id).get(seat)
    if signature is None:
        if registered is not None:
            raise Unsigned(f"{seat} registered the key {signing.fingerprint(registered[0])}... in game {game.id}: its "
                           "commands are accepted only signed with it (`arbitro submit --sign KEYFILE`)", rule=R_KEYS)
        return None
    if registered is None:
        raise BadInput(f"{seat} has no key registered in game {game.id}: register one first (`arbitro register-key "
                       f"{game.id} --as {seat} PUBLIC_KEY`, or on a server `arbitro remote register-key {game.id} "
                       f"PUBLIC_KEY`; {R_KEYS})")
    if expected_seq is None or key is None or not isinstance(command, dict):
        raise BadInput("a signed command names the head it expects and its idempotency key (--expect, --key), "
                       "both covered by the signature")
    statement = signing.command_statement(game=game.id, seat=seat, expected_seq=expected_seq, key=key, command=command)
    if not signing.signature_ok(registered[0], statement, signature):
        raise Unsigned(f"the signature does not verify under {seat}'s key {signing.fingerprint(registered[0])}... "
                       f"for this command in game {game.id} at #{expected_seq} with key {key!r}", rule=R_KEYS)
    return signing.CommandSignature(public_key=registered[0], command=command, signature=signature)


def sign_receipt(store: Store, game_id: str, cmd: int, cmd_hash: str, head: str) -> dict[str, Any]:
    key = store.signing_key()
    if key is None:
        raise NotFound(f"this database, opened read-only, has no signing key yet: no receipt for game {game_id} "
                       "can be signed until a command is submitted to it")
    return to_builtins(signing.make_receipt(key, game=game_id, cmd=cmd, cmd_hash=cmd_hash, head=head))


# --- a dispute's cited notes (arbitro §D.7): the notes are chained apart from the events, so checked here -----------
DISPUTE_MESSAGES = ("dispute_open", "dispute_reply", "dispute_rule")


def may_read(note: Annotation, seat: str) -> bool:
    """Whether `seat` may read `note`: a public note, every seat; a private note, its writer and the umpire, who holds
    the whole record (a full export carries every note) and may cite it in a dispute (arbitro §D.7)."""
    return reads_chain(seat, note.chain)


def _readable_notes(store: Store, game_id: str, seat: str) -> dict[tuple[str, int], Annotation]:
    """The notes `seat` may read, by their chain and number in it (a note is numbered within its chain)."""
    return {(n.chain, n.id): n for n in store.annotations(game_id) if may_read(n, seat)}


def note_reference(note: Annotation, command_of: Callable[[int], int] | None = None) -> dict[str, Any]:
    """A note as a dispute's evidence cites it (core_commands.NoteCited), in the citing seat's numbers: the umpire's
    names its event and hash; a seat's (`command_of`, its numbers: seat_numbers.CommandNumbers.command_of) the
    command it is on, and no hash, which covers the log's number of its event (a seat reads its notes so:
    seat_numbers.noted; engine-rules §V.6)."""
    if command_of is None:
        return {"kind": "note", "note": note.id, "seq": note.seq, "by": note.seat, "private": note.private,
                "hash": note.hash}
    return {"kind": "note", "note": note.id, "seq": command_of(note.seq), "by": note.seat, "private": note.private}


def cited_chain(seat: str, private: bool, by: str | None) -> str:
    """The chain a citation names: the public one, or a private one (the citing seat's own unless it names
    another's writer, which only the umpire may read)."""
    return f"private:{by or seat}" if private else "public"


def _chain_number(ref: dict[str, Any], seat: str) -> tuple[str, Any]:
    """The chain and number a note reference names, whole or by number."""
    by = ref.get("by")
    return cited_chain(seat, ref.get("private") is True, by if isinstance(by, str) else None), ref.get("note")


def _by_number(ref: Any) -> bool:
    """A note given by its number (`{"kind": "note", "note": 3}`; `"private": true` for the citing seat's own private
    note 3, and the umpire's `"by": SEAT` for that seat's), as the CLI and the HTTP endpoints send it."""
    return (isinstance(ref, dict) and ref.get("kind") == "note" and type(ref.get("note")) is int
            and ref.keys() <= {"kind", "note", "private", "by"} and type(ref.get("private", False)) is bool
            and isinstance(ref.get("by", ""), str))


def _notes_cited(command: Any) -> list[dict[str, Any]]:
    refs = command.get("evidence") if isinstance(command, dict) and command.get("type") in DISPUTE_MESSAGES else None
    return [r for r in refs if isinstance(r, dict) and r.get("kind") == "note"] if isinstance(refs, list) else []


def cited_notes(store: Store, game: GameRecord, seat: str, command: Any, *, signed: bool,
                numbers: Callable[[], CommandNumbers]) -> Any:
    """The command with each note its dispute message cites checked against this game's notes, read once: a note
    given by its number is completed as `seat` reads it (note_reference: a seat's by its command, without the
    hash), one given whole must be the note as `seat` reads it, and either must be one `seat` may read. A note that
    does not exist and another seat's private note are refused alike (disputes.no_note), so a seat cannot learn which
    private notes exist by citing numbers. A `signed` message cites its notes whole: the signature covers the
    command as it was sent, so nothing is filled in. `numbers`: the game's command numbers, read only for a seat
    that cites a note."""
    if not _notes_cited(command):
        return command
    readable = _readable_notes(store, game.id, seat)
    command_of = None if seat == UMPIRE else numbers().command_of
    evidence = []
    for ref in command["evidence"]:
        if isinstance(ref, dict) and ref.get("kind") == "note":
            chain, number = _chain_number(ref, seat)
            found = readable.get((chain, number)) if type(number) is int else None
            if found is None:
                raise IllegalCommand(no_note(number, seat, chain), rule=R_EVIDENCE)
            whole = note_reference(found, command_of)
            if _by_number(ref) and signed:
                raise IllegalCommand(f"a signed message cites each note whole, as `arbitro notes --json` gives it "
                                     f"(its {', '.join(k for k in whole if k not in ('kind', 'note'))}): "
                                     f"{note_label(number, chain)} is given by its number only", rule=R_EVIDENCE)
            if not _by_number(ref) and ref != whole:
                raise IllegalCommand(miscited(found, number, chain, seat), rule=R_EVIDENCE)
            ref = whole
        evidence.append(ref)
    return {**command, "evidence": evidence}


def miscited(found: Annotation, number: int, chain: str, seat: str) -> str:
    """The refusal of a note cited whole as it is not. The umpire is told where it lies and its hash; a seat is not
    (it may read where it lies by command in its `notes`, but a seat's citation given whole names another command,
    or a hash, or a field it has not: telling it nothing keeps the refusal the same whatever the counts): the note's
    `seq` is the log's event number and its hash covers it, which tell how many events the commands before made
    (engine-rules §V.6: a seat reads its notes numbered by command, without digests)."""
    where = f"it is on #{found.seq}, by {found.seat}, hash {found.hash} " if seat == UMPIRE else ""
    return f"{note_label(number, chain)} is cited as it is not: {where}(cite it by its number: `--note N`)"


def as_first_cited(command: Any, first: Any, seat: str) -> Any:
    """A retried message (its idempotency key already used) with each note given by its number completed as the
    first submission's was, so that the retry is the same command (no store read: the first was checked)."""
    if not any(_by_number(ref) for ref in _notes_cited(command)):
        return command
    cited = {_chain_number(ref, seat): ref for ref in _notes_cited(first)}
    return {**command, "evidence": [cited.get(_chain_number(ref, seat), ref) if _by_number(ref) else ref
                                    for ref in command["evidence"]]}
