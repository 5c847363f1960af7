"""The signing primitives (events/signing.py, arbitro §L.6) as another implementation must reproduce them:
a seat's client signs `command_statement`'s exact bytes, so they are pinned here byte for byte; and a bad
key is refused with a message that shows which key."""

from __future__ import annotations

import hashlib
import json

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from arbitro.events import signing
from arbitro.events.signing import (BadKey, RecordsDigest, check_public_key, command_statement, fingerprint,
                                    make_receipt, make_seat_seal, new_private_key, public_key, sign, signature_ok,
                                    view_link)


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


# --- the seat seal (docs/exchange-format.md, `seat_view` and `seat_seal`), recomputed here from the document --------
def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_a_views_link_is_the_documented_hash_of_the_link_before_its_event_and_its_patch() -> None:
    """`sha256(canonical({"prev", "seq", "event", "patch"}))`: a seat's client, or another verifier, recomputes each
    link from the document; a renamed or dropped field would link views from another point or game."""
    patch = [{"op": "add", "path": "/view", "value": {"b": 1, "a": [2, 3]}}]
    link = view_link("0" * 64, 1, "e" * 64, patch)
    assert link == _sha(b'{"event":"' + b"e" * 64 + b'","patch":[{"op":"add","path":"/view","value":{"a":[2,3],"b":1}}],'
                        b'"prev":"' + b"0" * 64 + b'","seq":1}')
    assert view_link(link, 2, "f" * 64, []) == _sha(
        ('{"event":"' + "f" * 64 + '","patch":[],"prev":"' + link + '","seq":2}').encode())


def test_a_seals_records_digest_is_the_sha256_of_every_record_each_ended_by_a_newline() -> None:
    digest = RecordsDigest()
    assert digest.hexdigest() == _sha(b"")
    digest.add(b'{"record":"game"}')
    digest.add(b'{"record":"event","seq":1}')
    assert digest.hexdigest() == _sha(b'{"record":"game"}\n{"record":"event","seq":1}\n')


def test_a_seat_seal_signs_every_field_but_its_signature_under_its_own_format() -> None:
    """What the server signs of a seal, as the document says: every field but `signature`, canonical, with the
    format `arbitro-seat-copy/2` among them, so that no receipt's signature (same key) passes for a seal; a seal
    whose format or any field is changed does not verify."""
    private = new_private_key()
    fields = {"game": "g", "seat": "red", "seq": 3, "head": "a" * 64, "views": "b" * 64, "state": "c" * 64,
              "records": "d" * 64}
    seal = make_seat_seal(private, **fields)
    assert (seal.format, seal.server_key) == ("arbitro-seat-copy/2", public_key(private))
    signed = json.dumps({**fields, "format": "arbitro-seat-copy/2", "server_key": public_key(private)},
                        sort_keys=True, separators=(",", ":")).encode()
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key(private))).verify(bytes.fromhex(seal.signature), signed)
    assert seal.message() == signed and seal.signed_ok()
    for name, other in (*((k, "x") for k in fields if k != "seq"), ("seq", 4), ("format", "arbitro-receipt/1")):
        forged = msgspec.structs.replace(seal, **{name: other})
        assert not forged.signed_ok(), name
    receipt = make_receipt(private, game="g", cmd=1, cmd_hash="e" * 64, head="a" * 64)
    assert not msgspec.structs.replace(seal, signature=receipt.signature).signed_ok()


def test_a_keys_object_is_made_once_however_many_receipts_it_signs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A submit's receipt reads the server key's public half and signs with it: the key object is made from its bytes
    once per key, not twice per receipt (issue 15: ~0.1 ms of every submit), and still signs the same bytes."""
    made: list[bytes] = []
    real = signing.Ed25519PrivateKey

    class Counting:
        @staticmethod
        def from_private_bytes(raw: bytes) -> Ed25519PrivateKey:
            made.append(raw)
            return real.from_private_bytes(raw)

    private = new_private_key()  # a key no other test has used: nothing of it is kept yet
    monkeypatch.setattr(signing, "Ed25519PrivateKey", Counting)
    receipts = [make_receipt(private, game="g", cmd=cmd, cmd_hash="ab" * 32, head="cd" * 32) for cmd in (1, 2, 3)]
    assert made == [private]
    for r in receipts:
        assert r.server_key == real.from_private_bytes(private).public_key().public_bytes_raw().hex()
        assert signature_ok(r.server_key, r.message(), r.signature)
