"""Where `decide` gets its dice and draws: generated from the committed seed, entered by the transcribing
seat (a game played on a table), or read back from a recorded log (verification before the seed is out)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Literal, Protocol

import msgspec

from arbitro.events import core
from arbitro.events import random as derivation
from arbitro.events.records import EventBody
from arbitro.projections.game import CoreState

Source = Literal["seed", "entered"]


class NeedRandom(Exception):
    """A transcribed game needs a roll or draw that has not been entered yet."""

    def __init__(self, kind: Literal["roll", "draw"], count: int, sides: int, population: tuple[str, ...], purpose: str) -> None:
        super().__init__(f"{kind} needed: {purpose}")
        self.kind, self.count, self.sides, self.population, self.purpose = kind, count, sides, population, purpose
        self.about: tuple[str, ...] = ()  # the places the roll concerns (set by Decision.roll; arbitro §V.4)


class BadEntry(ValueError):
    """Entered values that cannot be the roll or draw asked for."""


class DiceUnavailable(Exception):
    """No fair roll can be made here: the seed is public, or this database does not hold it."""

    def __init__(self, message: str, rule: str, *, fork_hint: bool = False) -> None:
        super().__init__(message)
        self.rule = rule
        self.fork_hint = fork_hint  # the way on is a fork from the game's head, which the refusal should name

    def explained(self, game_id: str, head: int) -> str:
        """The refusal as a player reads it: with the fork command that goes on from the game's last event (the
        head the refused command was judged at, not an event of the command itself)."""
        return f"{self}: arbitro fork {game_id} --at {head}" if self.fork_hint else str(self)


def _refuse_public_seed(core: CoreState) -> None:
    if core.seed is not None:  # arbitro §R.3: anyone could predict every later roll
        raise DiceUnavailable("the dice seed was revealed, so further rolls would be predictable: continue in a "
                              "fork, which draws a new seed", "arbitro §R.3", fork_hint=True)


class Supply(Protocol):
    def roll(self, core: CoreState, index: int, count: int, sides: int, purpose: str) -> tuple[tuple[int, ...], Source]: ...
    def draw(self, core: CoreState, index: int, population: tuple[str, ...], k: int, purpose: str) -> tuple[tuple[str, ...], Source]: ...


def roll_keys(created: core.GameCreated) -> int | None:
    """How many per-roll keys the game's genesis commits to (arbitro-random/2, §R.5); None: arbitro-random/1."""
    return created.roll_keys if created.provable() and isinstance(created.roll_keys, int) else None


MOST_ROLL_KEYS = 2**16  # the largest tree a genesis may name and still be checked (§R.5's design figure)


def commits_to_keys(seed: str, created: core.GameCreated) -> bool:
    """Whether a provable game's genesis commits to `seed`'s roll keys: its root is the tree's over the keys it
    counts (arbitro §R.5). A count that is no power of two, or past MOST_ROLL_KEYS, commits to nothing."""
    keys = roll_keys(created)
    if keys is None or keys > MOST_ROLL_KEYS:
        return False
    try:
        return derivation.roll_key_root(seed, keys) == created.roll_key_root
    except ValueError:
        return False


def _refuse_past_keys(keys: int | None, index: int) -> None:
    if keys is not None and index >= keys:  # a key made now could be chosen knowing the mix (arbitro §R.5 (4))
        raise DiceUnavailable(
            f"this game's genesis commits to per-roll keys for random indices 0 to {keys - 1} ({derivation.DERIVATION_KEYED}), "
            f"and this roll would be index {index}: a key committed now could be chosen knowing the seats' entropy, "
            "so no roll is made past them; continue in a fork, which draws a new seed and commits new keys",
            "arbitro §R.5", fork_hint=True)


