"""Seeded self-play over `legal`: the conformance kit's fuzzer (Rally the Troops' `rtt fuzz`), and a
driver for producing sample games in logs/.

Choices are derived from SHA-256 of (seed, step), so a self-play game is reproducible anywhere.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.service import Arbitro
from arbitro.events.random import entropy_commitment

Chooser = Callable[[str, list[dict[str, Any]], int], dict[str, Any]]


def pick(seed: str, step: int, n: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}|{step}".encode()).digest()[:8], "big") % n


class SelfPlay:
    """Plays a game by choosing among the legal commands of the awaited seat."""

    def __init__(self, app: Arbitro, game: str, seed: str = "selfplay", chooser: Chooser | None = None,
                 on_step: Callable[[str, dict[str, Any], dict[str, Any]], None] | None = None) -> None:
        self.app, self.game, self.seed = app, game, seed
        self.chooser = chooser or (lambda seat, legal, step: legal[pick(self.seed, step, len(legal))])
        self.on_step = on_step
        self.steps = 0

    def awaited(self) -> list[str]:
        return list(self.app.awaiting(self.game)["seats"])

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
        entropy_round = self.app.awaiting(self.game)["kind"] == "entropy"
        for seat in seats:
            legal = self.app.legal(self.game, seat)
            if legal:
                command = (self._entropy_answer(seat, legal[0]) if entropy_round
                           else self.chooser(seat, legal, self.steps))
                try:
                    result = self.app.submit(self.game, seat, command)
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
