"""Seats' signatures on their own commands (arbitro §L.6), as verify checks them in a full log and in a seat's export.

A signature proves a command is its seat's only under a key the host does not hold: the key the seat registered,
as the seat knows it. Each key's period is the chain's: its `key_registered` event (the seat's `register_key`) to its
`key_withdrawn` (the umpire's `withdraw_key`); the file's header `seat_keys` must say the same, so a file stripped of
a registration fails for everyone. A file whose chain registers no key was made before registrations were chained:
its header's registrations are its word, as they were (`legacy`). Whoever re-seals a seat's export (the host, who
holds the server's key) can still rewrite its chain from any point; so in a seat's export the check passes only when
the seat gave its own key (`--seat-key`), and is unchecked otherwise (engine-rules §L.6)."""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

import msgspec
import pydantic

from arbitro.adjudicator import core_commands as cc
from arbitro.adjudicator import registry
from arbitro.adjudicator.engine import Adjudicator
from arbitro.adjudicator.errors import ArbitroError, BadFile
from arbitro.adjudicator.exchange import Loaded
from arbitro.adjudicator.signing_keys import R_KEYS, key_registered, key_withdrawn
from arbitro.events import core, signing
from arbitro.events.codec import canonical
from arbitro.projections.base import UMPIRE

Said = tuple[Literal["passed", "failed", "unchecked"], str]


class Period(NamedTuple):
    """A key in force for a seat: the commands it covered, `first` to `last` (None: still in force), and the
    withdrawal that ended it (its command; None: the registration the file carries)."""

    key: str
    first: int
    last: int | None
    withdrawn_at: int | None


Withdrawal = tuple[int, core.KeyWithdrawn]  # the withdrawal's command, its event
Registration = tuple[int, core.KeyRegistered]  # the registering command, its event
LEGACY = ("registered in the file's header only (a game registered before registrations were chained: its "
          "chain has none)")
HEADER_ONLY = ("registered in the file's header only, while the chain registers other keys: the file's word alone (a "
               "game registered before registrations were chained, or a registration made up), not shown by its chain")


def signatures_said(loaded: Loaded, asserted: dict[str, str]) -> Said:
    """Each signature must verify under the key in force for its seat at its command (a period the chain gives, from
    its registration to its withdrawal) over that command as sent, and the stored command must be its normal form;
    every command in a seat's name under a key in force must be signed. `asserted` holds keys the verifying party
    knows to be the seats' own (`--seat-key`): the file must carry each, registered or withdrawn. A seat's export is
    passed only under its own seat's asserted key (_unanchored)."""
    adj = Adjudicator(registry.get(loaded.game.ruleset))
    (registrations, withdrawals), judged = served_keys(loaded), []
    for number, (record, _digest, _first, _last) in enumerate(loaded.commands):
        if record is None or number == 0:
            continue
        # a full log's from its commands; a seat's export's from what it was served (served_keys), its own included
        recorded = recorded_key_event(record.command, record.seat) if loaded.redacted_for is None else None
        if recorded is False:
            return "failed", _unjudgeable(number, record.command.get("type"))
        if isinstance(recorded, core.KeyRegistered):
            registrations.append((number, recorded))
        elif isinstance(recorded, core.KeyWithdrawn):
            withdrawals.append((number, recorded))
        signature = loaded.signatures.get(number)
        problem = None if signature is None else _signature_problem(adj, record, signature)
        judged.append((number, record.seat, None if signature is None else signature.public_key, problem))
    periods, failed = key_periods(loaded.seat_keys, registrations, withdrawals)
    failed = failed or _not_carried(periods, asserted) or _overlapping(periods) or _cut_short(withdrawals)
    if failed is not None:
        return "failed", failed
    for number, seat, key, problem in judged:
        problem = _out_of_force(number, seat, key, periods.get(seat, [])) or problem  # the key first, as admission
        if problem is not None:
            return "failed", f"command {number} in {seat}'s name{problem}"
    signed = sum(1 for _n, _s, key, _p in judged if key is not None)
    seats = ", ".join(f"{s} (after command {since})" for s, (_k, since) in sorted(loaded.seat_keys.items())) or "none"
    held = f" ({loaded.redacted_for}'s export holds the bodies of its own commands only)" if loaded.redacted_for else ""
    said = f"{signed} commands signed, each by its seat's registered key; seats that sign: {seats}{held}"
    said += _header_only_said(loaded.seat_keys, registrations)
    return _unanchored(loaded, asserted, periods) or ("passed", said + _withdrawn_said(withdrawals))


