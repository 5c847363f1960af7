"""A mailed command file (play by e-mail, issue 14 point 5): one seat's command with everything the umpire needs to
submit it as that seat sent it, written offline (`arbitro submit --offline`) and submitted by the umpire
(`arbitro submit GAME --file move.json`) or posted to the server (`POST /games/{id}/mail`).

    {"format": "arbitro/mail-1", "game": G, "seat": S, "command": {...}, "expected_seq": N, "key": K,
     "signature": "..."}

`expected_seq` is the head the seat saw (a file made against an older head is refused as stale, not applied to a
position the seat never saw); `key` makes a file submitted twice count once; `signature`, the seat's Ed25519
signature of all of it (arbitro §L.6), means nobody on the way can change it. A file holding a bare command (no
`command` field) is a command, as before.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator.errors import BadFile, BadInput
from arbitro.events import signing

MAIL_FORMAT = "arbitro/mail-1"


class Mailed(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    command: dict[str, Any]
    seat: str | None = None
    game: str | None = None
    expected_seq: int | None = None
    key: str | None = None
    signature: str | None = None
    format: str = MAIL_FORMAT


def read_mailed(data: Any, source: str) -> Mailed | None:
    """The envelope in a file's JSON, or None when it holds a bare command; a malformed envelope says what."""
    if not isinstance(data, dict) or "command" not in data:
        return None
    try:
        mailed = msgspec.convert(data, Mailed)
    except msgspec.ValidationError as e:
        raise BadFile(f"{source}: not a mailed command file ({e}); its fields are {', '.join(Mailed.__struct_fields__)}") from None
    if mailed.format != MAIL_FORMAT:
        raise BadFile(f"{source}: format {mailed.format!r}, not {MAIL_FORMAT!r}: written by another version of arbitro")
    if mailed.expected_seq is not None and mailed.expected_seq < 0:
        raise BadFile(f"{source}: expected_seq {mailed.expected_seq} is negative")
    return mailed


def for_game(mailed: Mailed, game: str, source: str) -> Mailed:
    """Refuse a file made for another game: its command was chosen for that game's position."""
    if mailed.game is not None and mailed.game != game:
        raise BadInput(f"{source} is a command for game {mailed.game}, not {game}: submit it there "
                       f"(arbitro submit {mailed.game} --file {source})")
    return mailed


def write_mailed(*, game: str, seat: str, command: dict[str, Any], expected_seq: int, key: str,
                 private_key: bytes | None) -> Mailed:
    """A command file as the seat mails it, signed when the seat has a key."""
    signature = None
    if private_key is not None:
        signature = signing.sign(private_key, signing.command_statement(
            game=game, seat=seat, expected_seq=expected_seq, key=key, command=command))
    return Mailed(command=command, seat=seat, game=game, expected_seq=expected_seq, key=key, signature=signature)
