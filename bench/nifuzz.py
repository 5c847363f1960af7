#!/usr/bin/env python
"""The non-interference fuzzer of the Para Bellum fog (docs/engine-rules.md §V.4): a tool to run after a change to
what a seat is served, not a test. It replays a shipped fog log and, before the sampled commands, plays each command
twice: in the recorded game and in a copy of it differing in ONE fact hidden from the observing seat, kept only
where that seat's view shows both alike (a stack out of sight is a marker: caldiero §20.4, arrivano §11.3.2 "si può
esaminare uno stack nemico solo se si ha una LoS"); where it does not, by a key the fog keeps (bench/nifuzz_view.py:
an own or redacted key, not a public one or a marker), the view itself tells the hidden fact (channel `position`).
What the seat is served of the command (its log item, its view, status: bench/served.py) must then be the same
bytes; where the seat is the one sending, so must its legal() and the command's acceptance or refusal.

Two observers at each position: the sender (`self`: a fact of its enemy perturbed; compared: its legal(), the
recorded command's and `--listed` others' results and service) and its enemy (`other`: a fact of the sender's own
perturbed; compared: the enemy's service of the same commands, and of "twin" commands, two of the sender's listed
commands alike but for the hidden pieces or places they name, where the enemy's view after both is alike).

The facts perturbed (one at a time): a unit's status (disordered <-> routed; `--zoc` adds good -> disordered and a
unit moved into or out of a stack's good order, the known limit: `ALLOWED`'s first entry), the turn it moved, acted,
attacked, fired or was activated, its Moved side, its step lost (reduced), Arrivano's F/V marker and a redoubt gun's
damage, Caldiero's turn order and a reserve unit's attachment, two unseen units in different hexes swapped, an
unseen unit moved into another unseen stack, an unseen commander moved to another unseen hex, his own moves' turn
and A side, one to come entered into an unseen stack; what the fog keeps of an enemy unit in sight (Caldiero's
reserve attachment); and the records the enemy keeps that no view serves: Caldiero's hexes tried in a step and
directions released, Arrivano's march orders in force and independent columns' orders and units (but at an
assault declared by one of its units, whose marker shows the order: arrivano §12.2, `declared`); the enemy's
activation's record (an unseen unit out of command or not, its own order) (bench/nifuzz_facts.py). Dice are the
log's own (its revealed seed): both games roll alike.

A difference is a candidate, not a finding: `ALLOWED` lists the differences the books and engine-rules make inherent,
each with its rule and the parts (events, view keys) it may hold, and the report marks them so, each judged on its own
parts (rev-o O4). Every command compared is followed past the decisions it leaves pending (an assault's questions,
a retreat's, an advance's, a fire's, an efficiency value, an escape, a recovery, a rout move, a replacement's hex:
`walked`), each answered in both games alike by one fixed rule, and what the seat is served is compared once both
games wait for nothing (the asked seat's listing compared too where the observer is asked): a difference that shows
only as the answers are played is found, and an inherent wait (the end phase's rout move) is answered in the game
that waits and the rest compared after it. The rest are "unexplained" (exit 1). Each unexplained group is a
leak to prove with a non-interference test (tests/*/test_fog_*.py) or a new entry in `ALLOWED`, with its rule.

    .venv/bin/python bench/nifuzz.py logs/caldiero-tempo-regge-fog.jsonl                 # every 10th command
    .venv/bin/python bench/nifuzz.py logs/arrivano-*.jsonl --every 1 --json out.json     # every command: long
    .venv/bin/python bench/nifuzz.py LOG --from 300 --to 340 --every 1 --seed 3 --per-position 30
    .venv/bin/python bench/nifuzz.py logs/arrivano-campotenese.jsonl --weather 3   # under a box no log reaches

Exit status: 0 no unexplained difference, 1 some, 2 bad input (a log that is not a Para Bellum fog game).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, replace
from itertools import zip_longest
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from arbitro.adjudicator.core_commands import CORE_COMMAND_TYPES  # noqa: E402
from arbitro.adjudicator.engine import Adjudicator, GameContext, NoHistory  # noqa: E402
from arbitro.adjudicator.errors import BadInput, Rejected  # noqa: E402
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset, mentions  # noqa: E402
from arbitro.adjudicator.randomness import SeededSupply  # noqa: E402
from arbitro.adjudicator.service import Arbitro  # noqa: E402
from arbitro.events.codec import canonical  # noqa: E402
from arbitro.events.sqlite import SQLiteStore  # noqa: E402
from arbitro.projections.game import GameState, awaited  # noqa: E402
from arbitro.projections.views import seat_view  # noqa: E402
from bench import nifuzz_view  # noqa: E402
from bench.nifuzz_facts import Perturbation, perturbations  # noqa: E402
from bench.served import served  # noqa: E402


@dataclass(frozen=True)
class Allowed:
    """A difference the rules make inherent: the perturbation kinds it follows, its channels, and every part a
    finding of it may hold (`parts`: a log's differing events as `event_key`s, a view's differing keys), judged on
    that finding's own parts alone (rev-o O4: one channel's difference never explains another's, nor one event the
    next); with the rule. Where the difference is a wait (one game asks a question the other does not), the game that
    waits answers it (`walked`, as every pending decision is) and the two are compared once both have played it, so
    the rest of the turn is compared and not waved through with the wait: the entry holds the wait's own events."""
    kinds: tuple[str, ...]
    channels: tuple[str, ...]
    shows: tuple[str, ...]  # the parts it may hold: an event key (a bare type: any of its keys) or a view key; () any
    why: str
    # what the same comparison must show, one of them (() nothing asked): an event key of its log difference, or
    # `answered:KIND`, a question its walk answered otherwise in the two games (`Fuzzer.compare`'s context). A
    # narrowing, never an explanation by another channel (rev-o O4): the view a replacement's placement changes,
    # only where the owner placed one otherwise (rev-s S2)
    given: tuple[str, ...] = ()


