"""The engine's undo rule (arbitro §U; docs/engine-rules.md): a take-back judged for the umpire (a ruling, §U.4) or a
seat (free while nothing another seat may know lies after the point, §U.1; else the other seats' consent, §U.2; never
past the umpire's ruling, §U.5), to the end of a command (§U.3), never across the seats' entropy round (§R.2). Asked by
the engine (`Adjudicator`) for an undo and for a dispute's ruling that takes back; `voided_rolls` also by the consent
step, which voids the rolls once the seats consent."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arbitro.adjudicator import core_commands as cc
from arbitro.adjudicator.engine_steps import R_ENTROPY, R_RULING, R_UNDO_RULING, open_consent, ruling_in, ruling_reason
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.log_points import History, Points, command_end
from arbitro.adjudicator.ruleset import Decision, Ruleset
from arbitro.events import core
from arbitro.events.records import EventBody
from arbitro.projections.base import UMPIRE
from arbitro.projections.fold import Fold
from arbitro.projections.game import GameState

# Entropy events an undo may not cross: a seat's entropy, once revealed, is public (arbitro §R.2).
ENTROPY_SPENT = (core.EntropyRevealed, core.EntropyWaived, core.EntropyMixed)
R_UNDO_FREE = "arbitro §U.1"
R_UNDO_POINT = "arbitro §U.3"


def middle_of_command(at: int, cmd: int, before: int | None, end: int, act: str) -> str:
    """The refusal of an undo or a fork (`act`: "take back to", "fork at") to event `at`, inside command `cmd`, which
    ends at event `end` (the command before it at `before`; None for the creation, command 0): the points on either
    side named, so that the umpire need not read the log to find one (arbitro §U.3)."""
    points = f"#{before} or #{end}" if before is not None else f"#{end}"
    began = f"#{before + 1}" if before is not None else "#1"
    return f"#{at} is in the middle of command {cmd} (events {began}-#{end}): {act} the end of a command, {points}"


def voided_rolls(history: History, to: int) -> tuple[int, ...]:
    """The random indices of the rolls and draws still in force after event `to`: what an undo to `to` voids.
    Rolls an earlier undo already voided are not counted again."""
    live: list[tuple[int, int]] = []  # (seq, random index)
    for body in history.bodies(to + 1, None):
        match body.event:
            case core.DiceRolled(index=index) | core.ItemsDrawn(index=index):
                live.append((body.seq, index))
            case core.Undone(to_seq=back_to):
                live = [(seq, index) for seq, index in live if seq <= back_to]
    return tuple(index for _, index in live)


class UndoRule:
    """The undo rule over one ruleset: what bars a free take-back is asked of the ruleset (`may_reveal`,
    `is_irreversible`, `redact`), and the log's states are folded on by its fold."""

    def __init__(self, ruleset: Ruleset[Any], fold: Fold) -> None:
        self.ruleset = ruleset
        self.fold = fold

    def take_back(self, ctx: Decision[Any], state: GameState[Any], command: cc.Undo, seats: Sequence[str],
                  history: History) -> None:
        """Take back everything after event `command.to` (the umpire) or after command `command.to` (a seat, whose
        every number is a command's: engine-rules §V.6), refused in the sender's numbers."""
        seat = ctx.seat
        to = command.to if seat == UMPIRE else self._seat_point(state, command.to, history, seat)
        if to >= state.core.seq:
            raise IllegalCommand(f"#{to} is not before the head (#{state.core.seq}): nothing to take back", rule=R_UNDO_POINT)
        if to < 1:
            raise IllegalCommand("#0 is no event: take back to the end of a command, "
                                 f"#{command_end(history, state.core.seq, 0)} or later", rule=R_UNDO_POINT)
        after = list(history.bodies(to, None))
        point = after[0]
        if len(after) > 1 and after[1].cmd == point.cmd:  # inside the creation too: its end, #0's, is the first point
            ends = (command_end(history, state.core.seq, point.cmd - 1) if point.cmd else None,
                    command_end(history, state.core.seq, point.cmd))
            raise IllegalCommand(middle_of_command(to, point.cmd, *ends, "take back to"), rule=R_UNDO_POINT)
        later = after[1:]

        def named(body: EventBody[Any]) -> str:  # an event as the sender numbers it: a seat by its command
            return f"#{body.seq}" if seat == UMPIRE else f"command #{body.cmd}"
        spent = next((b for b in later if isinstance(b.event, ENTROPY_SPENT)), None)
        if spent is not None:
            # Re-running the round after a reveal would let a seat choose its entropy knowing another's.
            raise IllegalCommand(f"{named(spent)} is part of the seats' entropy round, which a game does not run "
                                 "twice: take back only to a point after the round, or fork (a new seed and a new "
                                 "round)", rule=R_ENTROPY)
        if seat == UMPIRE:
            if len(command.reason) < 3:
                raise IllegalCommand("the umpire's undo is a ruling: give a reason", rule=R_RULING)
            voided = voided_rolls(history, to)
            ctx.emit(core.Undone(to_seq=to, by=seat, reason=command.reason, rule=R_RULING,
                                 voided_rolls=len(voided), voided_indices=voided))
            return
        ruling = ruling_in(later)
        if ruling is not None:  # not even with the other seats' consent: the umpire decided it (arbitro §U.5)
            raise IllegalCommand(f"{named(ruling)} is the umpire's ruling ({ruling_reason(ruling.event)}): only the "
                                 f"umpire may take it back; take back only to #{ruling.cmd} or later, or ask the umpire",
                                 rule=R_UNDO_RULING)
        if not self._needs_consent(later, seat, seats, history):
            ctx.emit(core.Undone(to_seq=to, by=seat, reason=command.reason or "taken back", rule=R_UNDO_FREE))
            return
        open_consent(ctx, seat, to, command.to, tuple(s for s in seats if s != seat))

    @staticmethod
    def _seat_point(state: GameState[Any], cmd: int, history: History, seat: str) -> int:
        """The log's number of the last event of command `cmd`, a seat's point to take back to; a command that is not
        before the last one is refused in command numbers (a seat's only numbers: engine-rules §V.6)."""
        point = Points(history, state.core.seq, seat)
        if cmd >= point.last:
            raise IllegalCommand(f"#{cmd} is not before the last command (#{point.last}): nothing to take back",
                                 rule=R_UNDO_POINT)
        return point(cmd, R_UNDO_POINT)

    def _needs_consent(self, later: list[EventBody[Any]], seat: str, seats: Sequence[str], history: History) -> bool:
        """Whether `seat` may not take back `later` on its own (arbitro §U.1), judged only on what every seat is served
        alike, for the answer (free, or a consent asked) is served to all: another seat's command (every command is
        public), a roll or draw (that one was made is public, engine-rules §V.4, whatever its values), an undo or a
        ruling, an irreversible event every seat is served, or one the ruleset says `may_reveal` to `seat` alone. An
        event served to some seats only (a sighting, projections/parabellum.others_sighting) counts through
        `may_reveal` alone: judged on it, the answer would tell one seat what another was shown. The other seats
        keep what they were served; the voided events stay in the log. The state after each event is read from the log
        once, then folded on (a verification's log folds from its start at each read: issue 15)."""
        after: GameState[Any] | None = None  # the state after `body`, from the first ruleset event on (a fresh copy)
        for body in later:
            event = body.event
            if body.seat != seat:
                return True
            if isinstance(event, core.IRREVERSIBLE_CORE) or isinstance(event, (core.Undone, core.RulingMade)):
                return True
            if after is not None:
                after = self.fold.apply(after, body, history.state_at)
            if type(event) not in core.CORE_EVENT_TYPES:
                after = history.state_at(body.seq) if after is None else after
                if self._reveals(event, seats, after.rules):
                    return True
        return False

    def _reveals(self, event: Any, seats: Sequence[str], rules: Any) -> bool:
        """Whether a ruleset's event bars a free take-back, by a test every seat makes alike (`rules`: after it)."""
        if self.ruleset.may_reveal(event, rules):
            return True
        return self.ruleset.is_irreversible(event) and all(
            self.ruleset.redact(event, other, rules) is not None for other in seats)
