"""The game's auditable random source (arbitro §R).

A game's dice come from a secret seed committed at creation (the log stores only its SHA-256), mixed with
the entropy each seat adds, and the roll's index: roll i of a game is a pure function of
(seed, mix at that time, i). Nothing here reads the clock or the `random` module. Once the seed is
revealed anyone can recompute every roll of the log.

The salts that make a redacted event's hash useless for guessing (arbitro §V.3) and the digest of a position file
derive from a second secret, the game's salt key, drawn with the seed and committed beside it, revealed only at
the game's end: a seed revealed earlier (a dispute, a fork that keeps the dice) opens no hidden fact. Games created
before the salt key (their genesis commits none) were salted by their seed, and are still checked that way.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator, Sequence
from functools import lru_cache

DERIVATION = "arbitro-random/1"  # named in docs: the exact derivation anyone can reimplement
# The opt-in derivation with per-roll keys (arbitro §R.5): roll i is keyed by K_i = HMAC(S, "roll-key|i"), and the
# genesis commits to a Merkle root over K_0 .. K_{N-1}, so that one roll is proven by revealing K_i alone.
DERIVATION_KEYED = "arbitro-random/2"
# N, the keys a genesis commits to: 2^12 builds in ~10 ms at creation (2^16, §R.5's first figure, took ~0.15 s), and
# the longest shipped game uses at most 630 indices. A roll at index >= N is refused (a fork commits new keys).
ROLL_KEYS = 2**12


def new_seed() -> str:
    """A fresh secret seed (hex). Only creation reads the OS entropy source; nothing derived from it later
    depends on anything but the seed itself."""
    return secrets.token_hex(32)


def new_salt_key() -> str:
    """A fresh secret salt key (hex), drawn from the same source as the seed and independent of it: nothing about
    the seed tells anything about it."""
    return secrets.token_hex(32)


def checked_seed(seed_hex: str, what: str = "seed") -> str:
    """A seed (or salt key, `what`) the host chose itself (for sample games made again byte for byte): 32 bytes as
    64 lowercase hex digits, exactly the form `new_seed` gives, or ValueError saying what is wrong."""
    if len(seed_hex) != 64 or any(c not in "0123456789abcdef" for c in seed_hex):
        raise ValueError(f"a {what} is 64 lowercase hex digits (32 bytes); the one given has {len(seed_hex)} characters")  # never echoed: it is secret
    return seed_hex


def commitment(seed_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def commits_to(secret: str, committed: object) -> bool:
    """Whether `secret` (a seed or salt key, 64 hex digits) is the one `committed` (a genesis' commitment, or unset)
    commits to; a malformed secret commits to nothing."""
    try:
        return commitment(checked_seed(secret)) == committed
    except ValueError:
        return False


def mix_entropy(mix: str, seat: str, entropy: str) -> str:
    return hashlib.sha256(f"{mix}|{seat}|{entropy}".encode()).hexdigest()


def entropy_commitment(entropy: str) -> str:
    """What a seat commits to before anyone reveals (arbitro §R.2): SHA-256 of its entropy's UTF-8 bytes."""
    return hashlib.sha256(entropy.encode()).hexdigest()


def mix_round(mix: str, revealed: Sequence[tuple[str, str]]) -> str:
    """The mix after a commit-reveal round: each (seat, entropy) mixed in, in the order given (the order of
    the game's `entropy_seats`, never the order the reveals arrived in)."""
    for seat, entropy in revealed:
        mix = mix_entropy(mix, seat, entropy)
    return mix


def _stream(seed_hex: str, mix: str, index: int, derivation: str = DERIVATION) -> Iterator[int]:
    """An endless stream of 32-bit unsigned ints for one random index: keyed by the seed (arbitro-random/1), or by
    the index's own key derived from it (arbitro-random/2, arbitro §R.5)."""
    if derivation == DERIVATION_KEYED:
        return _keyed_stream(roll_key(seed_hex, index), mix, index)
    if derivation != DERIVATION:
        raise ValueError(f"no such derivation {derivation!r}")
    return _blocks(seed_hex, f"{DERIVATION}|{mix}|{index}")


def _keyed_stream(key_hex: str, mix: str, index: int) -> Iterator[int]:
    """Roll `index`'s stream under its own key K_i (arbitro-random/2): what a proof of that roll lets anyone
    recompute, without the seed."""
    return _blocks(key_hex, f"{DERIVATION_KEYED}|{mix}|{index}")


def _blocks(key_hex: str, prefix: str) -> Iterator[int]:
    block = 0
    while True:
        digest = _hmac(key_hex, f"{prefix}|{block}".encode())
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i : i + 4], "big")
        block += 1


