"""Ed25519 signatures over the log: the server's receipts, and a seat's signature on its own commands.

A hash chain proves that a log is internally consistent, not that it is *the* log: whoever holds the
database can rewrite it from any point and hash it again. Signatures anchor it to parties outside the
database. The server signs a receipt for every accepted submission, over (game, command, command hash, head
hash: the hash of the command's last event, which a seat is served as its item's link); a seat that keeps its receipts can prove afterwards that a file lacks a head the
server acknowledged (a dropped tail) or holds another event there (a rewrite). A seat may also sign its
own commands with its own key, so that nobody (the host included) can put a command in its name.

Keys and signatures are lowercase hex: a public key is 32 bytes, a signature 64.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any, ClassVar

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from arbitro.events.codec import canonical, sha256_hex

RECEIPT_FORMAT = "arbitro-receipt/2"  # /1 named the head's event number too (LegacyReceipt)
LEGACY_RECEIPT_FORMAT = "arbitro-receipt/1"
COMMAND_SIGNATURE_FORMAT = "arbitro-command/1"
SEAT_SEAL_FORMAT = "arbitro-seat-copy/2"  # /1 signed the views, not the whole file
SEAT_SEAL_COMMANDS_FORMAT = "arbitro-seat-copy/3"  # the seal of a seat's export in its own numbers (arbitro-seat/3)


class BadKey(ValueError):
    """A key or signature that is not the hex of an Ed25519 key or signature."""


def new_private_key() -> bytes:
    """A fresh Ed25519 private key, as its 32 raw bytes."""
    return Ed25519PrivateKey.generate().private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())


@lru_cache(maxsize=16)
def _private(raw: bytes) -> Ed25519PrivateKey:
    """The key object of `raw`, made once per key: a submit signs its receipt with the server's key (its public half
    and its signature), which was made again from its bytes twice a submit (~50 us each, issue 15). Kept for the few
    keys a process signs with, whose bytes it holds already (the store's `signing_key`); nothing kept is served."""
    try:
        return Ed25519PrivateKey.from_private_bytes(raw)
    except ValueError as e:
        raise BadKey(f"not an Ed25519 private key ({e})") from None


def public_key(private: bytes) -> str:
    return _private(private).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def check_public_key(text: str) -> str:
    """The key in canonical form, or BadKey saying what is wrong with it."""
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(text))
    except ValueError:
        raise BadKey(f"{text[:16]!r}... is not an Ed25519 public key (64 hex digits)") from None
    return text.lower()


def sign(private: bytes, message: bytes) -> str:
    return _private(private).sign(message).hex()


def signature_ok(public: str, message: bytes, signature: str) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public)).verify(bytes.fromhex(signature), message)
    except (ValueError, InvalidSignature):
        return False
    return True


def fingerprint(public: str) -> str:
    """A short, readable name for a key: enough to compare two keys by eye."""
    return public[:16]