class SeededSupply:
    """Rolls derived from the seed: by arbitro-random/1, or, given `keys` (a provable game's count of committed roll
    keys), by arbitro-random/2, each roll under its own key (arbitro §R.5)."""

    def __init__(self, seed: str, keys: int | None = None) -> None:
        self.seed = seed
        self.keys = keys
        self.derivation = derivation.DERIVATION if keys is None else derivation.DERIVATION_KEYED

    def roll(self, core: CoreState, index: int, count: int, sides: int, purpose: str) -> tuple[tuple[int, ...], Source]:
        _refuse_public_seed(core)
        _refuse_past_keys(self.keys, index)
        return derivation.roll(self.seed, core.mix, index, count, sides, self.derivation), "seed"

    def draw(self, core: CoreState, index: int, population: tuple[str, ...], k: int, purpose: str) -> tuple[tuple[str, ...], Source]:
        _refuse_public_seed(core)
        _refuse_past_keys(self.keys, index)
        return derivation.draw(self.seed, core.mix, index, population, k, self.derivation), "seed"


class NoSeedSupply:
    """A game imported without its seed: everything that rolls nothing can still be adjudicated."""

    def __init__(self, game_id: str) -> None:
        self.message = (f"game {game_id} was imported without its seed, so this database cannot roll its dice; "
                        "adjudicate it where it was created, or import an export made with --with-seed")

    def roll(self, core: CoreState, index: int, count: int, sides: int, purpose: str) -> tuple[tuple[int, ...], Source]:
        raise DiceUnavailable(self.message, "arbitro §R.1")

    def draw(self, core: CoreState, index: int, population: tuple[str, ...], k: int, purpose: str) -> tuple[tuple[str, ...], Source]:
        raise DiceUnavailable(self.message, "arbitro §R.1")


class EnteredSupply:
    """Values typed in by the transcribing seat, consumed in order; asks for more when they run out."""

    def __init__(self, entries: tuple[tuple[str, ...], ...]) -> None:
        self.entries = list(entries)
        self.used = 0

    def _next(self) -> tuple[str, ...] | None:
        if self.used >= len(self.entries):
            return None
        self.used += 1
        return self.entries[self.used - 1]

    def roll(self, core: CoreState, index: int, count: int, sides: int, purpose: str) -> tuple[tuple[int, ...], Source]:
        entry = self._next()
        if entry is None:
            raise NeedRandom("roll", count, sides, (), purpose)
        if len(entry) != count or not all(v.isdigit() and 1 <= int(v) <= sides for v in entry):
            raise BadEntry(f"{purpose}: enter {count} value(s) from 1 to {sides}, got {list(entry)}")
        return tuple(int(v) for v in entry), "entered"

    def draw(self, core: CoreState, index: int, population: tuple[str, ...], k: int, purpose: str) -> tuple[tuple[str, ...], Source]:
        entry = self._next()
        if entry is None:
            raise NeedRandom("draw", k, 0, population, purpose)
        if len(entry) != k or len(set(entry)) != k or not set(entry) <= set(population):
            raise BadEntry(f"{purpose}: enter {k} distinct item(s) from {list(population)}, got {list(entry)}")
        return tuple(entry), "entered"


UNRECORDED = "a roll the log does not record"


def unrecorded(purpose: str) -> str:
    """What a roll the log lacks was for, said once: a purpose that already says so is passed on as it is (verify
    names the purpose of a `NeedRandom` a `RecordedSupply` raised, which says it already)."""
    return purpose if purpose.startswith(UNRECORDED) else f"{UNRECORDED} ({purpose})"


class RecordedSupply:
    """Replays the values a log recorded, in order (verification while the seed is still secret)."""

    def __init__(self, recorded: Iterator[tuple[Any, ...]]) -> None:
        self._recorded = recorded

    def _next(self, purpose: str) -> tuple[Any, ...]:
        value = next(self._recorded, None)
        if value is None:
            raise NeedRandom("roll", 0, 0, (), unrecorded(purpose))
        return value

    def roll(self, core: CoreState, index: int, count: int, sides: int, purpose: str) -> tuple[tuple[int, ...], Source]:
        return tuple(int(v) for v in self._next(purpose)), "seed"

    def draw(self, core: CoreState, index: int, population: tuple[str, ...], k: int, purpose: str) -> tuple[tuple[str, ...], Source]:
        return tuple(str(v) for v in self._next(purpose)), "seed"


# --- what a game's log says about its dice: for `status` and `verify` (arbitro §R.2, §U) ------------------
class Reroll(msgspec.Struct, kw_only=True):
    """An undo that voided rolls or draws: the same commands played again draw new dice."""

    seq: int  # the `undone` event
    by: str
    to_seq: int
    voided_indices: tuple[int, ...]
    reason: str
    rule: str