def _header_only_said(header: dict[str, tuple[str, int]], registrations: list[Registration]) -> str:
    """The seats whose registration in force is the file's header's alone, said so: all of them (LEGACY) where the chain
    registers no key, else each by name, so that a registration the header adds before the first chained one (the
    legacy rule lets it pass: key_periods) is never reported as the chain's (rev-s S3)."""
    chained = {(e.seat, e.public_key, at) for at, e in registrations}
    alone = sorted(seat for seat, (key, since) in header.items() if (seat, key, since) not in chained)
    if not alone:
        return ""
    return f"; {LEGACY}" if not registrations else f"; {', '.join(alone)}: {HEADER_ONLY}"


def _unjudgeable(number: int, kind: Any) -> str:
    if kind == "withdraw_key":
        return (f"command {number}, the umpire's withdraw_key, lacks the key or the commands it covered, which the "
                "server fills in: it was made up or altered")
    return f"command {number}, a register_key, names no public key (64 hex digits): it was made up or altered"


KEY_COMMANDS = ("register_key", "withdraw_key")  # the core commands that change a seat's key (§L.6)


def keys_chained(loaded: Loaded) -> bool:
    """Whether the file's chain registers or withdraws a key: its signatures are then checked, as a header's keys or
    signatures are (verify.check_signatures), even in a file stripped of both."""
    return any(served_keys(loaded)) or any(record is not None and record.command.get("type") in KEY_COMMANDS
                                           for record, *_ in loaded.commands)


def served_keys(loaded: Loaded) -> tuple[list[Registration], list[Withdrawal]]:
    """The `key_registered` and `key_withdrawn` events a seat's export was served (its items), each with its command's
    number (every seat is served them: a key is public). A full log's are read from its commands, whose bodies it
    holds (signatures_said). A seat's export numbered as the log (arbitro/2) was made before either was chained, so
    none is read there: one forged into it leaves its key in force nowhere, and its signatures fail."""
    served = ((item["cmd"], event["type"], event.get("event")) for item in loaded.items or ()
              for event in item["events"] if event.get("type") in ("key_registered", "key_withdrawn"))
    registrations: list[Registration] = []
    withdrawals: list[Withdrawal] = []
    for cmd, kind, event in served:
        try:
            at = msgspec.convert(cmd, int)
            if kind == "key_registered":
                registrations.append((at, msgspec.convert(event, core.KeyRegistered)))
            else:
                withdrawals.append((at, msgspec.convert(event, core.KeyWithdrawn)))
        except msgspec.ValidationError as e:
            raise BadFile(f"{loaded.source}: command {cmd}'s {kind} event is malformed ({e})") from None
    return registrations, withdrawals


def recorded_key_event(command: dict[str, Any], seat: str) -> core.KeyRegistered | core.KeyWithdrawn | None | bool:
    """The key event a recorded command made (re-adjudication checks it did), built as the engine builds it
    (signing_keys.key_registered, key_withdrawn) from the command as the engine parses it: a seat's `register_key`'s,
    the umpire's `withdraw_key`'s; None for any other command; False for one of them out of shape or without what the
    server fills in (a file's, edited: the engine refuses it too)."""
    if command.get("type") != ("withdraw_key" if seat == UMPIRE else "register_key"):
        return None
    try:
        parsed = cc.core_commands.validate_python(command)
    except pydantic.ValidationError:
        return False
    if isinstance(parsed, cc.RegisterKey):
        return key_registered(seat, parsed.public_key)
    return key_withdrawn(parsed) or False


