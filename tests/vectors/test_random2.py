"""Known-answer vectors for derivation arbitro-random/2 (docs/engine-rules.md §R.5: per-roll keys and the Merkle
tree over them), beside random.json's for arbitro-random/1. Each vector in random2.json is checked against
`arbitro.events.random` and against SpecKeyed (tests/vectors/spec.py), written from the document alone."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import pytest

from arbitro.events import random as rnd

from . import make_random2
from .spec import Spec, SpecKeyed

VECTORS: dict[str, Any] = json.loads(Path(__file__).with_name("random2.json").read_text(encoding="utf-8"))
V1: dict[str, Any] = json.loads(Path(__file__).with_name("random.json").read_text(encoding="utf-8"))
SEEDS = {name: s["hex"] for name, s in V1["seeds"].items()}
MIXES = {k: v for k, v in V1["entropy"]["mixes"].items() if isinstance(v, str)}


def name(vector: dict[str, Any]) -> str:
    return "-".join(str(vector[k]) for k in ("seed", "mix", "index", "count") if k in vector)


def test_the_vectors_file_is_what_its_script_writes_from_the_code() -> None:
    assert Path(make_random2.OUT).read_text(encoding="utf-8") == make_random2.render()


def test_the_derivation_is_named_and_the_default_stays_arbitro_random_1() -> None:
    assert VECTORS["derivation"] == rnd.DERIVATION_KEYED == "arbitro-random/2"
    assert rnd.DERIVATION == V1["derivation"] == "arbitro-random/1"
    assert VECTORS["roll_keys"] == rnd.ROLL_KEYS == 4096


@pytest.mark.parametrize("vector", VECTORS["keys"], ids=name)
def test_each_roll_key_is_the_seeds_hmac_of_roll_key_and_its_index(vector: dict[str, Any]) -> None:
    seed = SEEDS[vector["seed"]]
    assert vector["message"] == f"roll-key|{vector['index']}"
    assert hmac.new(bytes.fromhex(seed), vector["message"].encode(), "sha256").hexdigest() == vector["key"]
    assert rnd.roll_key(seed, vector["index"]) == SpecKeyed.key(seed, vector["index"]) == vector["key"]


def test_the_small_tree_is_leaf_and_node_hashes_level_by_level() -> None:
    tree = VECTORS["small_tree"]
    seed, count = SEEDS[tree["seed"]], tree["count"]
    leaves = tree["levels"][0]
    for i, leaf in enumerate(leaves):
        key = bytes.fromhex(rnd.roll_key(seed, i))
        assert hashlib.sha256(f"leaf|{i}|".encode() + key).hexdigest() == leaf  # the key's bytes, not its hex
    for below, above in zip(tree["levels"], tree["levels"][1:]):
        assert above == [hashlib.sha256(b"node|" + bytes.fromhex(below[j]) + bytes.fromhex(below[j + 1])).hexdigest()
                         for j in range(0, len(below), 2)]
    assert tree["levels"][-1] == [rnd.roll_key_root(seed, count)] == [SpecKeyed.root(seed, count)]
    for i, path in tree["paths"].items():
        assert path == SpecKeyed.path(seed, int(i), count)
        assert rnd.proves_key(tree["levels"][-1][0], count, int(i), rnd.roll_key(seed, int(i)), path)


@pytest.mark.parametrize("vector", VECTORS["roots"], ids=name)
def test_roots_match_the_code_and_the_spec(vector: dict[str, Any]) -> None:
    seed = SEEDS[vector["seed"]]
    assert rnd.roll_key_root(seed, vector["count"]) == SpecKeyed.root(seed, vector["count"]) == vector["root"]


@pytest.mark.parametrize("vector", VECTORS["paths"], ids=name)
def test_a_path_proves_its_key_at_its_index_and_nothing_else(vector: dict[str, Any]) -> None:
    seed, index, count = SEEDS[vector["seed"]], vector["index"], vector["count"]
    root = next(r["root"] for r in VECTORS["roots"] if r["seed"] == vector["seed"] and r["count"] == count)
    key, path = vector["key"], vector["path"]
    assert len(path) == 12 and path == list(rnd.roll_key_path(seed, index, count))
    assert rnd.proves_key(root, count, index, key, path) and SpecKeyed.check(root, index, key, path)
    other = index ^ 1  # the sibling leaf: the same path, another index
    assert not rnd.proves_key(root, count, other, key, path) and not SpecKeyed.check(root, other, key, path)
    assert not rnd.proves_key(root, count, index, rnd.roll_key(seed, other), path)  # another index's key
    forged = [path[0][:-1] + ("0" if path[0][-1] != "0" else "1"), *path[1:]]
    assert not rnd.proves_key(root, count, index, key, forged)  # one sibling changed
    assert not rnd.proves_key(root, count, index, key, path[:-1])  # a level short
    assert not rnd.proves_key(root, count, index + count, key, path)  # past the committed keys


@pytest.mark.parametrize("vector", VECTORS["streams"], ids=name)
def test_each_keyed_stream_is_hmac_under_k_i_of_the_v2_message(vector: dict[str, Any]) -> None:
    seed, mix, index = SEEDS[vector["seed"]], MIXES[vector["mix"]], vector["index"]
    assert vector["message"] == f"arbitro-random/2|{mix}|{index}|0"
    block0 = hmac.new(bytes.fromhex(rnd.roll_key(seed, index)), vector["message"].encode(), "sha256").digest()
    assert [int.from_bytes(block0[i:i + 4], "big") for i in range(0, 32, 4)] == vector["integers"][:8]
    spec = SpecKeyed.integers(seed, mix, index)
    assert [next(spec) for _ in range(16)] == vector["integers"]
    v1 = Spec.integers(seed, mix, index)
    assert [next(v1) for _ in range(16)] != vector["integers"]  # another derivation, other integers


@pytest.mark.parametrize("vector", VECTORS["rolls"], ids=name)
def test_rolls_match_the_code_the_spec_and_the_key_alone(vector: dict[str, Any]) -> None:
    seed, mix, index = SEEDS[vector["seed"]], MIXES[vector["mix"]], vector["index"]
    args = (vector["count"], vector["sides"])
    assert list(rnd.roll(seed, mix, index, *args, rnd.DERIVATION_KEYED)) == vector["dice"]
    assert SpecKeyed.roll(seed, mix, index, *args) == vector["dice"]
    assert list(rnd.keyed_roll(rnd.roll_key(seed, index), mix, index, *args)) == vector["dice"]  # without the seed


@pytest.mark.parametrize("vector", VECTORS["draws"], ids=lambda v: f"{name(v)}-k{v['k']}")
def test_draws_match_the_code_the_spec_and_the_key_alone(vector: dict[str, Any]) -> None:
    seed, mix, index, k = SEEDS[vector["seed"]], MIXES[vector["mix"]], vector["index"], vector["k"]
    population = tuple(vector["population"])
    assert list(rnd.draw(seed, mix, index, population, k, rnd.DERIVATION_KEYED)) == vector["drawn"]
    assert SpecKeyed.draw(seed, mix, index, list(population), k) == vector["drawn"]
    assert list(rnd.keyed_draw(rnd.roll_key(seed, index), mix, index, population, k)) == vector["drawn"]


def test_malformed_proofs_prove_nothing_and_raise_nothing() -> None:
    """A proof read from a file may hold anything: a key or sibling that is not 64 lowercase hex digits (upper case,
    a non-hex letter, short, not text) is no proof, said as False, never an exception (mutation survivors, keys)."""
    seed, index = SEEDS["hashed"], 630
    root, key, path = rnd.roll_key_root(seed), rnd.roll_key(seed, index), list(rnd.roll_key_path(seed, index))
    assert rnd.proves_key(root, rnd.ROLL_KEYS, index, key, path)
    for bad_key in (key.upper(), "X" * 64, key[:62], 5, None):
        assert not rnd.proves_key(root, rnd.ROLL_KEYS, index, bad_key, path)  # type: ignore[arg-type]
    for bad in ("zz" * 32, path[0].upper(), 7):
        assert not rnd.proves_key(root, rnd.ROLL_KEYS, index, key, [bad, *path[1:]])  # type: ignore[list-item]


def test_a_tree_is_of_a_power_of_two_of_keys_and_a_path_of_a_key_it_holds() -> None:
    seed = SEEDS["zero"]
    with pytest.raises(ValueError, match="a roll-key tree has a power of two of leaves, not 6"):
        rnd.roll_key_root(seed, 6)
    with pytest.raises(ValueError, match=r"no roll key 8: the tree holds 0 to 7"):
        rnd.roll_key_path(seed, 8, 8)
    with pytest.raises(ValueError, match="no such derivation 'arbitro-random/9'"):
        rnd.roll(seed, "", 0, 1, 6, "arbitro-random/9")