class Waiver(msgspec.Struct, kw_only=True):
    """The umpire's ruling to go on without seats that never answered the entropy round."""

    seq: int
    seats: tuple[str, ...]
    reason: str


class DiceAudit(msgspec.Struct, kw_only=True):
    protection: Literal["seats", "host", "public", "entered"]
    summary: str  # one line, as status and verify print it
    entropy_seats: tuple[str, ...]
    mixed: tuple[str, ...] | None  # the seats whose entropy is mixed in; None while the round is open
    waivers: list[Waiver]
    rerolls: list[Reroll]


HOST_WARNING = "dice not protected against the host"
# The events audit_dice reads, and only these (the status ledger keeps these of each game: adjudicator/ledger.py)
AUDITED_EVENTS = (core.GameCreated, core.EntropyMixed, core.EntropyWaived, core.Undone)


def audit_dice(bodies: Iterable[EventBody[Any]]) -> DiceAudit:
    """Who the game's dice are protected against, which seats were left out by a ruling, and every re-roll."""
    created: core.GameCreated | None = None
    mixed: tuple[str, ...] | None = None
    waivers: list[Waiver] = []
    rerolls: list[Reroll] = []
    for body in bodies:
        if not isinstance(body.event, AUDITED_EVENTS):
            continue
        match body.event:
            case core.GameCreated() as created:
                pass
            case core.EntropyMixed(seats=seats):
                mixed = seats
            case core.EntropyWaived(seats=seats, reason=reason):
                waivers.append(Waiver(seq=body.seq, seats=seats, reason=reason))
            case core.Undone(voided_indices=voided) if voided:
                e = body.event
                rerolls.append(Reroll(seq=body.seq, by=e.by, to_seq=e.to_seq, voided_indices=voided, reason=e.reason,
                                      rule=e.rule))
    assert created is not None, "a game's log starts with game_created"
    seats = created.entropy_seats
    protection: Literal["seats", "host", "public", "entered"]
    if created.kind == "transcribed":
        protection, summary = "entered", "entered from the table: the engine rolls nothing (arbitro §R.4)"
    elif created.origin.get("keep_dice") and created.origin.get("seed_public"):
        protection = "public"
        summary = (f"public: this fork replays the dice of game {created.origin.get('fork')}, whose seed is revealed; "
                   "anyone can predict them (for analysis, arbitro §R.3)")
    elif created.origin.get("keep_dice"):  # made before arbitro §R.3 required the parent's reveal first
        protection = "host"
        summary = (f"{HOST_WARNING}: this fork shares the secret seed of game {created.origin.get('fork')}, kept "
                   "before that game's reveal, so it could show that game's rolls in advance (arbitro §R.3)")
    elif not seats:
        protection = "host"
        summary = (f"{HOST_WARNING}: they rest on the server's seed alone, since no seat committed entropy at "
                   "creation (arbitro §R.2)")
    else:
        protection = "seats"
        if mixed is None:
            summary = f"protected by the seats' committed entropy once {', '.join(seats)} have revealed; nothing rolls before (arbitro §R.2)"
        else:
            summary = f"protected against the host by the committed entropy of {', '.join(mixed) or 'no seat'} (arbitro §R.2)"
        left_out = sorted({s for w in waivers for s in w.seats})
        if left_out:
            summary += f"; the umpire ruled to proceed without {', '.join(left_out)}"
    return DiceAudit(protection=protection, summary=summary, entropy_seats=seats, mixed=mixed, waivers=waivers,
                     rerolls=rerolls)


def describe_rerolls(rerolls: list[Reroll]) -> str:
    """One line: how many undos voided dice, and which."""
    if not rerolls:
        return "no undo voided a roll or draw"
    each = "; ".join(f"#{r.seq} by {r.by} back to #{r.to_seq} voided {len(r.voided_indices)} "
                     f"(random index {', '.join(map(str, r.voided_indices))})" for r in rerolls)
    return f"{len(rerolls)} undo(s) voided dice, so those rolls were made again: {each}"

