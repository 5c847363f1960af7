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
        return Spec.stream(seed_hex, "arbitro-random/1", mix, index)

    @staticmethod
    def stream(key_hex: str, derivation: str, mix: str, index: int) -> Iterator[int]:
        """Step 3's blocks D_b = HMAC(key, derivation|m|i|b), each read as eight 32-bit big-endian integers: the seed
        keys them in arbitro-random/1, the roll's own key K_i in arbitro-random/2 (§R.5 (1))."""
        key, block = bytes.fromhex(key_hex), 0
        while True:
            message = (derivation + "|").encode() + mix.encode() + b"|" + str(index).encode() + b"|" + str(block).encode()
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


class SpecKeyed(Spec):
    """docs/engine-rules.md §R.5, derivation arbitro-random/2 (the numbers are that section's): roll i under its
    own key K_i, and the Merkle tree over the keys that a genesis commits to. The rest is §R.1's (Spec)."""

    @staticmethod
    def key(seed_hex: str, index: int) -> str:  # (1)
        return hmac.new(bytes.fromhex(seed_hex), b"roll-key|" + str(index).encode(), "sha256").hexdigest()

    @staticmethod
    def keyed_integers(key_hex: str, mix: str, index: int) -> Iterator[int]:  # (1)
        return Spec.stream(key_hex, "arbitro-random/2", mix, index)

    @classmethod
    def integers(cls, seed_hex: str, mix: str, index: int) -> Iterator[int]:
        return cls.keyed_integers(cls.key(seed_hex, index), mix, index)

    @staticmethod
    def leaf(index: int, key_hex: str) -> bytes:  # (2)
        return hashlib.sha256(b"leaf|" + str(index).encode() + b"|" + bytes.fromhex(key_hex)).digest()

    @staticmethod
    def node(left: bytes, right: bytes) -> bytes:  # (2)
        return hashlib.sha256(b"node|" + left + right).digest()

    @classmethod
    def root(cls, seed_hex: str, count: int) -> str:  # (2)
        level = [cls.leaf(i, cls.key(seed_hex, i)) for i in range(count)]
        while len(level) > 1:
            level = [cls.node(level[j], level[j + 1]) for j in range(0, len(level), 2)]
        return level[0].hex()

    @classmethod
    def path(cls, seed_hex: str, index: int, count: int) -> list[str]:  # (3)
        level, path, at = [cls.leaf(i, cls.key(seed_hex, i)) for i in range(count)], [], index
        while len(level) > 1:
            path.append(level[at ^ 1].hex())
            level, at = [cls.node(level[j], level[j + 1]) for j in range(0, len(level), 2)], at // 2
        return path

    @classmethod
    def check(cls, root_hex: str, index: int, key_hex: str, path: list[str]) -> bool:  # (3)
        node, at = cls.leaf(index, key_hex), index
        for sibling in path:
            node = cls.node(bytes.fromhex(sibling), node) if at % 2 else cls.node(node, bytes.fromhex(sibling))
            at //= 2
        return node.hex() == root_hex
