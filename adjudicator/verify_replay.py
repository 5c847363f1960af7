"""Re-adjudication, verification's fifth check (adjudicator/verify.py): the command log played again from the start
through this build's adjudicator must give exactly the stored events, checkpoint state hashes included; the first
divergence is reported.

It can be judged in segments at once (`jobs`, issue 15: re-adjudication is nearly all of a verify's time). Judging a
command needs only the state before it, and for a command in a later segment that state is the FOLD of the logged
events before it, which costs a thirtieth of judging them: a worker folds the log up to its segment's first command,
then judges its segment's commands as the single pass does, comparing each produced event with the logged one. The
verdict is the single pass's, by induction: the first segment starts from the genesis as the single pass does; and
whenever every segment before the k-th gave exactly the logged events, the fold of those events is the state the
single pass would have reached there (the engine's state after a command is its events folded), so the k-th segment
judges each of its commands from the very state the single pass would. Segments are merged in log order and the
first that fails is the one reported, its check and divergence made by the same code as in one pass: the report is
the same, byte for byte, for any number of jobs. Where a later segment fails and an earlier one too, the earlier is
reported, as the single pass, which never reached the later one, would.

The first segment is judged by the verifying process itself, the others by workers forked (Linux's 'fork') after
the ruleset's data are read and the set-up checked, so each starts with them read; a log whose events are read from a database (`StoredEvents`) is judged in one process, since a forked
child must not use its parent's connection. A file's events are read in each child through its own handle
(exchange_file)."""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain
from functools import partial
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, NamedTuple

import msgspec

from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.engine import Adjudicator, GameContext
from arbitro.adjudicator.errors import ArbitroError, Rejected, WorkerLost
from arbitro.adjudicator.exchange import Loaded
from arbitro.adjudicator.randomness import EnteredSupply, NeedRandom, RecordedSupply, SeededSupply, Supply, unrecorded
from arbitro.adjudicator.verify_anchors import Check
from arbitro.adjudicator.verify_reads import MemoryHistory
from arbitro.events import core
from arbitro.events.codec import canonical, to_builtins
from arbitro.events.records import EventBody
from arbitro.projections.game import GameState, may_reveal

Progress = Callable[[int, int], None]

LEAST_COMMANDS = 64  # a segment's fewest commands: below it a worker's start (fork, fold) costs more than it saves
MOST_JOBS = 8  # the most workers a verify starts by default (`default_jobs`)


class Divergence(msgspec.Struct, kw_only=True):
    seq: int
    expected: Any  # what the log holds
    found: Any  # what verification computed
    rule: str


class Judged(NamedTuple):
    """What judging some of the log's commands found: the failed re-adjudication check and its divergence, if one
    failed (judging stops there); the checkpoints it compared; and, where it judged the last command, whether the game
    ended without revealing its seed or salt key (the reason, the number the reveal should have had, which secret)."""

    failure: tuple[Check, Divergence] | None
    checkpoints: int
    unrevealed: tuple[str, int, str] | None = None


class _Work(NamedTuple):
    """What every segment's judging reads: given to each worker when it is forked, never pickled."""

    adj: Adjudicator
    loaded: Loaded
    bodies: Sequence[EventBody[Any]]
    created: core.GameCreated
    game: GameContext
    seed: str | None


