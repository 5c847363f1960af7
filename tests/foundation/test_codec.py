"""The canonical encoding every hash is taken over (events/codec.py, arbitro §L): the same bytes on every
machine, and no float in game data, whatever form the float takes."""

from __future__ import annotations

import dataclasses
import enum
import hashlib
from typing import Any

import msgspec
import pytest

from arbitro.events.codec import FloatInGameData, canonical, sha256_hex, to_builtins


class Piece(msgspec.Struct):
    name: str
    strength: Any


def test_keys_are_sorted_without_whitespace_and_text_is_utf8() -> None:
    assert canonical({"b": 1, "a": [2, {"d": None, "c": "é"}]}) == '{"a":[2,{"c":"é","d":null}],"b":1}'.encode()
    assert canonical(Piece(name="Lannes", strength=12)) == b'{"name":"Lannes","strength":12}'


@pytest.mark.parametrize("value", [1.5, 1.0, -0.0, 1e20, 1e-7, 5e-324, float("inf"), float("-inf"), float("nan")],
                         ids=repr)
@pytest.mark.parametrize("where", ["bare", "in a dict", "in a list", "in a tuple", "nested", "in a struct"])
def test_a_float_is_refused_whatever_its_text_form_and_wherever_it_sits(value: float, where: str) -> None:
    """1e20 encodes as `1e20` (no '.', no sign after the e) and inf and nan as `null`: each would otherwise
    pass as game data, the last two silently changed."""
    wrapped = {"bare": value, "in a dict": {"x": value}, "in a list": [1, value], "in a tuple": (value,),
               "nested": {"a": [{"b": [value]}]}, "in a struct": Piece(name="x", strength=value)}[where]
    with pytest.raises(FloatInGameData, match="^floats are not allowed in game data; use integers$"):
        canonical(wrapped)


@pytest.mark.parametrize("value", [{"note": "1.5 hexes, 1e20, e+3, e-2, 1E5, null"}, {"n": None}, [None, 10**20],
                                   {"big": 10**30, "neg": -7}, Piece(name="a.b", strength=None),
                                   {"n": 203, "m": 52000}, {"ipa": "\u02c8marengo"}, {b"\xcb".decode("latin-1"): 1},
                                   {"n": 0xCB7FF0, "m": [None, 0xCBFFF8 << 8]}, [0xCB7FF0, 10**20, None]],
                         ids=repr)
def test_integers_none_and_text_that_looks_like_a_float_are_not_refused(value: Any) -> None:
    """Including values whose MessagePack form holds the float type byte 0xcb (203; U+02C8 is 0xcb 0x88 in
    UTF-8), which the fast test lets through to the exact one, and integers whose bytes are those of an inf or a
    nan's first bytes (0xcb 0x7f 0xf0), which MessagePack cannot tell from a float without walking the value."""
    assert msgspec.json.decode(canonical(value)) == msgspec.to_builtins(value)


@pytest.mark.parametrize("value", [1.5, float("inf"), float("nan")], ids=repr)
@pytest.mark.parametrize("company", [203, 10**20, "\u02c8"], ids=repr)
def test_a_float_is_refused_beside_what_looks_like_one(value: float, company: Any) -> None:
    """A float next to a value whose MessagePack form holds 0xcb (203, U+02C8) or that MessagePack cannot hold
    (an integer beyond 64 bits): the JSON's float literals and the MessagePack form's non-finite floats decide."""
    with pytest.raises(FloatInGameData, match="^floats are not allowed in game data; use integers$"):
        canonical({"a": company, "b": [None, {"c": value}]})


def test_the_hash_is_sha256_hex_of_the_bytes() -> None:
    assert sha256_hex(b"arbitro") == hashlib.sha256(b"arbitro").hexdigest()
    assert sha256_hex(canonical({"a": 1})) == hashlib.sha256(b'{"a":1}').hexdigest()


def test_to_builtins_gives_plain_values_of_a_struct() -> None:
    assert to_builtins(Piece(name="x", strength={"a": 3})) == {"name": "x", "strength": {"a": 3}}


class Weather(enum.Enum):
    STORM = float("inf")


@dataclasses.dataclass
class Reading:
    value: object


@pytest.mark.parametrize("value", [{float("inf")}, {"hexes": frozenset({float("nan")})}, [Weather.STORM],
                                   Reading(float("-inf")), {"a": Reading([float("nan")])}], ids=repr)
def test_a_non_finite_float_is_refused_in_whatever_msgspec_encodes(value: Any) -> None:
    """msgspec encodes sets, enums and dataclasses (as JSON arrays, values and objects); a non-finite float in
    one is written as JSON's null, so only the walk can find it, and the walk sees dicts, lists and Structs only
    (events/codec._has_float): canonical() gives b'[null]' for {inf}, a float in game data that verify hashes."""
    with pytest.raises(FloatInGameData):
        canonical(value)
