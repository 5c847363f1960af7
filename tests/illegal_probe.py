"""Probing a self-played game with illegal commands (the rulesets' "every illegal command kind is rejected with its
citation" tests): at a point of play, every command type legal() does not offer (built by the ruleset's own
`plausible`), every legal command with one name replaced by one that does not exist, and every command of one seat
sent by another, must each be refused by a rule whose citation `citation` matches; anything accepted, refused as
malformed, or raising anything else is recorded as a failure. The name that does not exist is `unknown[field]`, else
"nowhere": a ruleset whose fields have a format (Caricat's and Arrivano's hexes) maps each such field to a well-formed
value that names nothing. tests/{arrivano,caricat,monferrato}/test_illegal_commands.py use it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import MalformedCommand, Rejected
from arbitro.adjudicator.randomness import SeededSupply
from arbitro.adjudicator.selfplay import SelfPlay
from arbitro.adjudicator.service import Arbitro

Plausible = Callable[[type, Any, str], dict[str, Any]]  # (command model, the rules' state, seat) -> a command
NOWHERE = "nowhere"
NO_FORMATS: Mapping[str, str] = MappingProxyType({})  # every field takes NOWHERE


def with_unknown_name(command: dict[str, Any], closed: Sequence[str] = ("type",),
                      unknown: Mapping[str, str] = NO_FORMATS) -> Iterator[dict[str, Any]]:
    """The command with each of its names in turn replaced by one that does not exist (`unknown[field]`, else
    "nowhere"; a list's last name), not the `closed` vocabularies, where another word is malformed, not illegal."""
    for key, value in command.items():
        if key in closed:
            continue
        if isinstance(value, str):
            yield {**command, key: unknown.get(key, NOWHERE)}
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            yield {**command, key: [*value[:-1], unknown.get(key, NOWHERE)]}


class Probe:
    def __init__(self, app: Arbitro, game: str, ruleset: str, citation: re.Pattern[str], models: Sequence[type],
                 plausible: Plausible, closed: Sequence[str] = ("type",), unknown: Mapping[str, str] = NO_FORMATS,
                 per_point: int = 6) -> None:
        self.app, self.game, self.citation = app, game, citation
        self.ruleset = registry.get(ruleset)
        self.adjudicator = app.adjudicator(ruleset)
        self.models, self.plausible, self.closed, self.per_point = models, plausible, closed, per_point
        self.unknown = unknown
        self.failures: list[str] = []
        self.rejected: dict[str, int] = {}

    def expect_rejected(self, seat: str, command: dict[str, Any], why: str) -> None:
        state = self.app.state_at(self.game)
        where = f"#{state.core.seq} {why}: {command}"
        try:
            self.adjudicator.decide(state, seat, command, self.app.context(self.app.game(self.game)),
                                    self.app.replayer(self.game), SeededSupply("00" * 32))
        except Rejected as e:
            if not self.citation.match(e.rule):
                self.failures.append(f"{where} rejected without a citation: {e}")
            self.rejected[command["type"]] = self.rejected.get(command["type"], 0) + 1
            return
        except MalformedCommand as e:
            self.failures.append(f"{where} refused as malformed, not by a rule: {e}")
            return
        except Exception as e:  # noqa: BLE001 - any other exception is a defect to report
            self.failures.append(f"{where} raised {type(e).__name__}: {e}")
            return
        self.failures.append(f"{where} by {seat} was accepted")

    def check_here(self) -> None:
        state = self.app.state_at(self.game)
        seats = self.ruleset.seats(state.rules)
        for seat in seats:
            legal = self.app.legal(self.game, seat)
            offered = {c["type"] for c in legal}
            for model in self.models:
                command = self.plausible(model, state.rules, seat)
                if command["type"] not in offered:
                    self.expect_rejected(seat, command, "a command of a type legal() does not offer")
            for command in legal[:self.per_point]:
                for bad in with_unknown_name(command, self.closed, self.unknown):
                    if bad not in legal:  # a name legal() itself offers there (a "nobody" option) is no probe
                        self.expect_rejected(seat, bad, "a legal command naming what does not exist")
                for other in seats:
                    if other != seat and command not in self.app.legal(self.game, other):
                        self.expect_rejected(other, command, "the other seat's command")

    def through(self, play: SelfPlay, steps: int, every: int) -> Probe:
        """Probe at every `every`th of up to `steps` self-played steps (until the game ends)."""
        for step in range(steps):
            if step % every == 0:
                self.check_here()
            if not play.step():
                break
        return self