# A rout move's own events as the enemy is served them: its question and the end phase's under it, opened and
# resolved, and the unseen unit's move or stop (stubs: naming the unit is `names:` and fails them)
ROUT_MOVE_SERVED = ("decision_opened[rout_move]", "decision_resolved[rout_move]", "decision_opened[end_phase]",
                    "decision_resolved[end_phase]", "unit_retreated", "rout_stopped", "hidden_stacks")

ALLOWED: tuple[Allowed, ...] = (
    Allowed(("zoc",), ("legal", "result"), (), "engine-rules §V.4 known limit: legal() lists, and the adjudicator "
            "judges, moves by the true ZoC (caldiero §5.1.4, §9.1.2; arrivano the same), so an unseen stack's good "
            "order shows within the movers' reach"),
    Allowed(("swap", "moved_unit", "zoc"), ("view",), ("hidden_stacks",), "a stack's marker is public (caldiero "
            "§20.4, arrivano §11.3.2): a command moving units out of a stack whose units were changed leaves a "
            "marker in one game only"),
    Allowed(("marker",), ("log", "view"), ("dice_rolled[arrivano §13.1]", "open_order_tested", "engine.rolls"),
            "an F unit owes a fatigue test (arrivano §16.3.4): that a roll was made is public by design, its faces "
            "and stack not (engine-rules §V.4, one rule for hidden tests; rev-k K9)"),
    Allowed(("march",), ("log", "view"), ("order_changed[arrivano §17.1.5]", "formations"), "a march order's end "
            "gives its formation Defence (arrivano §17.1.5), an order marker on the table (§5.1; engine-rules §V.4: "
            "order changes are public): where it ends in one game only, the enemy sees the marker turn"),
    Allowed(("released",), ("log",), ("units_moved[caldiero §9.1]",), "a formation's direction of attack bars its "
            "units from one side of the road until it is released (caldiero §19.1.1, §19.1.2 \"non possono muovere "
            "... fino a quando una unità di questa Formazione non è entrata\"): a unit seen walking where only a "
            "released formation may go shows the release, as the table does (the release itself is its side's: "
            "`owner`); a move named by its end walks such a route where the rules let it (#856 of "
            "caldiero-tempo-regge-fog)"),
    Allowed(("status",), ("log", "view"), ROUT_MOVE_SERVED, "a routed unit makes its rout move in the end phase "
            "(arrivano §15.2.2: two hexes away), its marker moving on the table: the game waits for its owner where "
            "a disordered unit's would not (rev-m, sixteenth session: inherent); answered, the rest must agree"),
    Allowed(("leader",), ("log", "view"), ("unit_placed[arrivano §12.8.2]", "hidden_stacks", "units"), "eliminated "
            "units come back \"entro un esagono dal loro Generale di formazione\" (arrivano §12.8.2), where their "
            "owner places them: an unseen general moved offers other hexes (the walk answers each game its own first "
            "where the two listings share none), and a unit placed in the enemy's sight is seen there, telling that "
            "its general stands within one hex, as at the table (§11.3.2); a marker where it comes back unseen "
            "(Montebello #1361, twentieth session's exhaustive run); only where the owner placed one otherwise",
            given=("unit_placed[arrivano §12.8.2]", "answered:replacement_hex")),
)


@dataclass
class Game:
    """A fog log replayed: its ruleset, engine, the context decide needs, and before each command its state."""
    name: str
    ruleset: Any  # a ParaBellumRuleset for this fuzzer (`replayed`); any ruleset for bench/nifuzz_hands.py
    engine: Adjudicator
    context: GameContext
    seed: str
    positions: list[tuple[int, str, dict[str, Any], GameState[Any]]]  # (command number, seat, command, state before)


def replayed(path: Path) -> Game:
    """A Para Bellum fog log replayed (`replay`): refused (ValueError) for another ruleset's log or one without fog."""
    game = replay(path)
    if not isinstance(game.ruleset, ParaBellumRuleset):
        raise ValueError(f"{path}: a {game.ruleset.name} game, not Para Bellum: nothing to fuzz")
    state = game.positions[-1][3] if game.positions else None
    if state is None or not any(game.ruleset.fogged(state.rules, s) for s in game.ruleset.seats(state.rules)):
        raise ValueError(f"{path}: played without the fog of war: nothing is hidden, nothing to fuzz")
    return game


