"""The hex rulesets' test harness (issue 10, "How it is built"): a position a test sets up, commands judged on it by
the engine exactly as a submit judges them (adjudicator.engine.Adjudicator.decide: the turn, the awaited frame's
seats and options, then the ruleset's decide or the step's answer) with the dice the test chooses, outside any
store; refusals checked with their citation and the position left as it was; and the agreement of legal() and
decide() at the position (tests/agreement.py).

A ruleset's tests bind it to their ruleset and keep only their own position builders (tests/caricat/harness.py).
Caldiero's and Arrivano's harnesses (tests/caldiero/harness.py, tests/arrivano/harness.py) are near-copies of
`Table` that call the ruleset directly; the Para Bellum kernel can adopt this one by subclassing `Table` for its
rulesets: Caldiero's filler dice are `Dice(values, pad, cycle=True)`, Arrivano's a constant `pad`, and `pad=0` asks
for the roll as a transcribed game does (the `random` frame on top, `Table.asked()`), where Caldiero's harness
raised NeedRandom.

    t = Table(CaricatRuleset(), state)
    t.send("italian", {"type": "fire", "units": ["guardie1"], "target": "kinsky1"}, dice=[6, 2, 1])
    t.refuse("italian", {"type": "melee", "units": ["guardie1"], "target": "kinsky1"}, rule="caricat §7")
    assert t.disagreements() == []
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import msgspec

from arbitro.adjudicator.engine import Adjudicator, GameContext, NoHistory
from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.randomness import EnteredSupply, NeedRandom
from arbitro.adjudicator.ruleset import Decision, Ruleset
from arbitro.events import core
from arbitro.projections.game import CoreState, GameState, awaited, state_bytes
from tests.agreement import Discrepancy, Position, listed_refused, sweep

S = TypeVar("S")
_ADJUDICATORS: dict[int, Adjudicator] = {}


def adjudicator(ruleset: Ruleset[Any]) -> Adjudicator:
    """One engine per ruleset object (its steps and fold are built once)."""
    found = _ADJUDICATORS.get(id(ruleset))
    if found is None or found.ruleset is not ruleset:
        found = _ADJUDICATORS[id(ruleset)] = Adjudicator(ruleset)
    return found


class Dice(EnteredSupply):
    """The dice a test chooses, in order: an int is one die, a tuple one whole roll; once they run out, `pad` for
    every die (0: none, so the roll is asked for), varied die by die with `cycle` so that re-rolled ties end."""

    def __init__(self, values: list[int | tuple[int, ...]], pad: int = 3, cycle: bool = False) -> None:
        super().__init__(())
        self.values, self.pad, self.cycle, self.filler = list(values), pad, cycle, 0

    def roll(self, core_state: Any, index: int, count: int, sides: int, purpose: str) -> Any:
        if self.values and isinstance(self.values[0], tuple):
            whole = self.values.pop(0)
            assert isinstance(whole, tuple) and len(whole) == count, f"{purpose}: {count} dice, the test gave {whole}"
            return whole, "entered"
        if not self.values and not self.pad:
            raise NeedRandom("roll", count, sides, (), purpose)
        return tuple(self._die(sides) for _ in range(count)), "entered"

    def _die(self, sides: int) -> int:
        if self.values:
            value = self.values.pop(0)
            assert isinstance(value, int)
            return value
        if not self.cycle:
            return self.pad
        self.filler += 1
        return (self.pad - 1 + (self.filler - 1) * 5) % sides + 1


class Table(Generic[S]):
    """A game of `ruleset` at `state` (its readings `interpretations`), judged by the engine command by command."""

    def __init__(self, ruleset: Ruleset[S], state: S, interpretations: dict[str, str] | None = None,
                 kind: str = "transcribed") -> None:
        chosen = dict(sorted((interpretations or {}).items()))
        self.ruleset = ruleset
        self.engine = adjudicator(ruleset)
        self.game: GameState[S] = GameState(core=CoreState(interpretations=chosen),
                                            rules=ruleset.note_interpretations(state, chosen))
        self.context = GameContext(seats=tuple(ruleset.seats(state)), kind=kind,
                                   options=tuple(getattr(state, "options", ())), seed=None, game_id="table")
        self.events: list[Any] = []

    @property
    def state(self) -> S:
        """The rules state, which a test may edit in place. An edit is no event (no seq moves), so whatever a
        procedure kept on the state object (a Para Bellum World, parabellum/act.carried_world, in a Struct's instance
        dict, which holds nothing else) is dropped here: nothing is listed or judged on the position before the edit."""
        rules = self.game.rules
        if isinstance(rules, msgspec.Struct) and hasattr(rules, "__dict__"):
            vars(rules).clear()
        return rules

    # --- commands -------------------------------------------------------------------------------------------
    def send(self, seat: str, command: dict[str, Any], dice: list[int | tuple[int, ...]] | None = None,
             pad: int = 3, cycle: bool = False) -> list[Any]:
        """Judge `command` from `seat` as a submit would, rolling `dice` (then `pad`); the events, also kept in
        `events`. A refusal raises the engine's Rejected (IllegalCommand, NotYourDecision...: `.rule` cites)."""
        done = self.engine.decide(self.game, seat, command, self.context, NoHistory(), Dice(list(dice or []), pad, cycle))
        self.game = done.state
        self.events += done.events
        return done.events

    def refuse(self, seat: str, command: dict[str, Any], rule: str | None = None,
               dice: list[int | tuple[int, ...]] | None = None) -> Rejected:
        """Assert that `command` is refused (citing `rule`, if given) and that the position is left as it was."""
        before = state_bytes(self.game)
        try:
            self.send(seat, command, dice)
        except Rejected as refused:
            assert state_bytes(self.game) == before, "a refused command changed the position"
            assert rule is None or refused.rule == rule, f"refused by {refused.rule}, not {rule}: {refused}"
            return refused
        raise AssertionError(f"{command} was accepted from {seat}")

    def start(self, dice: list[int | tuple[int, ...]] | None = None) -> list[Any]:
        """The ruleset's opening (ruleset.start), as a new game runs it."""
        ctx = self.decision("umpire", dice)
        self.engine.start(ctx)
        self.game = ctx.game
        self.events += ctx.events
        return list(ctx.events)

    def decision(self, seat: str = "umpire", dice: list[int | tuple[int, ...]] | None = None) -> Decision[S]:
        """A scratch context on the position, for a test that calls a rule's function itself."""
        return Decision(self.ruleset, self.engine.fold, self.engine.fold.copy(self.game), seat,
                        self.game.core.seq + 1, Dice(list(dice or [])), self.context.options)

    def rule(self, interpretations: dict[str, str]) -> None:
        """An umpire's ruling switching readings now (as the fold applies core.RulingMade)."""
        chosen = dict(sorted({**self.game.core.interpretations, **interpretations}.items()))
        self.game.core.interpretations = chosen
        self.game.rules = self.ruleset.note_interpretations(self.game.rules, chosen)

    # --- what the position offers ----------------------------------------------------------------------------
    def top(self) -> core.Frame[Any] | None:
        """The decision awaited (the top frame of the engine's stack), if any."""
        return awaited(self.game.core)

    def asked(self) -> bool:
        """Whether a roll is asked for (pad=0 ran out of dice): the engine's `random` frame is on top."""
        top = self.top()
        return top is not None and top.kind == "random"

    def legal(self, seat: str) -> list[dict[str, Any]]:
        return self.engine.legal(self.game, seat)

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    def rolls(self) -> list[core.DiceRolled]:
        return self.of(core.DiceRolled)

    # --- agreement (docs/ruleset-interface.md, "Reachable from the listing") ------------------------------------
    def position(self, label: str = "table") -> Position:
        return Position(label, self.engine, self.engine.fold.copy(self.game), self.context)

    def disagreements(self, examples: int = 60) -> list[Discrepancy]:
        """Every listed command refused, and every generated candidate accepted but unreachable from the listing,
        at this position, for every seat (tests/agreement.py)."""
        position = self.position()
        found = [d for seat in position.seats() for d in listed_refused(position, seat)]
        return found + [d for d in sweep([position], examples) if d not in found]
