"""The signing primitives (events/signing.py, arbitro §L.6) as another implementation must reproduce them:
a seat's client signs `command_statement`'s exact bytes, so they are pinned here byte for byte; and a bad
key is refused with a message that shows which key."""

from __future__ import annotations

import pytest

from arbitro.events.signing import (BadKey, check_public_key, command_statement, fingerprint, new_private_key,
                                    public_key, sign, signature_ok)


def test_a_seats_command_statement_is_this_canonical_json_and_nothing_else() -> None:
    """Every field named as documented: a client that signs these bytes must be verified, and a renamed field
    (or a dropped one) would make every existing signature fail, or a signature fit another game or seat."""
    statement = command_statement(game="g", seat="red", expected_seq=7, key="k1", command={"type": "attack", "aim": "high"})
    assert statement == (b'{"command":{"aim":"high","type":"attack"},"expected_seq":7,"format":"arbitro-command/1",'
                         b'"game":"g","key":"k1","seat":"red"}')


def test_a_signature_fits_only_the_statement_it_was_made_for() -> None:
    private = new_private_key()
    public = public_key(private)
    fields = {"game": "g", "seat": "red", "expected_seq": 7, "key": "k1", "command": {"type": "attack"}}
    signature = sign(private, command_statement(**fields))
    assert signature_ok(public, command_statement(**fields), signature)
    for name, other in (("game", "h"), ("seat", "blue"), ("expected_seq", 8), ("key", "k2"), ("command", {"type": "guard"})):
        assert not signature_ok(public, command_statement(**{**fields, name: other}), signature), name


def test_a_fingerprint_is_the_keys_first_16_hex_digits() -> None:
    public = public_key(new_private_key())
    assert fingerprint(public) == public[:16] and len(fingerprint(public)) == 16


def test_a_bad_public_key_is_refused_naming_its_first_16_characters() -> None:
    with pytest.raises(BadKey) as refused:
        check_public_key("0123456789abcdefXYZ")
    assert str(refused.value) == "'0123456789abcdef'... is not an Ed25519 public key (64 hex digits)"
    assert check_public_key("AB" * 32) == "ab" * 32


def test_a_bad_private_key_is_refused_saying_so() -> None:
    with pytest.raises(BadKey, match=r"^not an Ed25519 private key \(.+\)$"):
        public_key(b"too short")
