"""Seats' signatures on their own commands (arbitro §L.6), as verify checks them in a full log and in a seat's export.

A signature proves a command is its seat's only under a key the host does not hold: the key the seat registered,
as the seat knows it. A file names its seats' keys itself, and whoever re-seals a seat's export (the host, who holds
the server's key) can drop or swap them; so in a seat's export the check passes only when the seat gave its own key
(`--seat-key`), and is unchecked otherwise (engine-rules §L.6)."""

from __future__ import annotations

from typing import Any, Literal

from arbitro.adjudicator import registry
from arbitro.adjudicator.engine import Adjudicator
from arbitro.adjudicator.errors import ArbitroError
from arbitro.adjudicator.exchange import Loaded
from arbitro.events import signing
from arbitro.events.codec import canonical

Said = tuple[Literal["passed", "failed", "unchecked"], str]


def signatures_said(loaded: Loaded, asserted: dict[str, str]) -> Said:
    """Each signature must verify under its seat's registered key over that command as sent, and the stored command
    must be its normal form; once a seat registered a key, every later command in its name must be signed.
    `asserted` holds keys the verifying party knows to be the seats' own (`--seat-key`): the file must carry exactly
    those. A seat's export is passed only under its own seat's asserted key (_unanchored)."""
    for seat, key in sorted(asserted.items()):
        carried = loaded.seat_keys.get(seat)
        if carried is None or carried[0] != key.lower():
            return "failed", (f"the file does not carry {seat}'s key {key[:16]}... (it carries "
                              f"{carried[0][:16] + '...' if carried else 'none'}): its commands in {seat}'s name are "
                              "not the ones that seat signed")
    adj = Adjudicator(registry.get(loaded.game.ruleset))
    signed = 0
    for number, (record, _digest, _first, _last) in enumerate(loaded.commands):
        if record is None or number == 0:
            continue
        signature = loaded.signatures.get(number)
        registered = loaded.seat_keys.get(record.seat)
        if signature is None:
            if registered is not None and number > registered[1]:
                return "failed", (f"command {number} in {record.seat}'s name is not signed, though {record.seat} "
                                  f"registered a key after command {registered[1]}: it was made up or altered")
            continue
        problem = _signature_problem(adj, record, signature, registered)
        if problem is not None:
            return "failed", f"command {number} in {record.seat}'s name: {problem}"
        signed += 1
    seats = ", ".join(f"{s} (after command {since})" for s, (_k, since) in sorted(loaded.seat_keys.items())) or "none"
    held = f" ({loaded.redacted_for}'s export holds the bodies of its own commands only)" if loaded.redacted_for else ""
    said = f"{signed} commands signed, each by its seat's registered key; seats that sign: {seats}{held}"
    return _unanchored(loaded, asserted) or ("passed", said)


def _unanchored(loaded: Loaded, asserted: dict[str, str]) -> Said | None:
    """A seat's export whose seat gave no key of its own: its signatures prove nothing the host could not forge
    (drop the seat's key and its signatures, or swap in a key of its own, and seal again), so the check is unchecked,
    saying what the file claims."""
    seat = loaded.redacted_for
    if seat is None or seat in asserted:
        return None
    carried = loaded.seat_keys.get(seat)
    if carried is None:
        return "unchecked", (f"this file says {seat} registered no key, so nothing here proves that the commands in "
                             f"{seat}'s name are {seat}'s: if you registered one, give it (--seat-key "
                             f"{seat}=YOUR_PUBLIC_KEY)")
    return "unchecked", (f"{seat}'s commands are signed under the key this file carries for {seat} "
                         f"({signing.fingerprint(carried[0])}), but nothing here anchors that key to {seat}: check "
                         f"that it is yours (--seat-key {seat}=YOUR_PUBLIC_KEY)")


def _signature_problem(adj: Adjudicator, record: Any, signature: Any, registered: tuple[str, int] | None) -> str | None:
    if registered is None or signature.public_key != registered[0]:
        return "signed with a key its seat did not register"
    statement = signing.command_statement(game=record.game, seat=record.seat, expected_seq=record.expected_seq,
                                          key=record.key, command=signature.command)
    if not signing.signature_ok(signature.public_key, statement, signature.signature):
        return "its signature does not verify (the command, its head or its key was altered)"
    try:
        normal = adj.parse(signature.command)[1]
    except ArbitroError as e:
        return f"the signed command does not parse ({e})"
    if canonical(normal) != canonical(record.command):
        return "the stored command is not the one its seat signed"
    return None
