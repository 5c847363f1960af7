"""Known-answer vectors for the random source (arbitro §R.1): anyone holding a revealed seed must be able to
recompute every roll, draw and salt from the published derivation alone.

Each vector in random.json is checked twice: against `arbitro.events.random` (the code has not drifted from
the vectors), and against `Spec` (tests/vectors/spec.py), a reimplementation written from
docs/engine-rules.md §R.1 only, with hashlib and hmac (it imports nothing of arbitro), so the document, the
vectors and the code must all say the same thing. Regenerate the file with `python -m tests.vectors.make_random` only when the
derivation is meant to change.
"""

from __future__ import annotations

import ast
import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.sqlite import SQLiteStore

from . import make_random
from .spec import Spec

VECTORS: dict[str, Any] = json.loads(Path(__file__).with_name("random.json").read_text(encoding="utf-8"))
SEEDS = {name: s["hex"] for name, s in VECTORS["seeds"].items()}
MIXES = {k: v for k, v in VECTORS["entropy"]["mixes"].items() if isinstance(v, str)}


def name(vector: dict[str, Any]) -> str:
    return "-".join(str(vector[k]) for k in ("seed", "mix", "index") if k in vector)


def test_the_independent_implementation_imports_nothing_of_arbitro() -> None:
    tree = ast.parse(Path(__file__).with_name("spec.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"__future__", "hashlib", "hmac", "collections.abc"}, imported


def test_the_vectors_file_is_what_its_script_writes_from_the_code() -> None:
    """A hand edit of random.json, or a derivation changed without regenerating it, is caught here."""
    assert Path(make_random.OUT).read_text(encoding="utf-8") == make_random.render()


def test_the_derivation_is_named_and_the_seed_commitment_is_sha256_of_its_bytes() -> None:
    assert VECTORS["derivation"] == rnd.DERIVATION == "arbitro-random/1"
    for s in VECTORS["seeds"].values():
        assert rnd.commitment(s["hex"]) == Spec.commitment(s["hex"]) == s["commitment"]
        assert s["commitment"] != hashlib.sha256(s["hex"].encode()).hexdigest()  # the bytes, not the hex text


@pytest.mark.parametrize("vector", VECTORS["streams"], ids=name)
def test_each_stream_starts_with_block_zero_read_as_big_endian_32_bit_integers(vector: dict[str, Any]) -> None:
    seed, mix = SEEDS[vector["seed"]], MIXES[vector["mix"]]
    assert vector["message"] == f"arbitro-random/1|{mix}|{vector['index']}|0"
    block0 = hmac.new(bytes.fromhex(seed), vector["message"].encode(), "sha256").digest()
    assert [int.from_bytes(block0[i:i + 4], "big") for i in range(0, 32, 4)] == vector["integers"][:8]
    spec = Spec.integers(seed, mix, vector["index"])
    assert [next(spec) for _ in range(16)] == vector["integers"]
    code = rnd._stream(seed, mix, vector["index"])
    assert [next(code) for _ in range(16)] == vector["integers"]


@pytest.mark.parametrize("vector", VECTORS["rolls"], ids=name)
def test_rolls_match_the_vectors_in_the_code_and_in_the_spec(vector: dict[str, Any]) -> None:
    args = (SEEDS[vector["seed"]], MIXES[vector["mix"]], vector["index"], vector["count"], vector["sides"])
    assert list(rnd.roll(*args)) == vector["dice"]
    assert Spec.roll(*args) == vector["dice"]
    assert all(1 <= d <= vector["sides"] for d in vector["dice"]) and len(vector["dice"]) == vector["count"]


def test_the_rejection_bound_is_2_to_the_32_minus_its_remainder_mod_n() -> None:
    for b in VECTORS["bounds"]:
        assert b["bound"] == 2**32 - (2**32 % b["sides"]) and b["bound"] % b["sides"] == 0
    assert {b["sides"]: b["bound"] for b in VECTORS["bounds"]}[6] == 4294967292  # the figure §R.1 prints


@pytest.mark.parametrize("vector", VECTORS["rejections"], ids=lambda v: str(v["sides"]))
def test_a_rejected_integer_is_consumed_and_skipped_and_the_dice_go_on_into_block_one(vector: dict[str, Any]) -> None:
    """Rejected integers are not reduced mod n and not retried: the next die takes the next integer, and
    8 dice that met a rejection need block 1. A derivation that reduced every integer, or re-drew from a fresh
    block, gives other dice."""
    seed, sides = SEEDS[vector["seed"]], vector["sides"]
    args = (seed, MIXES[vector["mix"]], vector["index"], vector["count"], sides)
    assert vector["rejected"] and len(vector["stream"]) > 8
    spec = Spec.integers(seed, "", vector["index"])
    assert [next(spec) for _ in vector["stream"]] == vector["stream"]
    accepted = [x for x in vector["stream"] if x < vector["bound"]]
    assert vector["rejected"] == [x for x in vector["stream"] if x >= vector["bound"]]
    assert vector["dice"] == [x % sides + 1 for x in accepted]
    assert list(rnd.roll(*args)) == Spec.roll(*args) == vector["dice"]
    naive = [x % sides + 1 for x in vector["stream"][:vector["count"]]]
    assert naive != vector["dice"]


def test_the_rejection_vectors_include_one_where_the_remainder_matters_and_one_exactly_at_the_bound() -> None:
    """Some accepted integer is >= n, so `mod n` is exercised and not only the rejection; and some integer
    equals the bound, which is rejected (the bound is the first rejected value, not the last accepted)."""
    assert any(x >= v["sides"] for v in VECTORS["rejections"] for x in v["stream"] if x < v["bound"])
    assert any(v["bound"] in v["rejected"] for v in VECTORS["rejections"])


@pytest.mark.parametrize("vector", VECTORS["draws"], ids=lambda v: f"{name(v)}-k{v['k']}-of-{len(v['population'])}")
def test_draws_match_the_vectors_in_the_code_and_in_the_spec(vector: dict[str, Any]) -> None:
    args = (SEEDS[vector["seed"]], MIXES[vector["mix"]], vector["index"], vector["population"], vector["k"])
    assert list(rnd.draw(*args[:3], tuple(args[3]), args[4])) == vector["drawn"]
    assert Spec.draw(*args) == vector["drawn"]
    assert len(set(vector["drawn"])) == vector["k"] and set(vector["drawn"]) <= set(vector["population"])


def test_a_draw_of_all_items_is_a_shuffle_and_a_draw_is_a_prefix_of_that_shuffle() -> None:
    """Partial Fisher-Yates from the front: a draw of k is the first k of the full shuffle at the same index."""
    full = [v for v in VECTORS["draws"] if v["k"] == len(v["population"]) > 1]
    assert full
    for v in full:
        assert sorted(v["drawn"]) == sorted(v["population"]) and v["drawn"] != v["population"]
        for k in range(len(v["population"]) + 1):
            prefix = rnd.draw(SEEDS[v["seed"]], MIXES[v["mix"]], v["index"], tuple(v["population"]), k)
            assert list(prefix) == v["drawn"][:k]


def test_the_seats_mix_is_sha256_of_mix_seat_and_entropy_in_entropy_seats_order() -> None:
    entropy = VECTORS["entropy"]
    seats = [(s["seat"], s["entropy"]) for s in entropy["seats"]]
    for s in entropy["seats"]:
        assert rnd.entropy_commitment(s["entropy"]) == hashlib.sha256(s["entropy"].encode()).hexdigest() == s["commitment"]
    mixes = entropy["mixes"]
    assert mixes["empty"] == ""
    spec = ""
    for seat, e in seats:
        spec = Spec.mix(spec, seat, e)
    assert rnd.mix_round("", seats) == spec == mixes["two_reveals"]
    assert rnd.mix_round("", list(reversed(seats))) == mixes["two_reveals_other_order"] != mixes["two_reveals"]
    assert rnd.mix_entropy("", *seats[0]) == Spec.mix("", *seats[0]) == mixes["added_once"]
    odd = entropy["non_ascii"]  # the entropy's UTF-8 bytes
    assert rnd.entropy_commitment(odd["entropy"]) == odd["commitment"]
    assert rnd.mix_entropy("", odd["seat"], odd["entropy"]) == Spec.mix("", odd["seat"], odd["entropy"]) == odd["mix_from_empty"]


def test_the_mix_changes_every_roll_at_the_same_index() -> None:
    by_input: dict[tuple[Any, ...], dict[str, list[int]]] = {}
    for v in VECTORS["rolls"]:
        by_input.setdefault((v["seed"], v["index"], v["count"], v["sides"]), {})[v["mix"]] = v["dice"]
    long = [m for key, m in by_input.items() if key[2] * key[3] >= 18]
    assert long and all(len(set(map(tuple, m.values()))) == len(m) for m in long)


def test_salts_are_the_seeds_hmac_of_the_game_and_number_cut_to_32_hex_digits() -> None:
    salts = VECTORS["salts"]
    seed, game = SEEDS[salts["seed"]], salts["game"]
    for e in salts["event"]:
        assert rnd.salt(seed, game, e["seq"]) == Spec.salt(seed, f"salt|{game}|{e['seq']}") == e["salt"]
    for c in salts["command"]:
        assert rnd.command_salt(seed, game, c["cmd"]) == Spec.salt(seed, f"command-salt|{game}|{c['cmd']}") == c["salt"]
    # an event's and a command's salt with the same number differ (separate labels), and so do other seeds'
    assert salts["event"][1]["salt"] != salts["command"][1]["salt"]
    assert rnd.salt(SEEDS["zero"], game, 1) != salts["event"][1]["salt"]
    assert len({e["salt"] for e in salts["event"]}) == len(salts["event"])
    position = salts["position"]
    data = position["bytes_utf8"].encode()
    assert rnd.position_digest(seed, data) == Spec.position(seed, data) == position["digest"]


@pytest.mark.parametrize("key_bytes", [0, 1, 32, 63, 64, 65, 200])
def test_the_hmac_whose_key_blocks_are_hashed_once_is_hmac_sha256_for_any_key_length(key_bytes: int) -> None:
    """rnd._hmac hashes each key's padded blocks once (issue 15) and must still be RFC 2104's HMAC-SHA256: the
    vectors' keys are all 32 bytes; an empty key is all padding, a key longer than the 64-byte block is hashed first,
    one of exactly 64 is not."""
    key = bytes(range(7, 7 + key_bytes))
    for message in (b"", b"salt|g|1", bytes(range(256)) * 3):
        assert rnd._hmac(key.hex(), message) == hmac.new(key, message, hashlib.sha256).digest()
    assert rnd._hmac(key.hex(), b"x") == rnd._hmac(key.hex(), b"x")  # a key's kept blocks are copied, not fed


@pytest.mark.parametrize(("key", "message", "digest"), [
    (b"\x0b" * 20, b"Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
])
def test_the_hmac_gives_rfc_4231s_own_answers(key: bytes, message: bytes, digest: str) -> None:
    """RFC 4231's HMAC-SHA256 test cases 1 and 6 (the second a key longer than the block): rnd._hmac checked against
    the standard's printed answers, not only against the `hmac` module it replaced."""
    assert rnd._hmac(key.hex(), message).hex() == digest


def test_a_game_played_through_the_engine_mixes_rolls_draws_and_salts_as_the_spec_says(tmp_path: Path) -> None:
    """The document describes what the engine does: a protected game whose two seats reveal chosen entropy
    records the spec's mix (in entropy_seats order), and once the game ends and its seed and salt key are revealed
    every roll, draw and event salt of its log is the spec's, recomputed from the log alone."""
    store = SQLiteStore(tmp_path / "arbitro.db")
    try:
        app = Arbitro(store)
        app.create("duel", "standard", ["short"], seat_entropy=True, game_id="g")
        entropy = {"blue": "blue's secret", "red": "red's secret"}
        for phase in ("commit", "reveal"):
            for seat in ("blue", "red"):  # arrival order: blue first
                command = ({"type": "commit_entropy", "commitment": hashlib.sha256(entropy[seat].encode()).hexdigest()}
                           if phase == "commit" else {"type": "reveal_entropy", "entropy": entropy[seat]})
                app.submit("g", seat, command)
        SelfPlay(app, "g", seed="vectors").play(200)
        log = app.log("g", "umpire")
        created = next(e["event"] for e in log if e["type"] == "game_created")
        seed = next(e["event"]["seed"] for e in log if e["type"] == "seed_revealed")
        key = next(e["event"]["salt_key"] for e in log if e["type"] == "salt_key_revealed")
    finally:
        store.close()
    assert Spec.commitment(seed) == created["seed_commitment"]
    assert Spec.commitment(key) == created["salt_key_commitment"] and key != seed
    mix = ""
    for seat in created["entropy_seats"]:
        mix = Spec.mix(mix, seat, entropy[seat])
    assert next(e["event"]["mix"] for e in log if e["type"] == "entropy_mixed") == mix
    randoms = [e for e in log if e["type"] in ("dice_rolled", "items_drawn")]
    assert any(e["type"] == "dice_rolled" for e in randoms) and any(e["type"] == "items_drawn" for e in randoms)
    for e in randoms:
        ev = e["event"]
        if e["type"] == "dice_rolled":
            assert Spec.roll(seed, mix, ev["index"], ev["count"], ev["sides"]) == list(ev["values"]), e["seq"]
        else:
            assert Spec.draw(seed, mix, ev["index"], list(ev["population"]), len(ev["drawn"])) == list(ev["drawn"])
    assert sorted(e["event"]["index"] for e in randoms) == list(range(len(randoms)))
    for e in log:
        assert e["salt"] == Spec.salt(key, f"salt|g|{e['seq']}"), e["seq"]


def test_a_new_seed_is_32_random_bytes_in_lowercase_hex() -> None:
    seeds = {rnd.new_seed() for _ in range(3)}
    assert len(seeds) == 3
    assert all(len(bytes.fromhex(s)) == 32 and s == s.lower() for s in seeds)


def test_a_hosts_own_seed_is_taken_only_in_the_form_a_new_seed_has() -> None:
    assert rnd.checked_seed("0123456789abcdef" * 4) == "0123456789abcdef" * 4


@pytest.mark.parametrize("bad", ["", "ab" * 31, "ab" * 31 + "a", "ab" * 32 + "a", "AB" * 32, "X" * 64, "ab" * 31 + "g1",
                                 "ab" * 31 + " a", "ab" * 33])
def test_a_hosts_seed_in_another_form_is_refused_by_its_length_alone_never_echoed(bad: str) -> None:
    """The seed is the game's secret until its reveal (arbitro §R.1): a refusal names its length, none of its digits."""
    with pytest.raises(ValueError) as refused:
        rnd.checked_seed(bad)
    assert str(refused.value) == f"a seed is 64 lowercase hex digits (32 bytes); the one given has {len(bad)} characters"


def test_salts_of_a_game_held_without_its_seed_are_random_and_as_long_as_derived_ones() -> None:
    """A salt derived from a public value could be recomputed by any seat (arbitro §V.3)."""
    salts = {rnd.salt(None, "g", 1), rnd.salt(None, "g", 1), rnd.command_salt(None, "g", 1)}
    assert len(salts) == 3 and all(len(s) == 32 and int(s, 16) >= 0 for s in salts)


@pytest.mark.parametrize(("count", "sides"), [(0, 6), (-1, 6), (1, 1), (1, 0), (0, 1)])
def test_a_roll_needs_at_least_one_die_of_at_least_two_faces(count: int, sides: int) -> None:
    with pytest.raises(ValueError, match=f"^cannot roll {count} dice of {sides} sides$"):
        rnd.roll(SEEDS["zero"], "", 0, count, sides)


@pytest.mark.parametrize("k", [-1, 4])
def test_a_draw_takes_between_none_and_all_of_the_items(k: int) -> None:
    with pytest.raises(ValueError, match=f"^cannot draw {k} of 3 items$"):
        rnd.draw(SEEDS["zero"], "", 0, ("a", "b", "c"), k)
