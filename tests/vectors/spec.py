"""An independent implementation of arbitro's random source, written from docs/engine-rules.md §R.1 alone
(the numbers below are the document's steps), for tests/vectors/test_random.py to check the vectors and the
code against. It imports nothing of arbitro: a third party's reimplementation would look like this."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator


class Spec:
    """docs/engine-rules.md §R.1, step by step (the numbers are the document's)."""

    @staticmethod
    def commitment(seed_hex: str) -> str:  # 2.
        return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()

    @staticmethod
    def integers(seed_hex: str, mix: str, index: int) -> Iterator[int]:  # 3.
        key, block = bytes.fromhex(seed_hex), 0
        while True:
            message = "arbitro-random/1|".encode() + mix.encode() + b"|" + str(index).encode() + b"|" + str(block).encode()
            digest = hmac.new(key, message, "sha256").digest()
            for offset in range(0, 32, 4):
                yield int.from_bytes(digest[offset:offset + 4], "big")
            block += 1

    @staticmethod
    def below(stream: Iterator[int], n: int) -> int:  # 4.
        bound = 2**32 - (2**32 % n)
        for x in stream:
            if x < bound:
                return x % n
        raise AssertionError("the stream is endless")

    @classmethod
    def roll(cls, seed_hex: str, mix: str, index: int, count: int, sides: int) -> list[int]:  # 5.
        stream = cls.integers(seed_hex, mix, index)
        return [cls.below(stream, sides) + 1 for _ in range(count)]

    @classmethod
    def draw(cls, seed_hex: str, mix: str, index: int, population: list[str], k: int) -> list[str]:  # 6.
        items, stream = list(population), cls.integers(seed_hex, mix, index)
        for j in range(k):
            r = j + cls.below(stream, len(items) - j)
            items[j], items[r] = items[r], items[j]
        return items[:k]

    @staticmethod
    def mix(m: str, seat: str, entropy: str) -> str:  # 7.
        return hashlib.sha256(m.encode() + b"|" + seat.encode() + b"|" + entropy.encode()).hexdigest()

    @staticmethod
    def salt(key_hex: str, label: str) -> str:  # 8. keyed by the salt key K (an older game's: the seed S)
        return hmac.new(bytes.fromhex(key_hex), label.encode(), "sha256").hexdigest()[:32]

    @staticmethod
    def position(key_hex: str, data: bytes) -> str:  # 8.
        return hmac.new(bytes.fromhex(key_hex), b"position|" + data, "sha256").hexdigest()
