"""Canonical encoding and hashing.

Every stored record is encoded the same way on every machine: JSON, keys sorted, no insignificant
whitespace, UTF-8, and no floats anywhere (game data is integral; a float's text form is not portable).
A record's hash is SHA-256 over those bytes.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

_encoder = msgspec.json.Encoder(order="sorted")
# The float test, done by msgspec in C: MessagePack writes every float (nan and inf too, which JSON writes as
# null, like None) as the type byte 0xcb, so a value without that byte anywhere in its MessagePack form holds no
# float. The byte can also sit inside a string or an integer (203, say): only then does the walk below decide.
_packer = msgspec.msgpack.Encoder()
_FLOAT64 = b"\xcb"


class FloatInGameData(ValueError):
    """A float reached canonical encoding; game data must be integral."""


def canonical(obj: Any) -> bytes:
    """The canonical bytes of a JSON-able value or msgspec Struct."""
    data = _encoder.encode(obj)
    if _may_hold_float(obj) and _has_float(obj):
        raise FloatInGameData("floats are not allowed in game data; use integers")
    return data


def _may_hold_float(obj: Any) -> bool:
    try:
        return _FLOAT64 in _packer.encode(obj)
    except OverflowError:  # an integer beyond 64 bits, which JSON holds and MessagePack does not
        return True


def _has_float(obj: Any) -> bool:
    if isinstance(obj, float):
        return True
    if isinstance(obj, msgspec.Struct):
        return _has_float(msgspec.to_builtins(obj))
    if isinstance(obj, dict):
        return any(_has_float(v) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(_has_float(v) for v in obj)
    return False


def to_builtins(obj: Any) -> Any:
    """A Struct (or anything msgspec knows) as plain JSON-able Python values."""
    return msgspec.to_builtins(obj)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()

