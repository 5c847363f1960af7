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

The log is cut into chunks (`segments`), claimed in log order by the processes judging, each taking the next one
left as it finishes one (a command's cost is not known before it is judged: a split fixed beforehand left one
process a fifth longer than the other on arrivano-montebello-options); a process folds only the logged events between
its chunks. Every chunk before a claimed one was claimed, and a claimed chunk is judged to its end or its failure:
the verdicts merged in log order hold every chunk up to the first that failed. The
workers are forked (Linux's 'fork') as soon as verification knows what judging needs (`begun`: the chain read, the
seed and salt key found), so that they judge while the verifying process goes on with its own checks (the
commands, salts, build), after which it claims chunks too (issue 15: the critical path). A log whose events are read
from a database (`StoredEvents`) is judged in one process, since a forked child must not use its parent's
connection. A file's events are read in each child through its own handle (exchange_file)."""

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

LEAST_COMMANDS = 64  # a log of fewer than twice as many commands is judged in one process (`segments`): a worker's
# start (fork, fold) would cost more than it saves; each chunk's fewest commands is LEAST_CHUNK
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


class Judging:
    """Re-adjudication begun (`begun`): its chunks claimed in log order by the workers already forked and, from
    `finish`, by this process too; the verdict read in log order by `finish`."""

    def __init__(self, work: _Work, spans: list[range], claims: _Claims, workers: list[_Worker]) -> None:
        self.work, self.spans, self.claims, self.workers = work, spans, claims, workers

    def finish(self, checks: list[Check], progress: Progress | None = None) -> Divergence | None:
        """The set-up checked, the chunks left judged here and the workers' verdicts read, all merged in log order:
        the check appended to `checks` and the first divergence (None if the log is the rules')."""
        adj, loaded, _bodies, created, _game, _seed = self.work
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
        told = _Told(len(loaded.commands), progress)
        verdicts = _judge_claimed(self.work, self.spans, self.claims, told.tick)
        verdicts.update(_told(self.workers, self.spans, told))
        checkpoints, judged = 0, Judged(None, 0)
        for index in range(len(self.spans)):
            if index not in verdicts:
                raise RuntimeError(f"re-adjudicating commands {self.spans[index].start}-{self.spans[index].stop - 1}: "
                                   "no process judged them")  # never: every chunk before a failed one is judged
            judged = verdicts[index]
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


@contextmanager
def begun(adj: Adjudicator, loaded: Loaded, bodies: Sequence[EventBody[Any]], seed: str | None, jobs: int = 1, *,
          salt_key: str | None = None, caused: Sequence[int]) -> Iterator[Judging]:
    """Re-adjudication begun: the log split into chunks for up to `jobs` processes (`segments`; `caused`: the events
    each command caused, by its number, verify_reads.Scan's) and `jobs` - 1 workers forked now, each claiming
    chunks in log order and judging them while this process goes on; it claims the ones left from `finish` on
    (`Judging.finish`), so that its own other work (the commands', salts', build's checks) leaves it fewer. Leaving
    this ends the workers still judging: `finish` was never asked (another check failed) or a chunk failed. `seed`,
    `salt_key`: the revealed ones, each checked against its commitment (the game's end reveals both again as the log
    did)."""
    created = bodies[0].event
    work = _Work(adj, loaded, bodies, created, GameContext.of(created, seed=seed, salt_key=salt_key,
                                                            game_id=loaded.game.id), seed)
    count = jobs if _forkable(loaded) else 1
    spans = segments(caused, count)
    count = min(count, len(spans))
    claims = _Claims(len(spans), shared=count > 1)
    workers: list[_Worker] = []
    try:
        workers += _forked(work, spans, claims, count - 1)
        yield Judging(work, spans, claims, workers)
    finally:
        claims.stop()
        for reading, worker in workers:
            if worker.is_alive():
                worker.terminate()
            worker.join()
            reading.close()


def _failed(checks: list[Check], check: Check, divergence: Divergence) -> Divergence:
    checks.append(check)
    return divergence


def _forkable(loaded: Loaded) -> bool:
    """Whether workers forked from this process may read the log's events: a list, or a file (each child reads it
    through its own handle); not a database's rows (a child must not use its parent's connection)."""
    return isinstance(loaded.events, (list, tuple)) or bool(getattr(loaded.events, "forkable", False))


