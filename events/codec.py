"""Canonical encoding and hashing.

Every stored record is encoded the same way on every machine: JSON, keys sorted, no insignificant
whitespace, UTF-8, and no floats anywhere (game data is integral; a float's text form is not portable).
A record's hash is SHA-256 over those bytes.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, NoReturn

import msgspec

_encoder = msgspec.json.Encoder(order="sorted")
# The float test, done by msgspec in C. MessagePack writes every float (nan and inf too, which JSON writes as null,
# like None) as the type byte 0xcb, so a value without that byte anywhere in its MessagePack form holds no float.
# The byte can also sit inside a string or an integer (203, say): then the JSON just encoded is decoded again with
# a float hook, which msgspec calls for each float literal, and a non-finite float (JSON's null) is one whose
# 0xcb is followed by an exponent of all ones. Only a value with such bytes inside an integer, or with an integer
# beyond 64 bits, which MessagePack cannot hold, is walked in Python (issue 15: the walk was most of a Monferrato
# verify's checkpoints).
_packer = msgspec.msgpack.Encoder()
_FLOAT64 = b"\xcb"
_NON_FINITE = re.compile(b"\xcb[\x7f\xff][\xf0-\xff]")  # sign, then 11 exponent bits of 1: inf, -inf, nan


_REFUSAL = "floats are not allowed in game data; use integers"


class FloatInGameData(ValueError):
    """A float reached canonical encoding; game data must be integral."""


class _FloatLiteral(Exception):  # not a ValueError, which msgspec would turn into its own ValidationError
    pass


def _float_literal(text: str) -> NoReturn:
    raise _FloatLiteral(text)


_finite_floats = msgspec.json.Decoder(float_hook=_float_literal)


def canonical(obj: Any) -> bytes:
    """The canonical bytes of a JSON-able value or msgspec Struct."""
    data = _encoder.encode(obj)
    try:
        packed: bytes | None = _packer.encode(obj)
    except OverflowError:  # an integer beyond 64 bits, which JSON holds and MessagePack does not
        packed = None
    if packed is None or _FLOAT64 in packed:
        try:
            _finite_floats.decode(data)
        except _FloatLiteral:
            raise FloatInGameData(_REFUSAL) from None
        if (packed is None or _NON_FINITE.search(packed) is not None) and _has_float(msgspec.to_builtins(obj)):
            raise FloatInGameData(_REFUSAL)
    return data


def _has_float(obj: Any) -> bool:
    """Whether a value of builtins (msgspec.to_builtins' output: sets, enums, dataclasses and Structs already turned
    into lists, values and dicts, so a nan inside a frozenset is seen) holds a float."""
    if isinstance(obj, float):
        return True
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

