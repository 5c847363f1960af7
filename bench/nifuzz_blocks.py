#!/usr/bin/env python
"""The non-interference fuzzer of Marengo's face-down blocks (marengo §4 "Normalmente, solo il giocatore
proprietario può vedere il fronte dei suoi pezzi"; docs/testing.md "Hidden information"): bench/nifuzz.py's method on
the one hidden thing Marengo has, a tool to run after a change to what a Marengo seat is served, not a test. It
replays a shipped Marengo log and, before each sampled command, plays the command twice: in the recorded game and in
a copy differing in one face-down block's front only, hidden from the other seat (the observer):

- `swap`: two face-down blocks of one zone (on the map or a reinforcement box, §6 (5)) trade fronts (arm and
  strength, a reinforcement's hour with them): each token stands where it stood, what it hides is the other's;
- `strength`: one face-down block's strength another its arm has (§4: a reduced block is replaced by a weaker one).

What the observer is served of the command, and of every decision it leaves pending, walked past as bench/nifuzz.py
walks them (`nifuzz.walked`), must be the same bytes (bench/served.py: log, view, status) up to the first event by
which the rules show a touched block's front (`blocks_revealed`: an assault's leaders, a defensive artillery, a
retreat, a continuation, a road cavalry's attack, a bombardment and its loss, §8-§12; an assault's declaration,
which shows its leaders, §11 (1); `strength_lost`: a block is face up when it loses strength, §4): the two games
are compared up to that event in either, and the reveals are counted by their reason. Where the observer sends,
its legal() and the command's acceptance must agree too; where the blocks' owner sends, a command its changed fronts
refuse (a continuation of a block no longer cavalry) is the owner's to know: not compared.

    .venv/bin/python bench/nifuzz_blocks.py logs/marengo-full.jsonl              # every command
    .venv/bin/python bench/nifuzz_blocks.py logs/marengo-full.jsonl --every 3 --count 6 --seed 2 --answers seeded

Exit status: 0 no difference, 1 some (each a leak to prove with a test in tests/marengo/test_hidden_blocks.py),
2 bad input.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from arbitro.events import marengo as ev  # noqa: E402
from arbitro.events.codec import canonical  # noqa: E402
from arbitro.projections.game import GameState  # noqa: E402
from arbitro.projections.marengo import ELIMINATED, MarengoState  # noqa: E402
from arbitro.projections.views import seat_view  # noqa: E402
from bench.nifuzz import (  # noqa: E402
    Difference, Game, asked_difference, asked_of, observed, play, served_difference, tool_game, tool_parser,
    walked,
)
from bench.served import served  # noqa: E402


@dataclass(frozen=True)
class Perturbation:
    """One fact hidden from the observer changed: its kind (swap, strength), name, the blocks whose fronts it touches,
    and how it changes a state's rules."""
    kind: str
    name: str
    touched: tuple[str, ...]
    mutate: Callable[[MarengoState], None]


@dataclass
class Report:
    """What a run compared: games, the comparisons cut at a reveal (by its reason) and the differences."""
    games: int = 0
    walked: int = 0  # answers played past pending decisions (the larger game's)
    refused: int = 0  # owner's commands its changed fronts refuse: not compared
    revealed: Counter[str] = field(default_factory=Counter)
    found: list[Difference] = field(default_factory=list)


def hidden_blocks(state: MarengoState, owner: str) -> dict[str, list[str]]:
    """`owner`'s face-down blocks by zone (the map's zones and the reinforcement boxes; not the At Start box before
    the draw, nor the eliminated), each zone's in id order."""
    out: dict[str, list[str]] = {}
    for bid, b in sorted(state.blocks.items()):
        if b.side == owner and not b.face_up and b.zone not in ("", "at_start", ELIMINATED):
            out.setdefault(b.zone, []).append(bid)
    return out


