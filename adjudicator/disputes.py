"""The engine's dispute procedure (docs/engine-rules.md §D): a seat opens a dispute about events of the log, the
seats (and the umpire) answer with text and cited events, the umpire rules and the dispute closes. Each step is an
event on the chain; none changes the game's state, except the ruling's own effect (an undo, or a ruling), which
the engine makes with its undo and ruling rules (engine.py) before it records the outcome. Every number a message
names (the events disputed or cited, a cited note's or position's point) is in its sender's numbers: the umpire's
the log's events, a seat's its commands, each recorded in the event as the log's (the command's last event,
log_points.Points) and served back to a seat by command (seat_numbers.NUMBERED_FIELDS; engine-rules §V.6)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from arbitro.adjudicator import core_commands as cc
from arbitro.adjudicator.decisions import Step, close_frame, open_frame
from arbitro.adjudicator.errors import IllegalCommand, NotUmpire
from arbitro.adjudicator.log_points import Log, Points
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import core
from arbitro.events.records import EventBody
from arbitro.projections.base import UMPIRE
from arbitro.projections.disputes import Dispute, dispute_records, fold_disputes
from arbitro.projections.game import GameState, awaited

R_OPEN = "arbitro §D.1"
R_REPLY = "arbitro §D.2"
R_RULE = "arbitro §D.3"
R_EVIDENCE = "arbitro §D.7"


def disputes_in(bodies: Iterable[EventBody[Any]], seat: str = UMPIRE) -> list[Dispute]:
    """The game's disputes as the umpire reads them (every text), from its events; each message numbered as `seat`
    numbers it (a seat by its command, engine-rules §V.6), for the refusals told to `seat`."""
    records = dispute_records(bodies, UMPIRE)
    return fold_disputes(records if seat == UMPIRE else ({**r, "seq": r["cmd"]} for r in records))


def _open_one(number: int, known: list[Dispute], rule: str) -> Dispute:
    """Dispute `number`, which must exist and be open (`known` numbered in the sender's numbers: disputes_in)."""
    found = next((d for d in known if d.number == number), None)
    if found is None:
        listed = f"its disputes are #1 to #{len(known)}" if known else "it has none"
        raise IllegalCommand(f"this game has no dispute #{number}: {listed} (`arbitro disputes GAME`)", rule=rule)
    if found.ruling is not None:
        raise IllegalCommand(f"dispute #{number} was closed by the umpire's ruling at #{found.ruling.seq} "
                             f"({found.ruling.outcome}): open a new dispute", rule=rule)
    return found


def note_label(number: Any, chain: str) -> str:
    """A note as a message names it: its number is its place in its chain (arbitro §L.1), public or private."""
    return f"note {number!r}" if chain == "public" else f"private note {number!r} of {chain.removeprefix('private:')}"


def no_note(number: Any, seat: str, chain: str = "public") -> str:
    """The one refusal of a note a seat may not cite, whether it does not exist or is in another seat's private
    chain: a seat cannot tell the two apart by trying numbers."""
    return f"this game has no {note_label(number, chain)} that {seat} may read (`arbitro notes GAME --as {seat}` " \
           "lists them)"


def cited(ctx: Decision[Any], refs: list[cc.EvidenceCited], private: bool, log: Log,
          seats: tuple[str, ...]) -> tuple[core.Evidence, ...] | core.NoEvidence:
    """A message's evidence beyond the events it cites (arbitro §D.7), each reference checked against the log: what
    it names exists, and the citing seat may see it. A note's own existence and text are checked by the service
    before this (admission.cited_notes): the notes are not on the game's chain."""
    if not refs:
        return msgspec.UNSET  # no field: a message without evidence keeps its bytes
    point = Points(log, ctx.game.core.seq, ctx.seat)
    return tuple(_evidence(ctx, ref, private, log, seats, point) for ref in refs)


def _evidence(ctx: Decision[Any], ref: cc.EvidenceCited, private: bool, log: Log, seats: tuple[str, ...],
              point: Points) -> core.Evidence:
    match ref:
        case cc.NoteCited():
            seq = point(ref.seq, R_EVIDENCE)  # a seat's note is named by its command: recorded at its last event
            chain = f"private:{ref.by}" if ref.private else "public"
            if ref.private and ctx.seat not in (ref.by, UMPIRE):
                raise IllegalCommand(no_note(ref.note, ctx.seat, chain), rule=R_EVIDENCE)
            if ref.private and not private:
                raise IllegalCommand(f"{note_label(ref.note, chain)} is private: cite it in a private message "
                                     "(--private), which only its writer and the umpire read", rule=R_EVIDENCE)
            return core.NoteEvidence(note=ref.note, seq=seq, by=ref.by, private=ref.private, hash=ref.hash)
        case cc.PositionCited():
            seat = ref.seat or ctx.seat
            if seat not in (*seats, UMPIRE):
                raise IllegalCommand(f"no seat {seat!r}: a position is cited as one of {', '.join((*seats, UMPIRE))} "
                                     "was served it", rule=R_EVIDENCE)
            if ctx.seat not in (seat, UMPIRE):
                raise IllegalCommand(f"{ctx.seat} cites its own view of a position, not {seat}'s, which it was never "
                                     "served", rule=R_EVIDENCE)
            return core.PositionEvidence(at=point(ref.at, R_EVIDENCE), seat=seat)
        case cc.ReadjudicationCited():
            known = ctx.ruleset.interpretations()
            for name, value in sorted(ref.readings.items()):
                if name not in known or value not in known[name].choices:
                    raise IllegalCommand(f"{name}={value} is not a reading of {ctx.ruleset.name} (`arbitro "
                                         f"interpretations {ctx.ruleset.name}` lists them)", rule=R_EVIDENCE)
            return core.ReadjudicationEvidence(readings=dict(sorted(ref.readings.items())))
        case cc.ForkCited():
            forks = [b.event.child for b in log.bodies() if isinstance(b.event, core.GameForked)]
            if ref.game not in forks:
                known_forks = f"its forks are {', '.join(forks)}" if forks else "it has none"
                raise IllegalCommand(f"{ref.game!r} is not a fork of this game: {known_forks}", rule=R_EVIDENCE)
            return core.ForkEvidence(game=ref.game)
    raise AssertionError(f"an evidence kind this engine does not know: {ref!r}")


def open_dispute(ctx: Decision[Any], command: cc.OpenDispute, log: Log, seats: tuple[str, ...]) -> None:
    """A playing seat's claim about events of the log (the umpire rules instead of disputing)."""
    if ctx.seat == UMPIRE:
        raise IllegalCommand("a dispute is a playing seat's claim; the umpire answers one (dispute_reply) or rules "
                             "on it (dispute_rule), and makes its own rulings with `ruling`", rule=R_OPEN)
    point = Points(log, ctx.game.core.seq, ctx.seat)
    about = tuple(point(n, R_OPEN) for n in command.about)
    number = len(disputes_in(log.bodies())) + 1
    evidence = cited(ctx, command.evidence, command.private, log, seats)
    ctx.emit(core.DisputeOpened(dispute=number, by=ctx.seat, about=about, text=command.text,
                                private=command.private, evidence=evidence, rule=R_OPEN))


def reply(ctx: Decision[Any], command: cc.ReplyDispute, log: Log, seats: tuple[str, ...]) -> None:
    """An answer or evidence from any seat, the umpire included, while the dispute is open."""
    _open_one(command.dispute, disputes_in(log.bodies(), ctx.seat), R_REPLY)
    point = Points(log, ctx.game.core.seq, ctx.seat)
    cites = tuple(point(n, R_REPLY) for n in command.cites)
    if command.pause and ctx.seat != UMPIRE:
        raise IllegalCommand("only the umpire pauses play for a dispute", rule=R_RULE)
    paused = awaited(ctx.game.core)
    if command.pause and paused is not None and isinstance(paused.ctx, core.DisputePause):
        raise IllegalCommand(f"play is already paused for dispute #{paused.ctx.dispute}", rule=R_RULE)
    evidence = cited(ctx, command.evidence, command.private, log, seats)
    ctx.emit(core.DisputeReplied(dispute=command.dispute, by=ctx.seat, text=command.text, cites=cites,
                                 private=command.private, evidence=evidence, rule=R_REPLY))
    if command.pause:
        open_frame(ctx, DisputeStep.kind, (UMPIRE,), R_RULE, f"rule on dispute #{command.dispute}: play waits "
                   "for the ruling (`arbitro dispute rule`)", core.DisputePause(dispute=command.dispute))


def check_ruling(ctx: Decision[Any], command: cc.RuleDispute, log: Log,
                 seats: tuple[str, ...]) -> tuple[core.Evidence, ...] | core.NoEvidence:
    """Whether the umpire may rule so, before the engine makes the ruling's effect; the ruling's evidence."""
    if ctx.seat != UMPIRE:
        raise NotUmpire(f"only the umpire rules on a dispute, not {ctx.seat}", rule=R_RULE)
    _open_one(command.dispute, disputes_in(log.bodies()), R_RULE)
    changes = command.undo_to is not None or bool(command.patch or command.interpretation)
    if command.outcome != "upheld" and changes:
        raise IllegalCommand(f"a dispute {command.outcome} changes nothing here: an undo, a patch or an "
                             "interpretation goes with an upheld one", rule=R_RULE)
    if command.undo_to is not None and (command.patch or command.interpretation):
        raise IllegalCommand("one effect per ruling: an undo, or a patch and/or an interpretation (rule again "
                             "with `ruling` for the rest)", rule=R_RULE)
    if (command.outcome == "amended") != bool(command.fork):
        raise IllegalCommand("an amended dispute names the game its amendment made (`arbitro amend GAME --at SEQ "
                             "--dispute N` records it); upheld and dismissed ones name none", rule=R_RULE)
    return cited(ctx, command.evidence, command.private, log, seats)


def record_ruling(ctx: Decision[Any], command: cc.RuleDispute,
                  evidence: tuple[core.Evidence, ...] | core.NoEvidence) -> None:
    """The outcome, and play resumed if it waited for this ruling (an undo the ruling made may have lifted the
    pause already: it restores the decisions pending at its point)."""
    ctx.emit(core.DisputeRuled(dispute=command.dispute, outcome=command.outcome, text=command.text,
                               private=command.private, fork=command.fork, evidence=evidence, rule=R_RULE))
    paused = awaited(ctx.game.core)
    if paused is not None and isinstance(paused.ctx, core.DisputePause) and paused.ctx.dispute == command.dispute:
        close_frame(ctx, paused)


class DisputeStep(Step[core.DisputePause]):
    """Play paused for a dispute (arbitro §D.3): only the dispute goes on (and the umpire's rulings, undos,
    reveal and forks, §S.3) until the umpire rules on it, which resumes play."""

    kind = "dispute"
    complete = False  # the ruling's text is the umpire's to write

    def options(self, state: GameState[Any], frame: core.Frame[core.DisputePause], seat: str) -> list[dict[str, Any]]:
        if seat != UMPIRE:
            return []
        return [{"type": "dispute_rule", "dispute": frame.ctx.dispute, "outcome": outcome, "text": "<the reason>"}
                for outcome in ("upheld", "dismissed")]

    def answer(self, ctx: Decision[Any], frame: core.Frame[core.DisputePause], command: Any) -> Decision[Any]:
        raise IllegalCommand(f"play is paused for dispute #{frame.ctx.dispute}: the umpire's ruling on it "
                             "(dispute_rule) resumes it", rule=R_RULE)