def _uniform(stream: Iterator[int], n: int) -> int:
    """An unbiased integer in [0, n) by rejection sampling."""
    limit = (1 << 32) - ((1 << 32) % n)
    while True:
        value = next(stream)
        if value < limit:
            return value % n


def roll(seed_hex: str, mix: str, index: int, count: int, sides: int, derivation: str = DERIVATION) -> tuple[int, ...]:
    """`count` dice of `sides` faces (1..sides) for random index `index`."""
    return _dice(_stream(seed_hex, mix, index, derivation), count, sides)


def draw(seed_hex: str, mix: str, index: int, population: Sequence[str], k: int,
         derivation: str = DERIVATION) -> tuple[str, ...]:
    """`k` items drawn without replacement, in draw order (k == len(population) is a shuffle)."""
    return _items(_stream(seed_hex, mix, index, derivation), population, k)


def keyed_roll(key_hex: str, mix: str, index: int, count: int, sides: int) -> tuple[int, ...]:
    """Roll `index` of an arbitro-random/2 game recomputed from its key K_i alone (a proof, arbitro §R.5)."""
    return _dice(_keyed_stream(key_hex, mix, index), count, sides)


def keyed_draw(key_hex: str, mix: str, index: int, population: Sequence[str], k: int) -> tuple[str, ...]:
    """Draw `index` of an arbitro-random/2 game recomputed from its key K_i alone (a proof, arbitro §R.5)."""
    return _items(_keyed_stream(key_hex, mix, index), population, k)


def _dice(stream: Iterator[int], count: int, sides: int) -> tuple[int, ...]:
    if count < 1 or sides < 2:
        raise ValueError(f"cannot roll {count} dice of {sides} sides")
    return tuple(_uniform(stream, sides) + 1 for _ in range(count))


def _items(stream: Iterator[int], population: Sequence[str], k: int) -> tuple[str, ...]:
    if not 0 <= k <= len(population):
        raise ValueError(f"cannot draw {k} of {len(population)} items")
    items = list(population)
    for i in range(k):  # partial Fisher-Yates
        j = i + _uniform(stream, len(items) - i)
        items[i], items[j] = items[j], items[i]
    return tuple(items[:k])


# --- per-roll keys and their Merkle tree (arbitro-random/2, arbitro §R.5) -----------------------------------------
def roll_key(seed_hex: str, index: int) -> str:
    """K_i = HMAC(S, "roll-key|i"), hex: the key of roll `index` alone. HMAC is a pseudo-random function, so K_i
    tells nothing of the seed or of any other roll's key."""
    return _hmac(seed_hex, f"roll-key|{index}".encode()).hex()


def _leaf(index: int, key_hex: str) -> bytes:
    return hashlib.sha256(f"leaf|{index}|".encode() + bytes.fromhex(key_hex)).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"node|" + left + right).digest()


def _levels(seed_hex: str, count: int) -> list[list[bytes]]:
    """The tree over K_0 .. K_{count-1}, leaves first, root last (`count` a power of two)."""
    if count < 1 or count & (count - 1):
        raise ValueError(f"a roll-key tree has a power of two of leaves, not {count}")
    levels = [[_leaf(i, roll_key(seed_hex, i)) for i in range(count)]]
    while len(levels[-1]) > 1:
        below = levels[-1]
        levels.append([_node(below[j], below[j + 1]) for j in range(0, len(below), 2)])
    return levels


def roll_key_root(seed_hex: str, count: int = ROLL_KEYS) -> str:
    """The Merkle root over the first `count` roll keys, which the genesis commits to before any entropy is mixed
    in, so that no key can be chosen once the mix is known (arbitro §R.5 (2))."""
    return _levels(seed_hex, count)[-1][0].hex()