def perturbations(state: MarengoState, owner: str, strengths: dict[str, int], rng: random.Random, count: int
                  ) -> list[Perturbation]:
    """Up to `count` of each kind: swaps of two face-down blocks of one zone whose fronts differ, and strengths."""
    swaps, changes = [], []
    for zone, blocks in hidden_blocks(state, owner).items():
        for i, a in enumerate(blocks):
            front_a = (state.blocks[a].arm, state.blocks[a].strength)
            for b in blocks[i + 1:]:
                if (state.blocks[b].arm, state.blocks[b].strength) != front_a:
                    swaps.append(Perturbation("swap", f"{a} <-> {b} ({zone})", (a, b), swap_fronts(a, b)))
            for n in range(1, strengths.get(front_a[0], 0) + 1):
                if n != front_a[1]:
                    changes.append(Perturbation("strength", f"{a} strength {front_a[1]}->{n} ({zone})", (a,),
                                                set_strength(a, n)))
    return rng.sample(swaps, min(count, len(swaps))) + rng.sample(changes, min(count, len(changes)))


def swap_fronts(a: str, b: str) -> Callable[[MarengoState], None]:
    def mutate(s: MarengoState) -> None:
        x, y = s.blocks[a], s.blocks[b]
        (x.arm, x.strength, x.hour), (y.arm, y.strength, y.hour) = (y.arm, y.strength, y.hour), (x.arm, x.strength,
                                                                                                  x.hour)
    return mutate


def set_strength(block: str, n: int) -> Callable[[MarengoState], None]:
    def mutate(s: MarengoState) -> None:
        s.blocks[block].strength = n
    return mutate


def full_strengths(game: Game) -> dict[str, int]:
    """Each arm's greatest strength among the blocks at the game's first position (§4: 1-3 symbols)."""
    out: dict[str, int] = {}
    for b in game.positions[0][3].rules.blocks.values():
        out[b.arm] = max(out.get(b.arm, 0), b.strength)
    return out


def reveal(event: Any, touched: tuple[str, ...]) -> str:
    """The reason a rule shows a touched block's front by `event` ('' none). An assault's declaration shows its
    leaders (marengo §11 (1) "il giocatore deve dichiarare quali di essi saranno al comando, e li scopre": one act;
    its `arm` is theirs), their `blocks_revealed` the event after it."""
    if isinstance(event, ev.BlocksRevealed) and any(f.block in touched for f in event.blocks):
        return event.reason
    if isinstance(event, ev.AssaultDeclared) and any(r.block in touched for r in event.leaders):
        return "assault_leader"
    if isinstance(event, ev.StrengthLost) and event.block in touched:
        return f"strength_lost:{event.reason}"
    return ""


def first_reveal(commands: list[tuple[str, list[Any]]], touched: tuple[str, ...]
                 ) -> tuple[tuple[int, int], str] | None:
    """Where the first event showing a touched block lies among `commands` (command, event), and its reason."""
    for i, (_, events) in enumerate(commands):
        for j, e in enumerate(events):
            if why := reveal(e, touched):
                return (i, j), why
    return None


def cut(commands: list[tuple[str, list[Any]]], at: tuple[int, int]) -> list[tuple[str, list[Any]]]:
    """`commands` up to the event at `at` (excluded); a command left with no event is left out."""
    i, j = at
    out = [*commands[:i], (commands[i][0], commands[i][1][:j])] if i < len(commands) else list(commands)
    return [c for c in out if c[1]]