def key_periods(header: dict[str, tuple[str, int]], registrations: list[Registration],
                withdrawals: list[Withdrawal]) -> tuple[dict[str, list[Period]], str | None]:
    """Each seat's keys in force, in order, as the chain says (each registration to its withdrawal), and what is wrong
    with them: a seat registering while a key is in force, a withdrawal of a key or period the chain did not
    register, a header `seat_keys` that is not the chain's registrations in force. A file registered before
    registrations were chained (no `key_registered` before it) keeps its header's and its withdrawals' word (legacy)."""
    first_chained = min((at for at, _e in registrations), default=None)
    periods: dict[str, list[Period]] = {}
    in_force: dict[str, Period] = {}
    for at, event in sorted([*registrations, *withdrawals], key=lambda change: change[0]):
        held = in_force.get(event.seat)
        if isinstance(event, core.KeyRegistered):
            if held is not None:
                return periods, (f"{event.seat} registered the key {signing.fingerprint(event.public_key)} at command "
                                 f"{at} while its key {signing.fingerprint(held.key)} was in force (from command "
                                 f"{held.first}): a seat holds one key at a time, so the chain was altered ({R_KEYS})")
            in_force[event.seat] = Period(event.public_key, at + 1, None, None)
            continue
        chained = held is not None and (held.key, held.first) == (event.public_key, event.first_cmd)
        if not chained and (held is not None or not _before(event.first_cmd - 1, first_chained)):
            return periods, (f"{event.seat}'s key {signing.fingerprint(event.public_key)} withdrawn at command {at} "
                             f"(from command {event.first_cmd}) is not the key the chain registered for it: a "
                             f"registration or a withdrawal was altered ({R_KEYS})")
        in_force.pop(event.seat, None)
        periods.setdefault(event.seat, []).append(Period(event.public_key, event.first_cmd, event.last_cmd, at))
    problem = _header_against_chain(header, in_force, first_chained)
    for seat, (key, since) in header.items():
        periods.setdefault(seat, []).append(in_force.pop(seat, Period(key, since + 1, None, None)))
    return {seat: sorted(p, key=lambda period: period.first) for seat, p in sorted(periods.items())}, problem


def _before(since: int, first_chained: int | None) -> bool:
    """Whether a registration whose last unsigned command is `since` predates every chained one (legacy)."""
    return first_chained is None or since < first_chained


def _header_against_chain(header: dict[str, tuple[str, int]], in_force: dict[str, Period],
                          first_chained: int | None) -> str | None:
    """What the header `seat_keys` says that the chain does not: a registration stripped from the header, or one
    the chain never made (a legacy one only before any chained registration, of a seat the chain registers none)."""
    for seat, period in sorted(in_force.items()):
        if header.get(seat) != (period.key, period.first - 1):
            return (f"the chain registers {seat}'s key {signing.fingerprint(period.key)} at command {period.first - 1}, "
                    f"which the file's seat_keys does not say ({_said(header.get(seat))}): the registration was "
                    f"dropped or altered ({R_KEYS})")
    for seat, (key, since) in sorted(header.items()):
        if seat not in in_force and not _before(since, first_chained):
            return (f"the file's seat_keys says {seat} registered the key {signing.fingerprint(key)} after command "
                    f"{since}, which its chain does not register: the registration was made up ({R_KEYS})")
    return None


def _said(registered: tuple[str, int] | None) -> str:
    return "it carries none" if registered is None else (f"it carries {signing.fingerprint(registered[0])} after "
                                                         f"command {registered[1]}")


def _not_carried(periods: dict[str, list[Period]], asserted: dict[str, str]) -> str | None:
    for seat, key in sorted(asserted.items()):
        carried = [p.key for p in periods.get(seat, [])]
        if key.lower() not in carried:
            named = ", ".join(f"{signing.fingerprint(k)}..." for k in carried) or "none"
            return (f"the file does not carry {seat}'s key {signing.fingerprint(key)}... (it carries {named}): its "
                    f"commands in {seat}'s name are not the ones that seat signed")
    return None


def _overlapping(periods: dict[str, list[Period]]) -> str | None:
    """Keys of one seat in force at once: the file's registration is older than a withdrawal it follows."""
    for seat, keys in periods.items():
        for before, after in zip(keys, keys[1:]):
            if before.last is None or before.last >= after.first:
                return (f"the file says {seat}'s key {signing.fingerprint(after.key)} was in force from command "
                        f"{after.first}, while its key {signing.fingerprint(before.key)} was (to command "
                        f"{before.last if before.last is not None else 'the end'}): a registration or a withdrawal "
                        "was altered")
    return None


