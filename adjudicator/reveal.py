"""The engine's acts of arbitro §R.3: the umpire's reveal of the seed, the game's end revealing its seed and its
salt key (events.random), and a fork's record in its parent. The engine (adjudicator/engine.py) calls them with
the game's secrets as its GameContext holds them, passed by value, so that nothing here imports the engine."""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator import core_commands as cc
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import core
from arbitro.projections.base import UMPIRE
from arbitro.projections.game import GameState

R_REVEAL = "arbitro §R.3"
# What a reveal before the end exposes, said to the umpire, who must accept it (`expose_hidden`): every roll and draw
# is a function of the seed (§R.1), those a seat was served without their faces included (a die rolled out of its
# sight, a private draw: a hand; rev-p's guard tests). A game with a salt key keeps its salts, so its unseen moves
# and positions, closed (events.random, §V.3); one made before the key was salted by its seed and opens everything.
EXPOSES = {
    "salt key": "every seat then recomputes every roll and draw made so far, those hidden from it included (a die "
                "rolled out of its sight, a private draw: a hand); the salts derive from the game's salt key, which "
                "only its end reveals, so unseen moves and positions stay hidden",
    "seed": "this game was made before salts had a key of their own, so a reveal before its end shows every seat "
            "everything hidden from it so far: each event's salt derives from the seed, so with the seed a seat "
            "can test guesses against the hash of every event it was served redacted (unseen moves, hidden faces, "
            "hands; arbitro §V.3), and every hidden roll and draw",
}
EXPOSED = "a reveal before the game's end: {}"  # EXPOSES' entry, as a refusal and a reveal's answer say it
EXPOSES_HIDDEN = (
    EXPOSED + ". To settle a dispute over one roll, `arbitro roll GAME SEQ` explains it "
    "without the seed. If the dispute needs the seed all the same, send expose_hidden: true (`arbitro reveal GAME "
    "--expose-hidden`)")


def exposure(salted_by_seed: bool) -> str:
    """Which of EXPOSES a reveal before the end makes: a game salted by its seed (made before the salt key) opens
    every hidden fact, one with a salt key every hidden roll and draw only."""
    return "seed" if salted_by_seed else "salt key"


def reveal_seed(ctx: Decision[Any], state: GameState[Any], command: cc.RevealSeed, seed: str | None,
                no_seed_reason: str, salted_by_seed: bool) -> None:
    """The umpire reveals the seed (a dispute, arbitro §R.3): the dice end here. The umpire must accept what it
    exposes (`expose_hidden`, EXPOSES): every hidden roll and draw; in a game made before the salt key
    (`salted_by_seed`) every hidden fact so far."""
    if ctx.seat != UMPIRE:
        raise IllegalCommand("only the umpire reveals the seed", rule=R_REVEAL)
    if state.core.seed is not None:
        raise IllegalCommand("the seed is already revealed", rule=R_REVEAL)
    if seed is None:
        raise IllegalCommand(no_seed_reason, rule=R_REVEAL)
    if not command.expose_hidden:
        raise IllegalCommand(EXPOSES_HIDDEN.format(EXPOSES[exposure(salted_by_seed)]), rule=R_REVEAL)
    ctx.emit(core.SeedRevealed(seed=seed, reason=command.reason))


def reveal_at_end(ctx: Decision[Any], seed: str | None, salt_key: str | None, reason: str) -> None:
    """At the game's end its secrets held here are revealed (arbitro §R.3): the seed, unless revealed before, then
    the salt key, which nothing before the end reveals, so that anyone can recompute every roll and every salt."""
    if seed is not None and ctx.game.core.seed is None:
        ctx.emit(core.SeedRevealed(seed=seed, reason=reason))
    if salt_key is not None and ctx.game.core.salt_key is msgspec.UNSET:
        ctx.emit(core.SaltKeyRevealed(salt_key=salt_key, reason=reason))


def record_fork(ctx: Decision[Any], state: GameState[Any], command: cc.RecordFork) -> None:
    """A fork shows the position to whoever plays it, and a fork that keeps the dice replays this game's
    seed: so forking is the umpire's act, and keeping the dice needs this game's seed already public
    (otherwise the fork would show the very rolls this game is about to make). The fork's salt key is its own."""
    if ctx.seat != UMPIRE:
        raise IllegalCommand(f"only the umpire forks a game, not {ctx.seat}: a fork is played from a position "
                             "the players may not see whole, and may replay this game's dice", rule=R_REVEAL)
    if command.at > state.core.seq:
        raise IllegalCommand(f"#{command.at} is after the head (#{state.core.seq}): fork at an event that exists",
                             rule=R_REVEAL)
    if command.keep_dice and state.core.seed is None:
        raise IllegalCommand(
            "this game's seed is not revealed: a fork that keeps its dice would show the rolls this game is "
            "about to make; reveal the seed first (arbitro reveal GAME, which ends the dice here), or fork "
            "without --keep-dice (a new seed)", rule=R_REVEAL)
    ctx.emit(core.GameForked(child=command.child, at=command.at, hash=command.hash, keep_dice=command.keep_dice,
                             rule=R_REVEAL))