def replayed_as(path: Path, ruleset: str, readings: dict[str, str] | None = None) -> Game:
    """The log replayed (`replay`, under `readings` from its genesis) for a tool fuzzing one ruleset's hidden things
    (bench/nifuzz_hands.py, bench/nifuzz_blocks.py): refused (ValueError, naming why) where it is no file, the import
    refuses it, or it is another ruleset's game."""
    if not path.is_file():
        raise ValueError(f"{path}: no such log")
    game = replay(path, readings)
    if game.ruleset.name != ruleset:
        raise ValueError(f"{path}: a {game.ruleset.name} game, not {ruleset.capitalize()}")
    return game


def tool_parser(description: str, seed_help: str) -> argparse.ArgumentParser:
    """The options every tool fuzzing one ruleset's hidden things takes (bench/nifuzz_hands.py, nifuzz_blocks.py): the
    log, every Nth command, and the sampling's seed (what `seed_help` says it picks)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("log", type=Path)
    parser.add_argument("--every", type=int, default=1, help="fuzz every Nth command")
    parser.add_argument("--seed", type=int, default=0, help=f"the sampling's seed ({seed_help})")
    parser.add_argument("--reading", action="append", default=[], metavar="NAME=VALUE",
                        help="fold the log under this umpire's reading from its genesis (its events unchanged)")
    return parser


@dataclass(frozen=True)
class Difference:
    """One way the two games of a hidden-things fuzzer (bench/nifuzz_hands.py, nifuzz_blocks.py) served the observer
    differently: at which command, whose, seen by whom, what hidden fact was changed (`changed`: the chits swapped,
    a block's perturbation), where it showed and what differed."""

    cmd: int
    sender: str
    observer: str
    changed: str
    channel: str  # position | legal | result | log | view | status
    what: str


def observed(game: Game, positions: Iterable[tuple[int, str, dict[str, Any], GameState[Any]]]
             ) -> Iterator[tuple[int, str, dict[str, Any], GameState[Any], str, str]]:
    """Each of `positions` whose command a playing seat sent (the engine's own left out), once for each seat as the
    observer, the other being the owner of the hidden thing a fuzzer changes: (cmd, sender, command, state,
    observer, owner). For the two-seat games of bench/nifuzz_hands.py and nifuzz_blocks.py."""
    seats = game.ruleset.seats(game.positions[0][3].rules)
    for cmd, sender, command, state in positions:
        if command.get("type") in CORE_COMMAND_TYPES or sender not in seats:
            continue
        for observer in seats:
            yield cmd, sender, command, state, observer, next(s for s in seats if s != observer)


def tool_game(parser: argparse.ArgumentParser, argv: list[str] | None, ruleset: str
              ) -> tuple[argparse.Namespace, Game | None]:
    """A hidden-things fuzzer's options (`tool_parser`'s and its own) and its log replayed as `ruleset`'s game; the
    game None where the log cannot be (no file, refused by the import, another ruleset's), said on stderr: exit 2."""
    args = parser.parse_args(argv)
    try:
        return args, replayed_as(args.log, ruleset, dict(r.split("=", 1) for r in args.reading))
    except ValueError as e:
        print(e, file=sys.stderr)
        return args, None


def replay(path: Path, readings: dict[str, str] | None = None) -> Game:
    """The log imported into a database in memory and folded: the state before each of its commands (any ruleset:
    bench/nifuzz_hands.py replays Monferrato's); a file the import refuses is refused (ValueError), as `replayed`
    refuses a log it cannot fuzz, so that both tools exit 2 on it, naming why. `readings`: umpire's readings put in
    force once the genesis is folded (Monferrato's `discard_pile: face_down`, which no shipped log plays under)."""
    app = Arbitro(SQLiteStore(":memory:"))
    with open(path, encoding="utf-8") as f:
        try:
            game_id = app.import_lines(f, path.stem, seat="umpire")
        except BadInput as e:
            raise ValueError(f"{path}: {e}") from None
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    head = records[0]
    replayer = app.replayer(game_id)
    ruleset = replayer.fold.ruleset
    commands = {r["cmd"]: (r["body"]["seat"], r["body"]["command"]) for r in records if r["record"] == "command"}
    positions, state, last = [], None, None
    for body in replayer.bodies():
        if body.cmd != last and state is not None and body.cmd in commands:
            seat, command = commands[body.cmd]
            positions.append((body.cmd, seat, command, replayer.fold.copy(state)))
        state = replayer.fold.apply(state, body, replayer.state_at)
        if readings and last is None:  # the genesis folded: the readings in force from there on, as a ruling's are
            state.core.interpretations = dict(sorted({**state.core.interpretations, **readings}.items()))
            state.rules = ruleset.note_interpretations(state.rules, dict(state.core.interpretations))
        last = body.cmd
    # the context the service judges the game's commands with (its genesis, seed and salt key): not one made by hand
    return Game(path.stem, ruleset, Adjudicator(ruleset), app.context(app.game(game_id)), head["seed"], positions)


@dataclass
class Played:
    """A command played at a position: accepted (its events and the state after) or refused (its words and rule)."""
    result: tuple[str, ...]
    events: list[Any] | None
    after: GameState[Any] | None


def play(game: Game, state: GameState[Any], seat: str, command: dict[str, Any]) -> Played:
    """`command` judged at `state` (left as it is) with the log's own dice."""
    copy = game.engine.fold.copy(state)
    try:
        done = game.engine.decide(copy, seat, command, game.context, NoHistory(), SeededSupply(game.seed))
    except Rejected as e:
        return Played(("refused", str(e), str(e.rule)), None, None)
    except Exception as e:  # a crash under a perturbed state is a finding too (reported as such)
        return Played(("crashed", f"{type(e).__name__}: {e}"[:300]), None, None)
    return Played(("accepted",), done.events, done.state)


@dataclass
class Finding:
    log: str
    cmd: int
    sender: str
    observer: str
    kind: str  # the perturbation's kind, or "twin"
    perturbation: str
    channel: str  # legal | result | log | view | status | position (the perturbed position's own view)
    what: str  # the differing event types (log), command types (legal), refusal rule (result), ...
    command: str
    detail: str
    allowed: str = ""  # the rule that makes it inherent (ALLOWED), "" unexplained


KEY = re.compile(r"[^\s\[]+(?:\[[^\]]*\])?")  # one part of a finding's `what`: a word, or an event key


def explain(f: Finding, context: str = "") -> str:
    """The rule that makes the difference inherent (`ALLOWED`): an entry of its kind and channel holding every part
    of its own `what` (and, where the entry asks it, one of its `given` among the parts of `context`: the same
    comparison's log difference and the questions it answered otherwise, `Fuzzer.compare`); or '': unexplained."""
    parts, shown_too = KEY.findall(f.what), KEY.findall(context)
    for a in ALLOWED:
        if f.kind in a.kinds and f.channel in a.channels and (not a.shows or all(shown(x, a.shows) for x in parts)) \
                and (not a.given or any(shown(x, a.given) for x in shown_too)):
            return a.why
    return ""


def shown(part: str, shows: tuple[str, ...]) -> bool:
    """Whether `part` is one of `shows`: the same key, or a key of a type `shows` names bare."""
    return part in shows or part.split("[")[0] in shows


def event_key(e: dict[str, Any]) -> str:
    """A served event as a part of a difference: its type, with a decision's kind, else its rule or a roll's purpose
    (a purpose not cut to its rule names the hex: a part no entry shows)."""
    data = e.get("event") if isinstance(e.get("event"), dict) else e
    kind = data.get("kind") or (data.get("frame") or {}).get("kind")
    return f"{data.get('type', e.get('type'))}[{kind or data.get('rule') or data.get('purpose') or ''}]"


def served_difference(a: bytes, b: bytes, touched: tuple[str, ...] = (), answered: bool = False
                      ) -> list[tuple[str, str, str]]:
    """Where two services differ: (channel, what, detail) for the log's events, the view, status. `what` lists the
    parts (`event_key`s; `names:P` where a differing event names the touched piece P, hidden from the seat in both);
    where the two games answered their waits differently the items differ by the answers (public commands): their
    events are compared alone."""
    (log_a, view_a, status_a), (log_b, view_b, status_b) = json.loads(a), json.loads(b)
    out = []
    ev_a = [e for item in log_a for e in item.get("events", [])]
    ev_b = [e for item in log_b for e in item.get("events", [])]
    if nifuzz_view.differs(ev_a, ev_b) if answered else nifuzz_view.differs(log_a, log_b):
        only_a, only_b = beyond(ev_a, ev_b), beyond(ev_b, ev_a)
        keys = {event_key(e) for e in only_a + only_b}
        keys |= {f"names:{t}" for t in touched if mentions(only_a + only_b, {t})}
        out.append(("log", " ".join(sorted(keys)) or "(order or links)",
                    f"only in one: {json.dumps(only_a)} | other: {json.dumps(only_b)}"))
    if nifuzz_view.differs(view_a, view_b):
        out.append(("view", " ".join(nifuzz_view.differing_keys(view_a, view_b)) or "seat", ""))
    if nifuzz_view.differs(status_a, status_b):
        out.append(("status", "awaiting/notices", f"{json.dumps(status_a)} | {json.dumps(status_b)}"))
    return out


def beyond(events: list[Any], others: list[Any]) -> list[Any]:
    """The events of `events` that `others` has fewer of (a second rout move's frame is the first's bytes again)."""
    spare = Counter(canonical(e) for e in others)
    out = []
    for e in events:
        if spare[key := canonical(e)] > 0:
            spare[key] -= 1
        else:
            out.append(e)
    return out


# The answers walked past the decisions a command leaves pending: an assault's questions, a retreat's or an
# advance's choice, an efficiency value, a recovery, an escape, a rout move, a replacement's hex ... (enough for the
# longest assault of the fog logs, a defensive fire, two retreats and an advance, with room to spare)
WALK = 16


@dataclass
class Walk:
    """One game walked past its pending decisions: each answer (its seat and events, and its command for lockstep),
    the state after the command and after each answer (a touched piece must stay hidden in all of them), and each
    question's listing (kind, seat, its answers canonical) for the asked seat's legal() compared."""
    after: GameState[Any]
    answers: list[tuple[str, list[Any]]]
    commands: list[bytes]
    states: list[GameState[Any]]
    asked: list[tuple[str, str, bytes]]
    stuck: str = ""  # why the walk stopped with a decision pending: "" it ended, or the limit, or no answer played


def asked(game: Game, state: GameState[Any]) -> tuple[str, str, list[dict[str, Any]]] | None:
    """The decision `state` waits for: its kind, the seat asked (the first of the frame's seats listing an answer)
    and that seat's answers in canonical order; None where nothing is pending or no seat is listed one."""
    top = awaited(state.core)
    if top is None:
        return None
    for seat in top.seats:
        listed = sorted((c for c in game.engine.legal(state, seat) if c.get("type") not in CORE_COMMAND_TYPES),
                        key=canonical)
        if listed:
            return top.kind, seat, listed
    return None


def walked(game: Game, after_a: GameState[Any], after_b: GameState[Any], limit: int = WALK,
           pick: random.Random | None = None) -> tuple[Walk, Walk]:
    """Two games walked past every decision pending after the command, in step, answered by one fixed rule, both games
    alike: the asked seat's first listed answer (canonical order) that both games list, else each its own first (a
    rout move's on-map lines before off-map ones); with `pick` (`--answers seeded`), one of those both list drawn
    from it instead, the same in both games, so that long runs walk other branches. A game no longer waiting
    stands while the other answers, and so does one whose question the other game asks after a wait of its own (the
    other's rout move, answered first: `extra`), so that the two games put the same question alike; each answer is a
    command of its seat, as at the table."""
    walks = (Walk(after_a, [], [], [after_a], []), Walk(after_b, [], [], [after_b], []))
    for _ in range(limit):
        questions = [asked(game, w.after) if not w.stuck else None for w in walks]
        if questions == [None, None]:
            break
        a, b = questions
        if a and b and a[:2] != b[:2]:  # one game waits where the other does not: that wait first, alone
            questions = [a, None] if extra(game, walks[0].after, a, b) else \
                [None, b] if extra(game, walks[1].after, b, a) else questions
            a, b = questions
        common = [c for c in a[2] if c in b[2]] if a and b and a[1] == b[1] else []
        if pick is not None and len(common) > 1:
            common.insert(0, common.pop(pick.randrange(len(common))))
        for w, q in zip(walks, questions):
            if q is not None:
                w.asked.append((q[0], q[1], canonical(q[2])))
                answer(game, w, q[1], common + [c for c in q[2] if c not in common])
    for w in walks:
        if not w.stuck and awaited(w.after.core) is not None:
            w.stuck = "limit" if asked(game, w.after) else "no seat listed an answer"
    return walks


def extra(game: Game, state: GameState[Any], question: tuple[str, str, list[dict[str, Any]]],
          other: tuple[str, str, list[dict[str, Any]]]) -> bool:
    """Whether `question` is a wait of this game's alone: answered (its first answer), the game asks what the other
    game asks now (the same kind, of the same seat)."""
    done = play(game, state, question[1], question[2][0])
    after = asked(game, done.after) if done.after is not None else None
    return after is not None and after[:2] == other[:2]


def answer(game: Game, walk: Walk, seat: str, choices: list[dict[str, Any]]) -> None:
    """`walk` answered by the first of `choices` its game accepts (a listed answer refused is the listing's own
    finding, not the fuzzer's to judge here: the next one is tried, three at most)."""
    for command in choices[:3]:
        done = play(game, walk.after, seat, command)
        if done.events is not None and done.after is not None:
            walk.answers.append((seat, done.events))
            walk.commands.append(canonical([seat, command]))
            walk.after = done.after
            walk.states.append(done.after)
            return
    walk.stuck = f"no listed answer of {seat} accepted"


class Fuzzer:
    """The comparisons at each position of one game, and the differences they found."""

    def __init__(self, game: Game, rng: random.Random, listed: int, per_position: int, zoc: bool,
                 kinds: frozenset[str] | None = None, pick: random.Random | None = None) -> None:
        self.game, self.rng, self.listed, self.per_position, self.zoc = game, rng, listed, per_position, zoc
        self.pick = pick  # the walk's answers drawn from this where both games list several (None: the first)
        self.kinds = kinds  # the perturbation kinds tried (None: all), "twin" among them
        self.findings: list[Finding] = []
        self.checked = 0
        self.walked = 0  # answers played past the decisions the compared commands left pending (the larger game's)
        self.seen = 0  # comparisons dropped as a touched piece came into the observer's sight
        # comparisons whose walk stopped with a decision pending, by why (`Walk.stuck`: its limit, no seat listed an
        # answer, or a listed answer refused: the listing's own finding, shown in the report to be judged)
        self.stuck: Counter[str] = Counter()

    def note(self, cmd: int, sender: str, observer: str, p: Perturbation | None, channel: str, what: str,
             command: dict[str, Any] | str, detail: str = "", context: str = "") -> None:
        kind, name = (p.kind, p.name) if p else ("twin", "two commands alike but for hidden names")
        f = Finding(self.game.name, cmd, sender, observer, kind, name, channel, what,
                    command if isinstance(command, str) else json.dumps(command, sort_keys=True), detail)
        f.allowed = explain(f, context)  # `context`: what the same comparison shows besides (`Allowed.given`)
        self.findings.append(f)

    def position(self, cmd: int, sender: str, command: dict[str, Any], state: GameState[Any]) -> None:
        g, rs = self.game, self.game.ruleset
        seats = rs.seats(state.rules)
        if sender not in seats or command.get("type") in CORE_COMMAND_TYPES:
            return
        enemy = next(s for s in seats if s != sender)
        legal = g.engine.legal(state, sender)
        listed = [c for c in legal if c != command]
        sample = [command] + self.rng.sample(listed, min(self.listed, len(listed)))
        played = {json.dumps(c, sort_keys=True): play(g, state, sender, c) for c in sample}
        for observer in (sender, enemy):
            if rs.fogged(state.rules, observer):
                self.perturbed(cmd, sender, observer, state, played, canonical(legal) if observer == sender else b"")
        if rs.fogged(state.rules, enemy) and (self.kinds is None or "twin" in self.kinds):
            self.twins(cmd, sender, enemy, state, [command] + listed)

    def perturbed(self, cmd: int, sender: str, observer: str, state: GameState[Any], played: dict[str, Played],
                  legal: bytes) -> None:
        """`observer`'s service of the `played` commands (and, where it sends them, its `legal` listing and their
        answers) in games differing from `state` in one fact hidden from it, at most `per_position` of them."""
        g, rs = self.game, self.game.ruleset
        view = seat_view(rs, state, observer)
        found = [p for p in perturbations(g.ruleset, state.rules, observer, self.rng, self.zoc)
                 if self.kinds is None or p.kind in self.kinds]
        kept = 0
        for p in self.rng.sample(found, len(found)):
            if kept >= self.per_position:
                break
            other = g.engine.fold.copy(state)
            p.mutate(other.rules)
            if nifuzz_view.differs(seen := seat_view(rs, other, observer), view):
                # made in sight where the table shows it to all (a public key); a hidden fact the seat's own or
                # redacted keys show is the view's leak (bench/nifuzz_view.py)
                if kept_keys := nifuzz_view.kept_keys(view, seen):
                    kept += 1
                    self.checked += 1
                    self.note(cmd, sender, observer, p, "position", " ".join(kept_keys), "",
                              "the observer's view of the perturbed position, before any command")
                continue
            kept += 1
            self.checked += 1
            if observer == sender and (listing := canonical(g.engine.legal(other, sender))) != legal:
                self.note(cmd, sender, observer, p, "legal", legal_difference(legal, listing), "")
            for key, base in played.items():
                self.compare(cmd, sender, observer, p, state, other, json.loads(key), base)

    def compare(self, cmd: int, sender: str, observer: str, p: Perturbation, state: GameState[Any],
                other: GameState[Any], command: dict[str, Any], base: Played) -> None:
        g, rs = self.game, self.game.ruleset
        if set(p.declared) & set(command.get("attackers") or ()):
            self.seen += 1
            return  # an assault declared with one of them: its marker shows the fact at the table (arrivano §12.2)
        again = play(g, other, sender, command)
        if observer == sender and base.result != again.result:
            rule = (again.result if again.result[0] != "accepted" else base.result)[-1]
            self.note(cmd, sender, observer, p, "result", rule, command, f"{base.result} vs {again.result}")
            return
        if again.result[0] == "crashed":
            self.note(cmd, sender, observer, p, "result", "crashed", command, again.result[1])
        if base.events is None or again.events is None or base.after is None or again.after is None:
            return
        wa, wb = walked(g, base.after, again.after, pick=self.pick)  # the rest of the turn's decisions, answered alike
        if any(t not in rs.hidden_pieces(s.rules, observer) for t in p.touched for s in wa.states + wb.states):
            self.seen += 1
            return  # a touched piece came into sight: the difference is what it sees
        self.walked += max(len(wa.answers), len(wb.answers))
        if wa.stuck or wb.stuck:
            self.stuck[wa.stuck or wb.stuck] += 1
        answered = answered_otherwise(wa, wb)
        if (mine := asked_of(wa, observer)) != (theirs := asked_of(wb, observer)):
            self.note(cmd, sender, observer, p, "legal", asked_difference(mine, theirs), command,
                      "the observer's answers to a decision the command left pending", " ".join(answered))
        a = served(rs, g.engine.fold, state, [(sender, base.events), *wa.answers], observer)
        b = served(rs, g.engine.fold, other, [(sender, again.events), *wb.answers], observer)
        if a != b:
            diffs = served_difference(a, b, p.touched, wa.commands != wb.commands)
            context = " ".join([*(what for channel, what, _ in diffs if channel == "log"), *answered])
            for channel, what, detail in diffs:
                self.note(cmd, sender, observer, p, channel, what, command, detail, context)

    def twins(self, cmd: int, sender: str, enemy: str, state: GameState[Any], listed: list[dict[str, Any]]) -> None:
        """Two of the sender's listed commands alike but for the pieces and places hidden from the enemy that they
        name, whose results the enemy's view shows alike, must serve it the same log."""
        g, rs = self.game, self.game.ruleset
        hidden = rs.hidden_units(state.rules, enemy)  # a commander's name is public (his formation's), his place not
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for c in listed:
            masked, named = masked_command(c, hidden, lambda v: bool(rs.unexaminable(state.rules, enemy, [v])))
            if named:
                groups[masked].append(c)
        for twins in groups.values():
            if len(twins) < 2:
                continue
            a, b = self.rng.sample(twins, 2)
            pa, pb = play(g, state, sender, a), play(g, state, sender, b)
            if pa.events is None or pb.events is None or pa.after is None or pb.after is None:
                continue
            self.checked += 1
            wa, wb = walked(g, pa.after, pb.after, pick=self.pick)
            sa = served(rs, g.engine.fold, state, [(sender, pa.events), *wa.answers], enemy)
            sb = served(rs, g.engine.fold, state, [(sender, pb.events), *wb.answers], enemy)
            if sa == sb:
                continue
            diffs = served_difference(sa, sb, answered=wa.commands != wb.commands)
            if any(channel != "log" for channel, _, _ in diffs):
                continue  # the results look different at the table: not twins
            pair = f"{json.dumps(a, sort_keys=True)} / {json.dumps(b, sort_keys=True)}"
            for channel, what, detail in diffs:
                self.note(cmd, sender, enemy, None, channel, what, pair, detail)


def answered_otherwise(a: Walk, b: Walk) -> list[str]:
    """`answered:KIND` for each question the two walks answered otherwise (or one of them alone), by its kind."""
    out: set[str] = set()
    for x, y in zip_longest(zip(a.asked, a.commands), zip(b.asked, b.commands)):
        if x is None or y is None or x[1] != y[1]:
            out |= {f"answered:{q[0][0]}" for q in (x, y) if q is not None}
    return sorted(out)


def asked_of(walk: Walk, seat: str) -> list[tuple[str, str, bytes]]:
    """The questions of `walk` put to `seat`, each with the answers it was listed."""
    return [q for q in walk.asked if q[1] == seat]


def asked_difference(a: list[tuple[str, str, bytes]], b: list[tuple[str, str, bytes]]) -> str:
    """Where two walks put their questions to the seat differently, at the first that differs: the answer types its
    listings differ in, or `kind[asked]` for a question one walk asks and the other does not (or asks another)."""
    for qa, qb in zip_longest(a, b):
        if qa == qb:
            continue
        if qa and qb and qa[0] == qb[0]:
            return legal_difference(qa[2], qb[2]) or f"{qa[0]}[asked]"
        return " ".join(sorted({f"{q[0]}[asked]" for q in (qa, qb) if q}))
    return ""


def legal_difference(a: bytes, b: bytes) -> str:
    la, lb = {canonical(c) for c in json.loads(a)}, {canonical(c) for c in json.loads(b)}
    return " ".join(sorted({json.loads(c).get("type", "?") for c in la ^ lb}))


def masked_command(command: Any, hidden: set[str], unseen_place: Callable[[str], bool]) -> tuple[str, bool]:
    """`command` with every hidden piece and unexaminable place it names as '?', and whether it names one."""
    named = False

    def mask(v: Any) -> Any:
        nonlocal named
        if isinstance(v, str) and (v in hidden or unseen_place(v)):
            named = True
            return "?"
        if isinstance(v, dict):
            return {k: mask(x) for k, x in v.items()}
        if isinstance(v, list):
            return [mask(x) for x in v]
        return v
    return json.dumps(mask(command), sort_keys=True), named


def report(findings: list[Finding], checked: int, out: Any, walked: int = 0, seen: int = 0,
           stuck: Counter[str] | None = None) -> int:
    """The table by (channel, what), unexplained first; returns how many groups are unexplained."""
    groups: dict[tuple[str, str, str], list[Finding]] = defaultdict(list)
    for f in findings:
        groups[(f.channel, f.what, f.allowed)].append(f)
    unexplained = sum(1 for k in groups if not k[2])
    stuck = stuck or Counter()
    why = "".join(f"; {reason}: {n}" for reason, n in sorted(stuck.items()))
    print(f"{checked} perturbed games compared; {len(findings)} differences in {len(groups)} groups, "
          f"{unexplained} unexplained; {walked} answers walked past pending decisions, {seen} games dropped as a "
          f"perturbed piece came into sight, {stuck.total()} walks stopped with a decision pending{why}", file=out)
    for (channel, what, allowed), fs in sorted(groups.items(), key=lambda kv: (bool(kv[0][2]), -len(kv[1]))):
        kinds = ",".join(sorted({f.kind for f in fs}))
        verdict = "ALLOWED" if allowed else "UNEXPLAINED"
        print(f"\n{verdict}  {channel}: {what}  ({len(fs)}; perturbed: {kinds})", file=out)
        if allowed:
            print(f"  why: {allowed}", file=out)
        for f in fs[:3]:
            print(f"  {f.log} #{f.cmd} {f.sender}->{f.observer} {f.perturbation}: {f.command[:160]}", file=out)
            if f.detail:
                print(f"    {f.detail[:500]}", file=out)
    return unexplained


def under_weather(game: Game, box: int | None) -> Game:
    """`game` with the weather box of every position set to `box` (None: as played), a public fact both compared
    games share: Campotenese's Tormenta (3), where a Neapolitan unit's efficiency rests on its order (arrivano
    §17.2.7), which the fog may hide (§5.3), and where no unit has a ZoC, is reached by no shipped log (the Bufera, 2,
    from arrivano-campotenese's #654 on), nor the Bufera before that."""
    if box is None:
        return game
    positions = []
    for cmd, seat, command, state in game.positions:
        copy = game.engine.fold.copy(state)
        copy.rules.weather = box
        positions.append((cmd, seat, command, copy))
    return replace(game, name=f"{game.name} (weather {box})", positions=positions)


def fuzz(game: Game, every: int = 10, first: int = 1, last: int | None = None, seed: int = 0, listed: int = 2,
         per_position: int = 12, zoc: bool = False, progress: bool = False,
         kinds: frozenset[str] | None = None, seeded_answers: bool = False) -> Fuzzer:
    """Fuzz the replayed log `game` (every `every`th command from `first` to `last`): the differences found.
    `seeded_answers`: the walk's answers drawn (from `seed`) among those both games list, not the first."""
    pick = random.Random(f"answers {seed}") if seeded_answers else None
    fuzzer = Fuzzer(game, random.Random(seed), listed, per_position, zoc, kinds, pick)
    chosen = [p for p in game.positions if p[0] >= first and (last is None or p[0] <= last)][::every]
    started = time.monotonic()
    for n, (cmd, seat, command, state) in enumerate(chosen, 1):
        known = len(fuzzer.findings)
        fuzzer.position(cmd, seat, command, state)
        for f in fuzzer.findings[known:] if progress else ():
            if not f.allowed:  # as found: a long run's findings can be looked into before it ends
                print(f"  unexplained #{f.cmd} {f.sender}->{f.observer} {f.perturbation}: {f.channel} {f.what}",
                      file=sys.stderr, flush=True)
        if progress and (n % 10 == 0 or n == len(chosen)):
            print(f"{game.name}: {n}/{len(chosen)} commands, {fuzzer.checked} games, {len(fuzzer.findings)} "
                  f"differences, {fuzzer.walked} answers walked, {time.monotonic() - started:.0f} s",
                  file=sys.stderr, flush=True)
    return fuzzer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", nargs="+", type=Path)
    parser.add_argument("--every", type=int, default=10, help="fuzz every Nth command (1: all)")
    parser.add_argument("--from", dest="first", type=int, default=1, help="first command number")
    parser.add_argument("--to", dest="last", type=int, default=None, help="last command number")
    parser.add_argument("--seed", type=int, default=0, help="the sampling's seed (which perturbations, commands)")
    parser.add_argument("--listed", type=int, default=2, help="listed commands played beside the recorded one")
    parser.add_argument("--per-position", type=int, default=12, help="perturbations kept per position and observer")
    parser.add_argument("--zoc", action="store_true", help="also good -> disordered (the known ZoC limit)")
    parser.add_argument("--kinds", help="only these perturbation kinds, comma-separated (twin for the twin commands)")
    parser.add_argument("--json", type=Path, help="write every difference found to this file")
    parser.add_argument("--answers", choices=("first", "seeded"), default="first",
                        help="how the walk past pending decisions answers: the first answer both games list, or one "
                             "drawn from --seed among them (other branches)")
    parser.add_argument("--weather", type=int, help="play every position under this weather box (both games alike)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    findings, checked, walked, seen, stuck = [], 0, 0, 0, Counter[str]()
    for path in args.logs:
        if not path.is_file():
            print(f"{path}: no such log", file=sys.stderr)
            return 2
        try:
            kinds = frozenset(args.kinds.split(",")) if args.kinds else None
            fuzzer = fuzz(under_weather(replayed(path), args.weather), max(1, args.every), args.first, args.last, args.seed, args.listed,
                          args.per_position, args.zoc, not args.quiet, kinds, args.answers == "seeded")
        except ValueError as e:
            print(e, file=sys.stderr)
            return 2
        findings += fuzzer.findings
        checked, walked, seen = checked + fuzzer.checked, walked + fuzzer.walked, seen + fuzzer.seen
        stuck += fuzzer.stuck
    if args.json:
        args.json.write_text(json.dumps([{**asdict(f), "detail": f.detail[:3000]} for f in findings], indent=1))
    return 1 if report(findings, checked, sys.stdout, walked, seen, stuck) else 0


if __name__ == "__main__":
    sys.exit(main())