def _cut_short(withdrawals: list[Withdrawal]) -> str | None:
    """A withdrawal whose period does not end on the command just before its own: the server fills the period in up
    to the head (signing_keys.with_withdrawal), so one ended earlier was altered, and would leave the commands
    between it and the withdrawal under no key, an unsigned one in the seat's name passed (rev-s S5)."""
    for at, e in withdrawals:
        if e.last_cmd != at - 1 or e.first_cmd > at:  # `at` an int: enumerate's, or served_keys' converted
            return (f"{e.seat}'s key {signing.fingerprint(e.public_key)} withdrawn at command {at} covered commands "
                    f"{e.first_cmd} to {e.last_cmd}, not every command up to its withdrawal (the server fills them "
                    f"in): a withdrawal was altered ({R_KEYS})")
    return None


def _out_of_force(number: int, seat: str, key: str | None, periods: list[Period]) -> str | None:
    """What is wrong with command `number` signed with `key` (None: unsigned) under `seat`'s keys in force."""
    period = next((p for p in periods if p.first <= number and (p.last is None or number <= p.last)), None)
    if key is None and period is not None:
        if period.withdrawn_at is None:
            return (f" is not signed, though {seat} registered a key after command {period.first - 1}: it was made up "
                    "or altered")
        return (f" is not signed, though {seat}'s key {signing.fingerprint(period.key)} was in force (commands "
                f"{period.first} to {period.last}, withdrawn at command {period.withdrawn_at}): it was made up or "
                "altered")
    if key is not None and (period is None or period.key != key):
        if all(p.withdrawn_at is None for p in periods):
            return ": signed with a key its seat did not register"
        return (f": signed with a key that was not {seat}'s in force at its command (that was "
                f"{signing.fingerprint(period.key) if period else 'none'})")
    return None


def _withdrawn_said(withdrawals: list[Withdrawal]) -> str:
    return "".join(f"; {e.seat}'s key {signing.fingerprint(e.public_key)} withdrawn at command {at} (it covered "
                   f"commands {e.first_cmd} to {e.last_cmd}: {e.reason})" for at, e in sorted(withdrawals, key=lambda w: w[0]))


def _unanchored(loaded: Loaded, asserted: dict[str, str], periods: dict[str, list[Period]]) -> Said | None:
    """A seat's export whose seat gave no key of its own: its signatures prove nothing the host could not forge
    (drop the seat's key and its signatures, or swap in a key of its own, and seal again), so the check is unchecked,
    saying what the file claims."""
    seat = loaded.redacted_for
    if seat is None or seat in asserted:
        return None
    carried = loaded.seat_keys.get(seat)
    withdrawn = [p for p in periods.get(seat, []) if p.withdrawn_at is not None]
    since = "".join(f"; its key {signing.fingerprint(p.key)} was withdrawn at command {p.withdrawn_at}"
                    for p in withdrawn)
    if carried is None:
        return "unchecked", (f"this file says {seat} registered no key{' since' if withdrawn else ''}, so nothing here "
                             f"proves that the commands in {seat}'s name are {seat}'s: if you registered one, give it "
                             f"(--seat-key {seat}=YOUR_PUBLIC_KEY){since}")
    return "unchecked", (f"{seat}'s commands are signed under the key this file carries for {seat} "
                         f"({signing.fingerprint(carried[0])}), but nothing here anchors that key to {seat}: check "
                         f"that it is yours (--seat-key {seat}=YOUR_PUBLIC_KEY){since}")


def _signature_problem(adj: Adjudicator, record: Any, signature: Any) -> str | None:
    """What is wrong with a signature as made (under the key it names); whether that key was in force: _out_of_force."""
    statement = signing.command_statement(game=record.game, seat=record.seat, expected_seq=record.expected_seq,
                                          key=record.key, command=signature.command)
    if not signing.signature_ok(signature.public_key, statement, signature.signature):
        return ": its signature does not verify (the command, its head or its key was altered)"
    try:
        normal = adj.parse(signature.command)[1]
    except ArbitroError as e:
        return f": the signed command does not parse ({e})"
    if canonical(normal) != canonical(record.command):
        return ": the stored command is not the one its seat signed"
    return None