def default_jobs() -> int:
    """Workers for a verify when none is asked: one per core, at most MOST_JOBS; 1 where processes cannot be forked."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(multiprocessing.cpu_count(), MOST_JOBS))


def readjudicate(
    adj: Adjudicator, loaded: Loaded, bodies: Sequence[EventBody[Any]], seed: str | None, checks: list[Check],
    progress: Progress | None = None, jobs: int = 1, *, salt_key: str | None = None,
) -> Divergence | None:
    """Re-adjudication's check appended to `checks`, and its first divergence (None if the log is the rules'). `jobs`:
    the most processes judging segments at once (1: this process alone). `seed`, `salt_key`: the revealed ones, each
    checked against its commitment (the game's end reveals both again as the log did)."""
    created = bodies[0].event
    ruleset = adj.ruleset
    try:
        if "scenario" in created.origin:
            with ruleset.using_data(created.origin.get("data")):
                fresh = to_builtins(ruleset.adopt_data(ruleset.new_state(created.scenario, created.options),
                                                       created.origin.get("data")))
            if canonical(fresh) != canonical(created.initial):
                checks.append(Check(name="re-adjudication", status="failed",
                                    detail="the initial state is not the scenario's set-up"))
                return Divergence(seq=1, expected=created.initial, found=fresh, rule=f"{ruleset.name} set-up")
    except DataError as e:
        return _failed(checks, *_data_failure(adj, created, e))
    game = GameContext.of(created, seed=seed, salt_key=salt_key, game_id=loaded.game.id)
    work = _Work(adj, loaded, bodies, created, game, seed)
    spans = segments(loaded.commands, jobs if _forkable(loaded) else 1)
    checkpoints, judged = 0, Judged(None, 0)
    with _judged(work, spans, progress) as results:
        for judged in results:
            if judged.failure is not None:
                return _failed(checks, *judged.failure)
            checkpoints += judged.checkpoints
    checks.append(Check(name="re-adjudication", status="passed",
                        detail=f"{len(loaded.commands)} commands give exactly the stored events; "
                               f"{checkpoints} checkpoint state hashes match"))
    if judged.unrevealed is not None:  # arbitro §R.3: a finished game reveals its seed, or its dice escape audit,
        reason, seq, secret = judged.unrevealed  # and its salt key, or no salt can be checked (§V.3)
        checks.append(Check(name=f"{secret} revealed at the end", status="failed",
                            detail=f"the game ended ({reason}) but the log never reveals its {secret}"))
        return Divergence(seq=seq, expected="(no event)", found=f"{secret.replace(' ', '_')}_revealed",
                          rule="arbitro §R.3")
    return None


def _failed(checks: list[Check], check: Check, divergence: Divergence) -> Divergence:
    checks.append(check)
    return divergence


def _forkable(loaded: Loaded) -> bool:
    """Whether workers forked from this process may read the log's events: a list, or a file (each child reads it
    through its own handle); not a database's rows (a child must not use its parent's connection)."""
    return isinstance(loaded.events, (list, tuple)) or bool(getattr(loaded.events, "forkable", False))


def segments(commands: Sequence[tuple[Any, str, int, int]], jobs: int) -> list[range]:
    """The commands split into at most `jobs` runs of about as many events each (the cost of judging a command goes
    with the events it causes), none shorter than LEAST_COMMANDS; one run for `jobs` 1."""
    count = max(1, min(jobs, len(commands) // LEAST_COMMANDS))
    events = [last - first + 1 if first else 0 for _record, _digest, first, last in commands]
    total, starts, done = sum(events), [0], 0
    for number, caused in enumerate(events):
        if (len(starts) < count and done >= total * len(starts) / count and number - starts[-1] >= LEAST_COMMANDS
                and len(commands) - number >= LEAST_COMMANDS):
            starts.append(number)
        done += caused
    return [range(a, b) for a, b in zip(starts, [*starts[1:], len(commands)])]


@contextmanager
def _judged(work: _Work, spans: list[range], progress: Progress | None) -> Iterator[Iterator[Judged]]:
    """Each segment's judging, in log order: the first here (once the others' workers are forked: this process would
    otherwise only wait, and its caches are warm), each other by a worker forked for it, its result read from its
    pipe in turn (`progress` told of each). A worker that ends without sending it (killed: out of memory) is said,
    never waited for; leaving this ends the workers still judging (a segment before theirs failed)."""
    fork = multiprocessing.get_context("fork")
    workers: list[tuple[range, Connection, BaseProcess]] = []
    try:
        for span in spans[1:]:
            reading, writing = fork.Pipe(duplex=False)
            worker = fork.Process(target=_judge_into, args=(work, span, writing), daemon=True)
            worker.start()
            writing.close()  # the worker's alone: its end, when it dies, is the reader's EOFError
            workers.append((span, reading, worker))
        here = (_judge(work, spans[0], progress) for _ in (0,))  # judged when asked: after the forks
        yield chain(here, _told(workers, len(work.loaded.commands), progress))
    finally:
        for _span, reading, worker in workers:
            if worker.is_alive():
                worker.terminate()
            worker.join()
            reading.close()


def _told(workers: list[tuple[range, Connection, BaseProcess]], total: int,
          progress: Progress | None) -> Iterator[Judged]:
    for span, reading, worker in workers:
        try:
            judged = reading.recv()
        except EOFError:
            worker.join()
            raise WorkerLost(f"the process re-adjudicating commands {span.start}-{span.stop - 1} ended without its "
                             f"verdict (exit status {worker.exitcode}; killed, out of memory?): nothing was judged "
                             "of the log; verify it again, or with --jobs 1 in one process") from None
        if isinstance(judged, str):  # a bug in the worker: its traceback
            raise RuntimeError(f"re-adjudicating commands {span.start}-{span.stop - 1} failed:\n{judged}")
        if progress is not None:
            progress(span.stop, total)
        yield judged


def _judge_into(work: _Work, span: range, writing: Connection) -> None:
    """A worker's whole life: its segment judged and the verdict sent (a failure's traceback, if judging fails)."""
    try:
        judged: Judged | str = _judge(work, span)
    except Exception:  # noqa: BLE001  (any bug: said in the parent, which raises it)
        judged = traceback.format_exc()
    writing.send(judged)
    writing.close()


def _judge(work: _Work, span: range, progress: Progress | None = None) -> Judged:
    """The commands in `span` judged in order from the state before the first: the genesis folded for command 0, else
    the logged events before it folded (the module's docstring says why that is the state the single pass reaches)."""
    adj, loaded, bodies, created, game, seed = work
    history = MemoryHistory(adj.fold, bodies)
    before = max((last for _r, _d, first, last in loaded.commands[: span.start] if first), default=0)
    state = adj.fold.apply(None, bodies[0], history.state_at) if span.start == 0 else history.state_at(before)
    checkpoints = 0
    try:
        for number in span:
            record, _digest, first, last = loaded.commands[number]
            assert record is not None
            stored = bodies[first - 1 : last] if first else []
            at = first or state.core.seq + 1  # where its events begin, or would: a command may have caused none
            # (never its expected_seq, which is in its sender's numbers: a seat's is a command's)
            supply = _supply(game, seed, stored)
            history.upto = state.core.seq
            # The state the engine left, each event folded once; `state` is verification's own, so the engine works
            # on it.
            after: GameState[Any] | None = None
            try:
                if number == 0:
                    produced = adj.open(created, supply, game, history)
                else:
                    done = adj.decide(state, record.seat, record.command, game, history, supply, consume=True,
                                      before=None if game.kind == "transcribed" else partial(history.state_at,
                                                                                             state.core.seq))
                    produced, after = done.events, done.state
            except (Rejected, NeedRandom, ArbitroError) as e:
                found = f"rejected: {e}" if isinstance(e, ArbitroError) else f"needs {unrecorded(e.purpose)}"
                return Judged((Check(name="re-adjudication", status="failed", detail=f"command {number} at #{at}: {found}"),
                               Divergence(seq=at, expected=_events(stored), found=found,
                                          rule=getattr(e, "rule", "arbitro §V.1"))), checkpoints)
            divergence = _compare(stored, produced, at)
            if divergence is not None:
                return Judged((Check(name="re-adjudication", status="failed",
                                     detail=f"command {number} gives different events from #{divergence.seq}"),
                               divergence), checkpoints)
            checkpoints += sum(isinstance(body.event, core.Checkpoint) for body in stored)
            if after is not None:
                state = after
            else:
                for body in stored:
                    state = adj.fold.apply(state, body, history.state_at)
            if progress is not None:
                progress(number + 1, len(loaded.commands))
    except DataError as e:  # the folder a game carries, in a layout or schema this build reads no more
        return Judged(_data_failure(adj, created, e), checkpoints)
    return Judged(None, checkpoints, _unrevealed(adj, created, game, state) if span.stop == len(loaded.commands) else None)


def _unrevealed(adj: Adjudicator, created: core.GameCreated, game: GameContext,
                state: GameState[Any]) -> tuple[str, int, str] | None:
    """Why the game is over, where its seed's (or salt key's) reveal is missing and which, if it ended with one
    unrevealed (arbitro §R.3)."""
    outcome = adj.ruleset.outcome(state.rules)
    if outcome is None:
        return None
    if game.kind == "generated" and may_reveal(created) and state.core.seed is None:
        return outcome.reason, state.core.seq + 1, "seed"
    if created.salted_by_key() and state.core.salt_key is msgspec.UNSET:
        return outcome.reason, state.core.seq + 1, "salt key"
    return None


def _data_failure(adj: Adjudicator, created: core.GameCreated, e: DataError) -> tuple[Check, Divergence]:
    ruleset = adj.ruleset
    found = (f"the data folder this game carries does not load in this build ({ruleset.name} {ruleset.version}; "
             f"the game was made with {created.version}): verify it with a build of {created.version}; {e}")
    return (Check(name="re-adjudication", status="failed", detail=found),
            Divergence(seq=1, expected="the game's data folder read", found=found, rule="arbitro §V.1"))


def _supply(game: GameContext, seed: str | None, stored: list[EventBody[Any]]) -> Supply:
    if game.kind == "transcribed":
        return EnteredSupply(())
    if seed is not None:
        return SeededSupply(seed)
    recorded = iter([
        b.event.values if isinstance(b.event, core.DiceRolled) else b.event.drawn
        for b in stored if isinstance(b.event, (core.DiceRolled, core.ItemsDrawn))
    ])
    return RecordedSupply(recorded)


def _events(bodies: list[EventBody[Any]]) -> list[Any]:
    return [to_builtins(b.event) for b in bodies]


def _compare(stored: list[EventBody[Any]], produced: list[Any], first_seq: int) -> Divergence | None:
    if len(stored) == len(produced) and all(body.event == event for body, event in zip(stored, produced)):
        return None  # the same events, field for field, without building both as plain values (issue 15)
    for offset in range(max(len(stored), len(produced))):
        want = to_builtins(stored[offset].event) if offset < len(stored) else None
        got = to_builtins(produced[offset]) if offset < len(produced) else None
        if want != got:
            rule = (want or {}).get("rule") or (got or {}).get("rule") or (want or got or {}).get("purpose", "")
            return Divergence(seq=first_seq + offset, expected=want or "(no event)", found=got or "(no event)", rule=str(rule))
    return None