COMMAND_WEIGHT = 3  # a command's own cost in events' (the fog, the "anything left?" check): judging one costs about
# as much as three of the events it causes on the Arrivano logs (a fit over every command), more on Caldiero's
CHUNK_SHARE = 2  # each chunk weighs the weight still unchunked / (CHUNK_SHARE x the processes)
LEAST_CHUNK = 16  # a chunk's fewest commands: a process taking one after another's folds the events between (a
# thirtieth of judging them), and the last chunk, the longest a process may wait for another, is short


def segments(caused: Sequence[int], jobs: int) -> list[range]:
    """The commands, by the events each caused (`caused`), split in order into chunks for `jobs` processes to claim
    one after another (`_Claims`), each a 1/(CHUNK_SHARE x jobs) share of the weight not yet chunked, so that the
    first are long and the last short (guided self-scheduling): the processes end within a short chunk of each
    other however unevenly the log's cost is spread (a command's cost is not known before it is judged: Arrivano's
    fire commands in montebello's first turns cost ten moves each). A command weighs COMMAND_WEIGHT and each of its
    events one; each chunk ends at the command nearest its share, and none is shorter than LEAST_CHUNK; one chunk
    for `jobs` 1, or for a log shorter than two LEAST_COMMANDS (a worker's start, the fork, costs more than it saves)."""
    if jobs <= 1 or len(caused) < 2 * LEAST_COMMANDS:
        return [range(0, len(caused))]
    weights = [COMMAND_WEIGHT + events for events in caused]
    left, starts, done = sum(weights), [0], 0
    for number, weight in enumerate(weights):
        if (done >= left / (CHUNK_SHARE * jobs) - weight / 2 and number - starts[-1] >= LEAST_CHUNK
                and len(caused) - number >= LEAST_CHUNK):
            starts.append(number)
            left, done = left - done, 0
        done += weight
    return [range(a, b) for a, b in zip(starts, [*starts[1:], len(caused)])]


class _Claims:
    """Which chunk is claimed next, by whichever process asks first: a number in memory the forked workers share,
    under its lock (one process alone: a plain count). Claimed in log order, so that every chunk before a claimed
    one is claimed too; `stop`: none is claimed any more (a chunk failed: those after it need no judging)."""

    def __init__(self, count: int, shared: bool) -> None:
        self.count, self.local = count, 0
        self.shared = multiprocessing.get_context("fork").Value("l", 0) if shared else None

    def next(self) -> int | None:
        if self.shared is None:
            claimed, self.local = self.local, self.local + 1
        else:
            with self.shared.get_lock():
                claimed = self.shared.value
                self.shared.value = claimed + 1
        return claimed if claimed < self.count else None

    def stop(self) -> None:
        if self.shared is None:
            self.local = self.count
        else:
            with self.shared.get_lock():
                self.shared.value = self.count


class _Place:
    """Where a process's judging stands: the state after the last command it judged or folded (None: none yet), the
    number of the command after it, and the log as the undo rules read it."""

    def __init__(self, work: _Work) -> None:
        self.history = MemoryHistory(work.adj.fold, work.bodies)
        self.state: GameState[Any] | None = None
        self.next = 0


_Worker = tuple[Connection, BaseProcess]


def _forked(work: _Work, spans: list[range], claims: _Claims, count: int) -> list[_Worker]:
    """`count` workers forked, each claiming chunks of `spans` at once and sending each one's verdict through its
    pipe."""
    fork = multiprocessing.get_context("fork")
    workers: list[_Worker] = []
    try:
        for _ in range(count):
            reading, writing = fork.Pipe(duplex=False)
            worker = fork.Process(target=_judge_into, args=(work, spans, claims, writing), daemon=True)
            worker.start()
            writing.close()  # the worker's alone: its end, when it dies, is the reader's EOFError
            workers.append((reading, worker))
    except BaseException:
        for reading, worker in workers:
            worker.terminate()
            worker.join()
            reading.close()
        raise
    return workers


