"""Canonical encoding and hashing.

Every stored record is encoded the same way on every machine: JSON, keys sorted, no insignificant
whitespace, UTF-8, and no floats anywhere (game data is integral; a float's text form is not portable).
A record's hash is SHA-256 over those bytes.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import msgspec

_encoder = msgspec.json.Encoder(order="sorted")
# Where a float could be in the encoded bytes: a number with a fraction or an exponent (1.5, 1e20, 5e-324), or
# null (msgspec writes inf and nan as null), at the start or after [ : or , (strings may match too: the walk
# below decides). A cheap test first, since almost no record holds a float or a null.
_MAY_HOLD_FLOAT = re.compile(rb"(?:^|[\[:,])(?:-?[0-9]+[.eE]|null)")


class FloatInGameData(ValueError):
    """A float reached canonical encoding; game data must be integral."""


def canonical(obj: Any) -> bytes:
    """The canonical bytes of a JSON-able value or msgspec Struct."""
    data = _encoder.encode(obj)
    if _MAY_HOLD_FLOAT.search(data) and _has_float(obj):
        raise FloatInGameData("floats are not allowed in game data; use integers")
    return data


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