# --- the server's receipts ----------------------------------------------------------------------------
class ServerSigned(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Something the server signs with its key: every field but `signature`, canonically encoded. Each kind names
    its own `FORMAT` inside the signed bytes, so the signature of one kind never passes for another's."""

    FORMAT: ClassVar[str]
    format: str
    server_key: str
    signature: str = ""

    def message(self) -> bytes:
        return unsigned_bytes(self)

    def signed_ok(self) -> bool:
        return self.format == self.FORMAT and signature_ok(self.server_key, self.message(), self.signature)


class Receipt(ServerSigned, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The server's signed acknowledgement of an accepted submission: after command `cmd` (whose record
    hashes to `cmd_hash`) the log of `game` ended at the event whose hash is `head`, the command's last (a seat's
    item's link). No event number: how many events the commands made can be a hidden fact (engine-rules §V.6),
    and the receipt is given to a seat; the log places `head` after command `cmd`."""

    FORMAT = RECEIPT_FORMAT
    format: str = RECEIPT_FORMAT
    game: str
    cmd: int
    cmd_hash: str
    head: str


class LegacyReceipt(ServerSigned, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A receipt signed before arbitro-receipt/2, still verified: as Receipt, and the head's event number `seq`."""

    FORMAT = LEGACY_RECEIPT_FORMAT
    format: str = LEGACY_RECEIPT_FORMAT
    game: str
    cmd: int
    cmd_hash: str
    seq: int
    head: str


AnyReceipt = Receipt | LegacyReceipt


def unsigned_bytes(signed: msgspec.Struct) -> bytes:
    """What the server signs of a receipt or a seal: every field but the signature, canonically encoded."""
    return canonical({k: v for k, v in msgspec.structs.asdict(signed).items() if k != "signature"})


def make_receipt(private: bytes, *, game: str, cmd: int, cmd_hash: str, head: str) -> Receipt:
    unsigned = Receipt(game=game, cmd=cmd, cmd_hash=cmd_hash, head=head, server_key=public_key(private))
    return msgspec.structs.replace(unsigned, signature=sign(private, unsigned.message()))


def read_receipt(data: Any) -> AnyReceipt:
    """A receipt from its JSON form, of either format (an arbitro-receipt/1 one as LegacyReceipt); ValueError naming
    what is wrong."""
    legacy = isinstance(data, dict) and data.get("format") == LEGACY_RECEIPT_FORMAT
    kind: type[AnyReceipt] = LegacyReceipt if legacy else Receipt
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as e:
        raise ValueError(f"not an {kind.FORMAT} receipt ({e}; arbitro reads {RECEIPT_FORMAT} and "
                         f"{LEGACY_RECEIPT_FORMAT})") from None


# --- the server's seal on a seat's export: what it showed that seat ------------------------------------------
def view_link(prev: str, seq: int, event_hash: str, patch: Any) -> str:
    """One link of a seat's view chain: the patch that made what the seat was shown after event `seq` (whose hash
    is `event_hash`), chained to the link before (`prev`; the genesis hash for #1). Binding each view to its event's
    hash ties it to this game's chain at that point: a view from another game or another point does not link."""
    return sha256_hex(canonical({"prev": prev, "seq": seq, "event": event_hash, "patch": patch}))


class RecordsDigest:
    """What a seat seal signs of a whole export: sha256 over every record before the seal, each canonically encoded
    and ended by a newline, in file order. Every byte the seat was sent is bound by it: redacted events (which no
    hash the seat holds binds, their salt withheld), its own commands, the notes and the chain's end of them."""

    def __init__(self) -> None:
        self._sha = hashlib.sha256()

    def add(self, record: bytes) -> None:
        self._sha.update(record)
        self._sha.update(b"\n")

    def hexdigest(self) -> str:
        return self._sha.hexdigest()


class SeatSeal(ServerSigned, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The server's signature on a seat's export: in `game`, `seat` was served the chain up to event `seq` (whose
    hash is `head`), the views whose chain ends at link `views`, at the head the seat state hashing to `state`, and
    the file whose records before the seal digest to `records` (RecordsDigest: what binds everything). The view
    links and `state` bind nothing more than `records` does; they let an error name the edited record. Its format
    names what is signed, so no receipt's signature (signed with the same key) passes for a seal."""

    FORMAT = SEAT_SEAL_FORMAT
    format: str = SEAT_SEAL_FORMAT
    game: str
    seat: str
    seq: int
    head: str
    views: str
    state: str
    records: str


class CommandsSeal(SeatSeal, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The seal of a seat's export in the seat's own numbers (arbitro-seat/3, engine-rules §V.6): `seq` is the head
    command's number and `head` its item's link (the hash of its last event); the views' chain links one view per
    command. Its own format, so a seal of an export numbered as the log never passes for one of these."""

    FORMAT = SEAT_SEAL_COMMANDS_FORMAT
    format: str = SEAT_SEAL_COMMANDS_FORMAT


def make_seat_seal(private: bytes, *, game: str, seat: str, seq: int, head: str, views: str, state: str,
                   records: str, kind: type[SeatSeal] = SeatSeal) -> SeatSeal:
    unsigned = kind(game=game, seat=seat, seq=seq, head=head, views=views, state=state, records=records,
                    server_key=public_key(private))
    return msgspec.structs.replace(unsigned, signature=sign(private, unsigned.message()))


# --- a seat's signature on its own command -----------------------------------------------------------
def command_statement(*, game: str, seat: str, expected_seq: int, key: str, command: Any) -> bytes:
    """What a seat signs: the command as it sends it, for one game, seat, head and idempotency key, so a
    signature cannot be replayed in another game, by another seat or at another point of the log."""
    return canonical({"format": COMMAND_SIGNATURE_FORMAT, "game": game, "seat": seat, "expected_seq": expected_seq,
                      "key": key, "command": command})


class CommandSignature(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A seat's signature, kept beside the command record: the command exactly as signed, and the key."""

    public_key: str
    command: dict[str, Any]
    signature: str