class _Told:
    """`progress` told of every command judged here (`tick`) and of every chunk a worker judged (`chunk`), as a count
    that only grows."""

    def __init__(self, total: int, progress: Progress | None) -> None:
        self.total, self.progress, self.done = total, progress, 0

    def tick(self, _number: int, _total: int) -> None:
        self.chunk(1)

    def chunk(self, commands: int) -> None:
        self.done += commands
        if self.progress is not None:
            self.progress(min(self.done, self.total), self.total)


def _judge_claimed(work: _Work, spans: list[range], claims: _Claims,
                   progress: Progress | None = None) -> dict[int, Judged]:
    """Each chunk this process claims judged, by its index, until none is left or one fails (`claims` stopped)."""
    place, verdicts = _Place(work), {}
    while (index := claims.next()) is not None:
        verdicts[index] = judged = _judge(work, spans[index], progress, place)
        if judged.failure is not None:
            claims.stop()
            break
    return verdicts


def _told(workers: list[_Worker], spans: list[range], told: _Told) -> Iterator[tuple[int, Judged]]:
    """Each worker's verdicts, by chunk: a worker sends each chunk's index when it claims it, then the verdict, and
    None when it claims no more."""
    for reading, worker in workers:
        claimed: int | None = None
        while True:
            try:
                sent = reading.recv()
            except EOFError:
                worker.join()
                span = spans[claimed] if claimed is not None else range(0, 0)
                raise WorkerLost(f"the process re-adjudicating commands {span.start}-{span.stop - 1} ended without "
                                 f"its verdict (exit status {worker.exitcode}; killed, out of memory?): nothing was "
                                 "judged of the log; verify it again, or with --jobs 1 in one process") from None
            if sent is None:
                break
            if isinstance(sent, str):  # a bug in the worker: its traceback
                span = spans[claimed] if claimed is not None else range(0, 0)
                raise RuntimeError(f"re-adjudicating commands {span.start}-{span.stop - 1} failed:\n{sent}")
            index, judged = sent
            if judged is None:
                claimed = index
                continue
            told.chunk(len(spans[index]))
            yield index, judged


def _judge_into(work: _Work, spans: list[range], claims: _Claims, writing: Connection) -> None:
    """A worker's whole life: chunks claimed and judged, each chunk's index sent as it is claimed and its verdict
    once judged, then None (a failure's traceback, if judging fails)."""
    place = _Place(work)
    try:
        while (index := claims.next()) is not None:
            writing.send((index, None))
            judged = _judge(work, spans[index], None, place)
            writing.send((index, judged))
            if judged.failure is not None:
                claims.stop()
                break
        writing.send(None)
    except Exception:  # noqa: BLE001  (any bug: said in the parent, which raises it)
        writing.send(traceback.format_exc())
    writing.close()


def _judge(work: _Work, span: range, progress: Progress | None = None, place: _Place | None = None) -> Judged:
    """The commands in `span` judged in order from the state before the first: the genesis folded for command 0, else
    the logged events before it folded (the module's docstring says why that is the state the single pass reaches),
    onto the state `place` holds where it is before them (a process's earlier chunk: only the events between are
    folded). `place` is left after the last command judged."""
    adj, loaded, bodies, created, game, seed = work
    place = place if place is not None else _Place(work)
    history = place.history
    state = _state_before(work, span.start, place)
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
    place.state, place.next = state, span.stop
    return Judged(None, checkpoints, _unrevealed(adj, created, game, state) if span.stop == len(loaded.commands) else None)


def _state_before(work: _Work, number: int, place: _Place) -> GameState[Any]:
    """The state before command `number`: the genesis folded for command 0; else the logged events of the commands
    from where `place` stands (none: from the start) up to it, folded onto its state."""
    adj, loaded, bodies = work.adj, work.loaded, work.bodies
    if number == 0:
        return adj.fold.apply(None, bodies[0], place.history.state_at)
    state, folded = (place.state, place.state.core.seq) if place.state is not None and place.next <= number else (None, 0)
    skipped = loaded.commands[place.next if state is not None else 0 : number]
    before = max((last for _r, _d, first, last in skipped if first), default=folded)
    for body in bodies[folded:before]:
        state = adj.fold.apply(state, body, place.history.state_at)
    assert state is not None
    return state


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
        return SeededSupply(seed, game.roll_keys)
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
