"""Writes tests/vectors/random.json: known-answer vectors for the random source (arbitro §R.1).

    python -m tests.vectors.make_random          # rewrite the file
    python -m tests.vectors.make_random --check  # exit 1 if the file differs from what the code gives now

The inputs are chosen here; the outputs come from `arbitro.events.random`. The file is checked in, so a change
to the derivation shows as a changed file (and fails tests/vectors/test_random.py, which also recomputes every
vector with an independent implementation written from docs/engine-rules.md §R.1). Only regenerate it when
the derivation is meant to change, and then bump `arbitro-random/1`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from arbitro.events import random as rnd

OUT = Path(__file__).with_name("random.json")

# Seeds: all zero bytes, 00 01 ... 1f, and a hash (so that no seed is "special").
SEEDS = {
    "zero": "00" * 32,
    "counting": bytes(range(32)).hex(),
    "hashed": hashlib.sha256(b"arbitro known-answer seed").hexdigest(),
}
ENTROPY = (("french", "9f1c2e7a4b5d6e8f0a1b2c3d4e5f6a7b"), ("austrian", "correct horse battery staple"))
NON_ASCII_ENTROPY = ("austrian", "Mélas à Alessandria")
# Sides whose rejection bound is far below 2^32, so that rejections happen within a few integers (for a d6 one
# integer in 2^30 is rejected: no vector can be found by search): 2^31+1 rejects x >= 2^31+1 (about half),
# 3*2^30 rejects x >= 3*2^30 (a quarter), 2^30+1 rejects x >= 3*2^30+3 and reduces the rest mod n.
BIG_SIDES = (2**31 + 1, 3 * 2**30, 2**30 + 1)
BOUNDS = (1, 2, 6, 10, 100, 2**30 + 1, 2**31 + 1, 3 * 2**30, 2**32 - 1)
POPULATION = ("a", "b", "c", "d", "e", "f", "g", "h", "i", "j")


def stream_head(seed: str, mix: str, index: int, count: int) -> list[int]:
    stream = rnd._stream(seed, mix, index)
    return [next(stream) for _ in range(count)]


def bound(n: int) -> int:
    return (1 << 32) - ((1 << 32) % n)


def mixes() -> dict[str, str]:
    two = rnd.mix_round("", ENTROPY)
    return {"empty": "", "two_reveals": two, "added_once": rnd.mix_entropy("", *ENTROPY[0])}


def roll_vectors(all_mixes: dict[str, str]) -> list[dict[str, Any]]:
    out = []
    for seed_name, seed in SEEDS.items():
        for mix_name, mix in all_mixes.items():
            for index, count, sides in ((0, 1, 6), (1, 2, 6), (7, 3, 10), (12345, 9, 6), (0, 1, 2), (3, 4, 100)):
                out.append({"seed": seed_name, "mix": mix_name, "index": index, "count": count, "sides": sides,
                            "dice": list(rnd.roll(seed, mix, index, count, sides))})
    return out


def consumed_by(seed: str, index: int, count: int, limit: int) -> list[int]:
    """The integers `count` dice take from the stream, rejected ones included."""
    consumed, taken = [], 0
    stream = rnd._stream(seed, "", index)
    while taken < count:
        x = next(stream)
        consumed.append(x)
        taken += x < limit
    return consumed


def rejection_vectors() -> list[dict[str, Any]]:
    """Rolls of 8 huge dice where integers are rejected, so that the dice reach into block 1: for each size the
    first such index, with the integers it consumed and which of them were rejected."""
    out = []
    seed = SEEDS["counting"]
    # A die whose bound is exactly an integer of the stream: the first one above 2^31, x, is the bound of a die of
    # x faces (2^32 mod x = 2^32 - x), so it is rejected although it is not above the bound.
    at_bound = next(x for x in stream_head(seed, "", 0, 16) if x > 2**31)
    for sides in (*BIG_SIDES, at_bound):
        limit, count = bound(sides), 8
        index = 0
        while True:  # the first index whose 8 dice reject an integer and so reach into block 1
            consumed = consumed_by(seed, index, count, limit)
            if len(consumed) > 8:
                break
            index += 1
        dice = rnd.roll(seed, "", index, count, sides)
        out.append({"seed": "counting", "mix": "empty", "index": index, "count": count, "sides": sides,
                    "bound": limit, "stream": consumed, "rejected": [x for x in consumed if x >= limit],
                    "dice": list(dice)})
    return out


def draw_vectors(all_mixes: dict[str, str]) -> list[dict[str, Any]]:
    out = []
    for seed_name, seed in SEEDS.items():
        for mix_name in ("empty", "two_reveals"):
            mix = all_mixes[mix_name]
            for index, k in ((0, 0), (0, 1), (2, 3), (5, len(POPULATION)), (40, len(POPULATION) - 1)):
                out.append({"seed": seed_name, "mix": mix_name, "index": index, "population": list(POPULATION),
                            "k": k, "drawn": list(rnd.draw(seed, mix, index, POPULATION, k))})
    # one item (u(1) consumes an integer and always gives 0), and a population whose order matters
    out.append({"seed": "hashed", "mix": "empty", "index": 9, "population": ["only"], "k": 1,
                "drawn": list(rnd.draw(SEEDS["hashed"], "", 9, ("only",), 1))})
    reordered = tuple(reversed(POPULATION))
    out.append({"seed": "hashed", "mix": "empty", "index": 5, "population": list(reordered), "k": len(reordered),
                "drawn": list(rnd.draw(SEEDS["hashed"], "", 5, reordered, len(reordered)))})
    return out


def build() -> dict[str, Any]:
    all_mixes = mixes()
    seed = SEEDS["hashed"]
    return {
        "about": "Known-answer vectors for arbitro's random source, derivation arbitro-random/1 "
                 "(docs/engine-rules.md §R.1). Generated by `python -m tests.vectors.make_random`; do not edit.",
        "derivation": rnd.DERIVATION,
        "seeds": {name: {"hex": s, "commitment": rnd.commitment(s)} for name, s in SEEDS.items()},
        "entropy": {
            "seats": [{"seat": s, "entropy": e, "commitment": rnd.entropy_commitment(e)} for s, e in ENTROPY],
            "non_ascii": {"seat": NON_ASCII_ENTROPY[0], "entropy": NON_ASCII_ENTROPY[1],
                          "commitment": rnd.entropy_commitment(NON_ASCII_ENTROPY[1]),
                          "mix_from_empty": rnd.mix_entropy("", *NON_ASCII_ENTROPY)},
            "mixes": {**all_mixes, "two_reveals_from": [s for s, _ in ENTROPY],
                      "added_once_from": ENTROPY[0][0],
                      # the order of entropy_seats, never of arrival: the other order gives another mix
                      "two_reveals_other_order": rnd.mix_round("", tuple(reversed(ENTROPY)))},
        },
        "streams": [{"seed": name, "mix": mix_name, "index": index, "block": 0,
                     "message": f"{rnd.DERIVATION}|{all_mixes[mix_name]}|{index}|0",
                     "integers": stream_head(SEEDS[name], all_mixes[mix_name], index, 16)}
                    for name in SEEDS for mix_name in ("empty", "two_reveals") for index in (0, 1, 10)],
        "bounds": [{"sides": n, "bound": bound(n)} for n in BOUNDS],
        "rolls": roll_vectors(all_mixes),
        "rejections": rejection_vectors(),
        "draws": draw_vectors(all_mixes),
        "salts": {
            "seed": "hashed", "game": "marengo-1800",
            "event": [{"seq": q, "salt": rnd.salt(seed, "marengo-1800", q)} for q in (0, 1, 17, 1000)],
            "command": [{"cmd": c, "salt": rnd.command_salt(seed, "marengo-1800", c)} for c in (0, 1, 17)],
            "position": {"bytes_utf8": '{"units":[]}', "digest": rnd.position_digest(seed, b'{"units":[]}')},
        },
    }


def render() -> str:
    return rendered(build())


def rendered(vectors: dict[str, Any]) -> str:
    """A vectors file's text: one form for every vectors file this package writes."""
    return json.dumps(vectors, indent=1, ensure_ascii=False) + "\n"


def write_or_check(out: Path, text: str, argv: list[str]) -> int:
    """`out` rewritten with `text`, or with --check in `argv` compared with it (exit 1 where it differs)."""
    if "--check" in argv:
        same = out.exists() and out.read_text(encoding="utf-8") == text
        print(f"{out}: {'up to date' if same else 'differs from what the code gives now'}")
        return 0 if same else 1
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")
    return 0


def main(argv: list[str]) -> int:
    return write_or_check(OUT, render(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
