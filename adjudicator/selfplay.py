"""Seeded self-play over `legal`: the conformance kit's fuzzer (Rally the Troops' `rtt fuzz`), and a
driver for producing sample games in logs/.

Choices are derived from SHA-256 of (seed, step), so a self-play game is reproducible anywhere.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.results import SubmitResult
from arbitro.adjudicator.service import Arbitro
from arbitro.events.random import entropy_commitment

Chooser = Callable[[str, list[dict[str, Any]], int], dict[str, Any]]


def command_key(seed: str, head_hash: str, seat: str) -> str:
    """The idempotency key a self-play sends: fixed by its seed and the position it answers (the game's head hash,
    which no two positions share), so a self-played game is made again byte for byte, and a second self-play of
    the same game never collides with the first's keys."""
    return hashlib.sha256(f"{seed}|key|{head_hash}|{seat}".encode()).hexdigest()[:32]


def pick(seed: str, step: int, n: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}|{step}".encode()).digest()[:8], "big") % n


def weighted_pick(seed: str, step: int, legal: list[dict[str, Any]], weights: list[int]) -> dict[str, Any]:
    """One of `legal`, each as likely as its weight, derived from (seed, step) like `pick` (the log drivers)."""
    x = pick(seed, step, sum(weights))
    for command, weight in zip(legal, weights):
        if x < weight:
            return command
        x -= weight
    return legal[-1]


FIGHTING = ("attack", "assault", "bombard", "fire")  # words of the command types that open a combat or a fire


def fights(kind: str) -> bool:
    return any(word in kind for word in FIGHTING)


# The event types that tell a combat's or a fire's result, every shipped ruleset's and the test duel's: a fight that made
# none (an attack called off by its failed "Attack?" test, caldiero §12.2.2) showed no combat
FOUGHT = frozenset({"assault_resolved", "bombardment_resolved", "fire_resolved", "melee_resolved", "artillery_fired",
                    "infantry_fired", "strength_lost", "battle_ended", "damage_dealt"})


def fought(events: list[dict[str, Any]]) -> bool:
    """Whether `events` (as served) tell a fight's result. Arrivano records an attack called off as an
    assault_resolved whose result is "cancelled" (every Attack? test failed, arrivano §12.2.2; or below the first
    column after the tests): that showed no combat, as Caldiero's called-off attack, which records none, shows none."""
    return any(e["type"] in FOUGHT and e.get("event", {}).get("result") != "cancelled" for e in events)


def progressing(seed: str) -> Chooser:
    """A chooser that moves a game on (the demo's): the command type played least often so far, ties broken by
    the seeded pick, then a seeded command of that type. Uniform choice mostly picks the type most listed
    (Caldiero's set-up offers hundreds of placements and one `end_step`), so a short game never leaves
    set-up; preferring the type least played takes each step's closing command as soon as the step's other
    kinds have had their turn, and takes a combat or a bombardment the first time one is legal."""
    played: dict[str, int] = {}

    def choose(seat: str, legal: list[dict[str, Any]], step: int) -> dict[str, Any]:
        types = sorted({c["type"] for c in legal}, key=lambda t: (not fights(t), played.get(t, 0), t))
        least = [t for t in types if fights(t) == fights(types[0]) and played.get(t, 0) == played.get(types[0], 0)]
        kind = least[pick(seed, step, len(least))]
        same = [c for c in legal if c["type"] == kind]
        played[kind] = played.get(kind, 0) + 1
        return same[pick(f"{seed}|{kind}", step, len(same))]

    return choose


class SelfPlay:
    """Plays a game by choosing among the legal commands of the awaited seat."""

    def __init__(self, app: Arbitro, game: str, seed: str = "selfplay", chooser: Chooser | None = None,
                 on_step: Callable[[str, dict[str, Any], SubmitResult], None] | None = None) -> None:
        self.app, self.game, self.seed = app, game, seed
        self.chooser = chooser or (lambda seat, legal, step: legal[pick(self.seed, step, len(legal))])
        self.on_step = on_step
        self.steps = 0

    def awaited(self) -> list[str]:
        return list(self.app.awaiting(self.game).seats)

    def entropy(self, seat: str) -> str:
        """The entropy this self-play gives `seat` in a game's commit-reveal round (arbitro §R.2): derived from
        the self-play seed, so a self-play game stays reproducible (a real seat draws its own, privately)."""
        return hashlib.sha256(f"{self.seed}|entropy|{self.game}|{seat}".encode()).hexdigest()[:32]

    def _entropy_answer(self, seat: str, template: dict[str, Any]) -> dict[str, Any]:
        if template["type"] == "commit_entropy":
            return {"type": "commit_entropy", "commitment": entropy_commitment(self.entropy(seat))}
        return {"type": "reveal_entropy", "entropy": self.entropy(seat)}

    def step(self) -> bool:
        """Play one command; False when the game is over or nobody can act."""
        seats = self.awaited()
        entropy_round = self.app.awaiting(self.game).kind == "entropy"
        for seat in seats:
            legal = self.app.legal(self.game, seat)
            if legal:
                command = (self._entropy_answer(seat, legal[0]) if entropy_round
                           else self.chooser(seat, legal, self.steps))
                try:
                    key = command_key(self.seed, self.app.game(self.game).head_hash, seat)
                    result = self.app.submit(self.game, seat, command, key=key)
                except Rejected as e:
                    raise AssertionError(f"step {self.steps}: legal command {command} by {seat} was rejected: {e}") from e
                self.steps += 1
                if self.on_step:
                    self.on_step(seat, command, result)
                return True
        return False

    def play(self, max_steps: int) -> int:
        while self.steps < max_steps and self.step():
            pass
        return self.steps