def roll_key_path(seed_hex: str, index: int, count: int = ROLL_KEYS) -> tuple[str, ...]:
    """The Merkle path of K_index: each level's sibling, from the leaves up (log2 `count` hashes, hex)."""
    if not 0 <= index < count:
        raise ValueError(f"no roll key {index}: the tree holds 0 to {count - 1}")
    return tuple(level[(index >> depth) ^ 1].hex() for depth, level in enumerate(_levels(seed_hex, count)[:-1]))


def proves_key(root_hex: str, count: int, index: int, key_hex: str, path: Sequence[str]) -> bool:
    """Whether `key_hex` is K_index of the tree `root_hex` commits to, by its `path` (roll_key_path): the check
    anyone can make of a proven roll without the seed. A malformed key, path or index proves nothing."""
    if not 0 <= index < count or len(path) != count.bit_length() - 1 or not all(map(_is_hash, (key_hex, *path))):
        return False
    node = _leaf(index, key_hex)
    for depth, sibling in enumerate(path):
        node = _node(bytes.fromhex(sibling), node) if (index >> depth) & 1 else _node(node, bytes.fromhex(sibling))
    return node.hex() == root_hex


def _is_hash(text: object) -> bool:
    return isinstance(text, str) and len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def salt(key_hex: str | None, game_id: str, seq: int) -> str:
    """Per-event salt: makes a redacted event's hash useless for guessing its hidden content. Derived from the
    game's secret salt key (a game older than the salt key: its seed), so verification recomputes it once the key
    is revealed at the game's end. A game held without its key (an import) gets a fresh random salt instead: one
    derived from a public value could be recomputed by any seat."""
    return _salt(key_hex, f"salt|{game_id}|{seq}")


def command_salt(key_hex: str | None, game_id: str, cmd: int) -> str:
    """Per-command salt, stored in the command record so that its hash (`cmd_hash`, served to every seat) cannot be
    matched against guessed commands (arbitro §V.3); only the sender and the umpire are served the record. Keyed
    as `salt` is."""
    return _salt(key_hex, f"command-salt|{game_id}|{cmd}")


def _salt(key_hex: str | None, label: str) -> str:
    if key_hex is None:
        return secrets.token_hex(16)
    return _hmac(key_hex, label.encode()).hex()[:32]


def _hmac(key_hex: str, message: bytes) -> bytes:
    """HMAC-SHA256 of `message` under the key `key_hex` (hex): the same bytes as `hmac.new(bytes.fromhex(key_hex),
    message, hashlib.sha256).digest()` (RFC 2104: SHA-256(key ^ opad || SHA-256(key ^ ipad || message))), its two
    padded key blocks hashed once per key (`_padded`) rather than once per message: a game's salts, dice and roll
    keys are thousands of HMACs under one key, and the padding's two hashes were half of each (issue 15: verify's
    salt check, ~2 % of an Arrivano verify)."""
    inner_pad, outer_pad = _padded(key_hex)
    inner, outer = inner_pad.copy(), outer_pad.copy()
    inner.update(message)
    outer.update(inner.digest())
    return outer.digest()


@lru_cache(maxsize=16)
def _padded(key_hex: str) -> tuple[hashlib._Hash, hashlib._Hash]:
    """SHA-256 fed the key's block XOR ipad, and XOR opad (RFC 2104; a key longer than SHA-256's 64-byte block is
    hashed first, as `hmac` does), for `_hmac` to copy. Kept for the few keys in use (a game's seed and salt key):
    a process that holds a key already holds its secret; nothing kept is served."""
    key = bytes.fromhex(key_hex)
    block = (hashlib.sha256(key).digest() if len(key) > _BLOCK else key).ljust(_BLOCK, b"\0")
    return hashlib.sha256(block.translate(_IPAD)), hashlib.sha256(block.translate(_OPAD))


_BLOCK = hashlib.sha256().block_size
_IPAD, _OPAD = bytes(b ^ 0x36 for b in range(256)), bytes(b ^ 0x5C for b in range(256))  # RFC 2104's XORs, as tables


def position_digest(key_hex: str, position: bytes) -> str:
    """The digest of the position file a game starts from (`origin.position`), keyed by the secret salt key (an
    older game's: its seed): the file holds every hidden face, so a seat must not be able to test candidate
    positions against it (arbitro §V.3); anyone can check a file against it once the key is revealed."""
    return _hmac(key_hex, b"position|" + position).hex()
