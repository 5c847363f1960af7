"""The command translator of the one behaviour for a step with nothing left to do (the kernel's
`sequence.NOTHING_LEFT`; issue 18): Arrivano's games up to 1.30.0 waited for `end_step` in an activation's
bombardment, movement and combat steps even when the seat had nothing left to do there; since 1.31.0 such a step ends
by itself, as Caldiero's always did. Each `end_step` a recorded game sent in a step that now ends by itself is
dropped; every other command is kept as it was (the old words `next` and `end_orders` are spelt `end_step`).

    python -m bench.drivers.relog --translate bench.drivers.translate_steps:translate logs/arrivano-*.jsonl

Which step a recorded `end_step` ended is read from the recorded game: the number of steps begun (`step_began`)
before it. The same game under this build begins the same steps in the same order (a step ended by itself begins
the next one, as the seat's `end_step` did), only sooner: when this build has begun more steps than the recorded game
had when it sent an `end_step`, the step that command ended has already ended by itself, and the command goes. So
does an `end_step` this build does not list now (the step ended by itself into a decision, such as the recovery
that follows the combat step, arrivano §3.1 B-6)."""

from __future__ import annotations

from collections import deque
from typing import Any

from arbitro.adjudicator import registry
from arbitro.adjudicator.service import Arbitro
from bench.drivers import translate_assault

END_WORDS = ("end_step", "next", "end_orders")  # `next`, `end_orders`: Arrivano's words for it up to 1.27.0
STEP_BEGAN = "step_began"


class StepsTranslator:
    """One log at a time (relog calls `start` with each file's records first)."""

    def __init__(self) -> None:
        self.begun_before: deque[int] = deque()  # for each recorded command: the steps begun before it then
        self.begun_now, self.counted_to = 0, 0  # the steps this build has begun, up to event `counted_to`

    def start(self, records: list[dict[str, Any]]) -> None:
        began = sorted(r["body"]["seq"] for r in records
                       if r["record"] == "event" and r["body"]["event"].get("type") == STEP_BEGAN)
        commands = sorted((r for r in records if r["record"] == "command" and r["cmd"] > 0), key=lambda r: r["cmd"])
        self.begun_before = deque(sum(1 for seq in began if seq < r["first_seq"]) for r in commands)
        self.begun_now, self.counted_to = 0, 0

    def __call__(self, app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        recorded = self.begun_before.popleft()
        if command.get("type") not in END_WORDS:
            return [(seat, command)]
        self._count(app, game)
        end = {"type": "end_step"}
        if self.begun_now > recorded or end not in app.legal(game, seat):
            return []  # the step it ended ended by itself
        return [(seat, end)]

    def _count(self, app: Arbitro, game: str) -> None:
        head = app.game(game).head_seq
        for body in app.replayer(game).bodies(self.counted_to + 1, head):
            self.begun_now += type(body.event).__struct_config__.tag == STEP_BEGAN
        self.counted_to = head


translate = StepsTranslator()


def listed(app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Arrivano 1.33.0 (sequence.UNSEEN_WAITS: under the fog, always in force in Arrivano, an activation's steps wait
    for `end_step` again, as up to 1.30.0): the logs as they stood before 1.31.0's translation (`git show
    0c307d9:logs/arrivano-*.jsonl`, every `end_step` sent) keep each command, but an `end_step` this build does not
    list where it comes (a step that still ends by itself: the orders sub-phase); every other command goes through
    1.32.0's assault answers (bench/drivers/translate_assault.py), which those logs predate.

        python -m bench.drivers.relog --translate bench.drivers.translate_steps:listed logs/arrivano-*.jsonl
    """
    if command.get("type") not in END_WORDS:
        return translate_assault.translate(app, game, seat, command)
    end = {"type": "end_step"}
    return [(seat, end)] if end in app.legal(game, seat) else []


ORDERS, ORDERS_TAKES = "orders", ("change_order", "end_step")  # the orders sub-phase and the commands it takes


def orders_wait(app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Arrivano 1.38.0 (arrivano §11.3.2, sequence.UNSEEN_WAITS): the orders sub-phase waits for its seat's `end_step`
    even with nothing left to change (what it offers hangs on where leaders stand out of the enemy's sight, §4.3, §5.2).
    A recorded command that finds the game waiting in an orders sub-phase, and is not of it, came after that sub-phase
    had ended by itself: the waiting seat's `end_step` goes before it. The command phase's first sub-phase (§5.2: the
    initiative tie winner's, turn.start_turn) ends into the other side's, which waits too unless the command is its.

        python -m bench.drivers.relog --translate bench.drivers.translate_steps:orders_wait logs/arrivano-*.jsonl
    """
    at = app.state_at(game)
    state = at.rules
    if state.step != ORDERS or at.core.decisions or (seat == state.seat and command.get("type") in ORDERS_TAKES):
        return [(seat, command)]  # not in the sub-phase, a decision waits first (§12.8.2's returns), or the command is its
    out = [(state.seat, {"type": "end_step"})]
    sides = sorted({f.side for f in state.formations.values()})
    first = registry.get(app.game(game).ruleset).data.scenarios[state.scenario].scenario.initiative_tie_winner
    other = next(s for s in sides if s != state.seat)
    if state.phase == "command" and state.seat == first and not (seat == other and command.get("type") in ORDERS_TAKES):
        out.append((other, {"type": "end_step"}))
    return out + [(seat, command)]
