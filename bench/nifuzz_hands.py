#!/usr/bin/env python
"""The non-interference fuzzer of Monferrato's hands and chit cup (monferrato §4 "distribuitene quattro (4) coperti",
§5 2, §5.1; docs/testing.md "Hidden information"): bench/nifuzz.py's method on the one hidden thing Monferrato has, a
tool to run after a change to what a Monferrato seat is served, not a test. It replays a shipped Monferrato log and,
before the sampled commands, plays each command twice: in the recorded game and in a copy where one chit of a seat's
hand (not one dealt openly, not one the command names) is swapped with one of the chit cup, both hidden from the
other seat (the observer). What the observer is served of the command, and of every decision it leaves pending,
walked past as bench/nifuzz.py walks them (a response asked of a hand, a discard at five: `nifuzz.walked`), must be
the same bytes (bench/served.py: log, view, status); where the observer sends, so must its legal() and the command's
acceptance. Where the hand's owner sends, a command its changed hand refuses (a mandatory chit now in it, §16.1) is
the owner's to know: not compared; nor, past its listing, the observer's own draw (§5 2): it draws from the cup the
swap changed, and the chit it draws is its to see.

    .venv/bin/python bench/nifuzz_hands.py logs/monferrato-full.jsonl              # every command
    .venv/bin/python bench/nifuzz_hands.py logs/monferrato-full.jsonl --every 5 --swaps 4 --seed 2
    .venv/bin/python bench/nifuzz_hands.py logs/monferrato-full.jsonl --reading discard_pile=face_down

Exit status: 0 no difference, 1 some (each a leak to prove with a test in tests/monferrato/test_hidden.py), 2 bad input.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from arbitro.events.codec import canonical  # noqa: E402
from arbitro.projections.game import GameState  # noqa: E402
from arbitro.projections.monferrato import CUP, face_down  # noqa: E402
from bench.nifuzz import (  # noqa: E402
    Difference, Game, asked_difference, asked_of, observed, play, served_difference, tool_game, tool_parser,
    walked,
)
from bench.served import served  # noqa: E402


def swaps(state: GameState[Any], owner: str, command: dict[str, Any], rng: random.Random, count: int
          ) -> list[tuple[str, str]]:
    """Up to `count` (hidden chit, cup chit) pairs of `owner`'s hidden chits and the cup's, none the command names:
    the chits of its hand, and under `discard_pile: face_down` those it laid face down and the cup's shed ones (§5 2,
    §16.4: `laid_face_down`, hidden from the observer too)."""
    rules, named = state.rules, json.dumps(command)
    laid = [c for who in (owner, CUP) for c in rules.laid_face_down.get(who, [])] if face_down(rules) else []
    hidden = [c for c in [*rules.hands.get(owner, []), *laid]
              if c not in rules.public_in_hand and f'"{c}"' not in named]
    cup = [c for c in rules.chit_cup if f'"{c}"' not in named]
    pairs = [(h, c) for h in hidden for c in cup]
    return rng.sample(pairs, min(count, len(pairs)))


def swapped(game: Game, state: GameState[Any], owner: str, pair: tuple[str, str]) -> GameState[Any]:
    """`state` with `pair`'s hidden chit in the cup and its cup chit in its place: `owner`'s hand, or the discards
    and the list of those laid face down."""
    other = game.engine.fold.copy(state)
    rules = other.rules
    places = [rules.hands[owner], rules.discards, *rules.laid_face_down.values()]
    for chits in places:
        if pair[0] in chits:
            chits[chits.index(pair[0])] = pair[1]
    rules.chit_cup[rules.chit_cup.index(pair[1])] = pair[0]
    return other


def compared(game: Game, cmd: int, sender: str, command: dict[str, Any], state: GameState[Any], observer: str,
             pair: tuple[str, str], owner: str) -> list[Difference]:
    """The differences the observer is served between the recorded game and the one with `pair` swapped."""
    rs, other = game.ruleset, swapped(game, state, owner, pair)
    note = (lambda channel, what: Difference(cmd, sender, observer, f"{pair[0]} <-> {pair[1]}", channel, what))
    out = []
    if sender == observer:
        mine, theirs = (canonical(game.engine.legal(s, sender)) for s in (state, other))
        if mine != theirs:
            out.append(note("legal", "listing"))
        if command.get("type") == "draw_chit":  # its own draw, from the cup the swap changed: its chit is its own
            return out  # to see (§5 2 "pesca un chit"), whichever the cup gave (inherent)
    base, again = play(game, state, sender, command), play(game, other, sender, command)
    if base.result != again.result:
        return out + [note("result", f"{base.result} vs {again.result}")] if sender == observer else out
    if base.events is None or again.events is None or base.after is None or again.after is None:
        return out
    wa, wb = walked(game, base.after, again.after)
    if (mine := asked_of(wa, observer)) != (theirs := asked_of(wb, observer)):
        out.append(note("legal", asked_difference(mine, theirs)))  # the answer types, or `kind[asked]`
    a = served(rs, game.engine.fold, state, [(sender, base.events), *wa.answers], observer)
    b = served(rs, game.engine.fold, other, [(sender, again.events), *wb.answers], observer)
    if a != b:
        out += [note(channel, what) for channel, what, _ in served_difference(a, b, (), wa.commands != wb.commands)]
    return out


def fuzz(game: Game, every: int = 1, seed: int = 0, count: int = 2) -> tuple[int, list[Difference]]:
    """Every `every`th command of the log, `count` swaps of each seat's hand seen from the other: (games compared,
    differences)."""
    rng, games, found = random.Random(seed), 0, []
    for cmd, sender, command, state, observer, owner in observed(game, game.positions[::every]):
        for pair in swaps(state, owner, command, rng, count):
            games += 1
            found += compared(game, cmd, sender, command, state, observer, pair, owner)
    return games, found


def main(argv: list[str] | None = None) -> int:
    parser = tool_parser(__doc__.split("\n\n")[0], "which chits are swapped")
    parser.add_argument("--swaps", type=int, default=2, help="swaps tried per command and observer")
    args, game = tool_game(parser, argv, "monferrato")
    if game is None:
        return 2
    games, found = fuzz(game, max(1, args.every), args.seed, args.swaps)
    print(f"{games} games compared (a hidden chit, in a hand or face down, swapped with a cup chit); "
          f"{len(found)} differences")
    for d in found[:40]:
        print(f"  #{d.cmd} {d.sender}->{d.observer} {d.changed}: {d.channel} {d.what}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