def compared(game: Game, cmd: int, sender: str, command: dict[str, Any], state: GameState[Any], observer: str,
             p: Perturbation, report: Report, pick: random.Random | None = None) -> None:
    """The differences the observer is served between the recorded game and the one perturbed by `p` (the walk's
    answers drawn from `pick` among those both games list, as `nifuzz.walked` draws them; None: the first)."""
    rs = game.ruleset
    other = game.engine.fold.copy(state)
    p.mutate(other.rules)
    note = (lambda channel, what: report.found.append(Difference(cmd, sender, observer, p.name, channel, what)))
    report.games += 1
    if canonical(seat_view(rs, state, observer)) != canonical(seat_view(rs, other, observer)):
        note("position", "the observer's view of the perturbed position")  # a front served before any command
        return
    if sender == observer and canonical(game.engine.legal(state, sender)) != canonical(game.engine.legal(other,
                                                                                                       sender)):
        note("legal", "listing")
    base, again = play(game, state, sender, command), play(game, other, sender, command)
    if base.result != again.result:
        if sender == observer or "crashed" in (base.result[0], again.result[0]):
            note("result", f"{base.result} vs {again.result}")
        else:
            report.refused += 1
        return
    if base.events is None or again.events is None or base.after is None or again.after is None:
        return
    wa, wb = walked(game, base.after, again.after, pick=pick)
    report.walked += max(len(wa.answers), len(wb.answers))
    a_cmds, b_cmds = [(sender, base.events), *wa.answers], [(sender, again.events), *wb.answers]
    shown = [r for r in (first_reveal(a_cmds, p.touched), first_reveal(b_cmds, p.touched)) if r is not None]
    at = min(shown)[0] if shown else None
    if shown:
        report.revealed[min(shown)[1]] += 1
        a_cmds, b_cmds = cut(a_cmds, at), cut(b_cmds, at)
    # the observer's listings at the questions asked before the reveal (the k-th is asked after command k)
    before = (lambda w: w if at is None else replace(w, asked=w.asked[:at[0]]))
    if (mine := asked_of(before(wa), observer)) != (theirs := asked_of(before(wb), observer)):
        note("legal", asked_difference(mine, theirs))
    if not a_cmds and not b_cmds:
        return
    sa = served(rs, game.engine.fold, state, a_cmds, observer)
    sb = served(rs, game.engine.fold, other, b_cmds, observer)
    if sa != sb:
        for channel, what, _ in served_difference(sa, sb, (), wa.commands != wb.commands):
            note(channel, what)


def fuzz(game: Game, every: int = 1, seed: int = 0, count: int = 3, first: int = 1, last: int | None = None,
         seeded_answers: bool = False) -> Report:
    """Every `every`th command of the log (from `first` to `last`), `count` perturbations of each kind of each
    seat's blocks, seen from the other seat; `seeded_answers`: the walk's answers drawn from `seed` (other branches:
    a defensive artillery fired, a pursuit, another retreat)."""
    rng, report, strengths = random.Random(seed), Report(), full_strengths(game)
    pick = random.Random(f"answers {seed}") if seeded_answers else None
    chosen = [p for p in game.positions if p[0] >= first and (last is None or p[0] <= last)][::every]
    for cmd, sender, command, state, observer, owner in observed(game, chosen):
        for p in perturbations(state.rules, owner, strengths, rng, count):
            compared(game, cmd, sender, command, state, observer, p, report, pick)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = tool_parser(__doc__.split("\n\n")[0], "which blocks are perturbed")
    parser.add_argument("--from", dest="first", type=int, default=1, help="first command number")
    parser.add_argument("--to", dest="last", type=int, default=None, help="last command number")
    parser.add_argument("--count", type=int, default=3, help="perturbations of each kind per command and observer")
    parser.add_argument("--answers", choices=("first", "seeded"), default="first",
                        help="the walk's answers: the first both games list, or one drawn from --seed among them")
    args, game = tool_game(parser, argv, "marengo")
    if game is None:
        return 2
    r = fuzz(game, max(1, args.every), args.seed, args.count, args.first, args.last, args.answers == "seeded")
    shown = ", ".join(f"{why} {n}" for why, n in sorted(r.revealed.items()))
    print(f"{r.games} games compared (a face-down block's front changed); {r.walked} answers walked; "
          f"{r.refused} owner's commands refused by the changed fronts (not compared); compared up to a reveal: "
          f"{r.revealed.total()} ({shown}); {len(r.found)} differences")
    groups = Counter((d.channel, d.what) for d in r.found)
    for (channel, what), n in groups.most_common():
        example = next(d for d in r.found if (d.channel, d.what) == (channel, what))
        print(f"  {channel}: {what} ({n}), e.g. #{example.cmd} {example.sender}->{example.observer} "
              f"{example.changed}")
    return 1 if r.found else 0


if __name__ == "__main__":
    sys.exit(main())
