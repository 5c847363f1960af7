"""The engine's acts of arbitro §R.3: the umpire's reveal of the seed, the game's end revealing its seed and its
salt key (events.random), and a fork's record in its parent; and of §R.5: the umpire's proof of one roll by its key.
The engine (adjudicator/engine.py) calls them with the game's secrets as its GameContext holds them, passed by value,
so that nothing here imports the engine."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from arbitro.adjudicator import core_commands as cc
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.log_points import History
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import core
from arbitro.events import random as rnd
from arbitro.events.records import EventBody
from arbitro.projections.base import UMPIRE, RulesetProjection
from arbitro.projections.game import GameState
from arbitro.projections.views import redact_event

R_REVEAL = "arbitro §R.3"
R_PROOF = "arbitro §R.5"
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
    "without the seed (and, in a game made with provable rolls, `--prove` proves it: arbitro §R.5). If the dispute needs the seed all the same, send expose_hidden: true (`arbitro reveal GAME "
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


# --- one roll proven by its key (arbitro §R.5) ---------------------------------------------------------------------
Roll = core.DiceRolled | core.ItemsDrawn


def with_proof(command: Any, seat: str, seed: str | None, keys: int | None, rolls: int) -> Any:
    """The umpire's `prove_roll` with the roll's key and Merkle path filled in from the seed the server holds, so
    that the stored command carries them and verification judges the proof again without the seed. Filled only for
    the umpire, a provable game (`keys`) and a roll already made (`rolls`, the next random index): no key of a roll
    to come is ever computed for a command, refused or not. Anything else goes to the engine as it came, to be
    refused there with its rule."""
    if not (isinstance(command, dict) and command.get("type") == "prove_roll" and seat == UMPIRE):
        return command
    index = command.get("index")
    if seed is None or keys is None or "key" in command or type(index) is not int or not 0 <= index < min(keys, rolls):
        return command
    return {**command, "key": rnd.roll_key(seed, index), "path": list(rnd.roll_key_path(seed, index, keys))}


def as_first_proven(command: Any, first: Any) -> Any:
    """A retried `prove_roll` (its idempotency key already used) with the key and path the first submission was
    filled in with (with_proof), so that the retry is the same command and gets the first answer again."""
    if not (isinstance(command, dict) and command.get("type") == "prove_roll" and "key" not in command
            and isinstance(first, dict) and first.get("type") == "prove_roll" and first.get("index") == command.get("index")):
        return command
    return {**command, "key": first.get("key"), "path": first.get("path", [])}


def prove_roll(ctx: Decision[Any], state: GameState[Any], command: cc.ProveRoll, root: str | None, keys: int | None,
               history: History, ruleset: RulesetProjection[Any], seats: Sequence[str]) -> None:
    """The umpire proves roll `command.index` (arbitro §R.5): refused unless the game is provable (`root`, `keys`:
    its genesis's), the roll was made in this log and is not proven yet, and the key and path given prove it
    against the root and recompute its values. The proof is served to the seats that were served the roll's values
    (`served_values`). `history`: the log so far."""
    if ctx.seat != UMPIRE:
        raise IllegalCommand(f"only the umpire proves a roll, not {ctx.seat}: a proof hands out the roll's key, "
                             "and a roll hidden from a seat is proven to the seats that saw it alone", rule=R_PROOF)
    if root is None or keys is None:
        raise IllegalCommand("this game rolls by arbitro-random/1, each roll keyed by the seed itself, so no single "
                             "roll can be proven: only a reveal of the seed proves its rolls (arbitro reveal GAME); "
                             "games made with provable rolls (arbitro new ... --provable-rolls) can be", rule=R_PROOF)
    index = command.index
    if index >= state.core.rolls:
        raise IllegalCommand(f"random index {index} has not been rolled yet (this game's next is {state.core.rolls}): "
                             "a key is proven only for a roll already made", rule=R_PROOF)
    seq, roll, mix = _made(history.bodies(), index)
    if command.key is None:
        raise IllegalCommand(f"a proof of random index {index} carries its key and Merkle path, which the server "
                             "fills in from the game's seed: this database does not hold it", rule=R_PROOF)
    if not rnd.proves_key(root, keys, index, command.key, command.path):
        raise IllegalCommand(f"the key and path given do not prove random index {index} against the root of roll "
                             f"keys this game's genesis commits to ({root[:12]}...)", rule=R_PROOF)
    if _recomputed(roll, command.key, mix) != _values(roll):
        raise IllegalCommand(f"the key of random index {index} recomputes other values than the log records",
                             rule=R_PROOF)
    ctx.emit(core.RollProven(index=index, key=command.key, path=tuple(command.path), rule=R_PROOF,
                             visible_to=served_values(ruleset, roll, history.state_at(seq), seats)))


def served_values(ruleset: RulesetProjection[Any], roll: Roll, after: GameState[Any],
                  seats: Sequence[str]) -> tuple[str, ...] | None:
    """The seats `roll` was served with its values (None: every seat), as each was served it (views.redact_event,
    `after`: the state after the roll). A roll's key recomputes its values, so it goes to those seats alone: not only
    a roll kept from a seat (`visible_to`), but one a ruleset serves a seat without its faces under fog of war too,
    e.g. the efficiency test of a stack the seat may not examine (caldiero §20.4, arrivano §11.3.2; arbitro §R.5,
    §V.4). A draw's key goes to the seats served its pool as well as what was drawn: a private draw's drawer, served
    the items alone, would test candidate pools against them with the key (the second hand dealt in Monferrato
    tells which chits the first hand may hold; rev-s S1), and without the pool it could not recompute the draw."""
    faces = ("values",) if isinstance(roll, core.DiceRolled) else ("drawn", "population")
    seen = tuple(seat for seat in seats if all(f in (redact_event(ruleset, roll, seat, after) or {}) for f in faces))
    return None if len(seen) == len(seats) else seen


PROOF_EVENTS = (core.DiceRolled, core.ItemsDrawn, core.RollProven)  # what `unproven` reads of a log


def unproven(bodies: Iterable[EventBody[Any]]) -> list[int]:
    """The random indices the umpire may prove now (arbitro §R.5), in order: each roll or draw this log made from the
    seed and no proof of it yet; never one entered from the table, nor a kept-dice fork's parent's (not in this log).
    What `_made` accepts, so that the umpire's legal() lists what prove_roll would not refuse for its index."""
    made: dict[int, None] = {}
    for body in bodies:
        match body.event:
            case core.DiceRolled(index=i, source="seed") | core.ItemsDrawn(index=i, source="seed"):
                made[i] = None
            case core.RollProven(index=i):
                made.pop(i, None)
    return list(made)


def _made(bodies: Iterable[EventBody[Any]], index: int) -> tuple[int, Roll, str]:
    """The roll or draw of random index `index` in this log (its number and event), and the mix it was made with;
    refused if there is none (a kept-dice fork's earlier rolls are its parent's), it was entered from the table, or
    it is proven already."""
    mix, found, seq = "", None, 0
    for body in bodies:
        match body.event:
            case core.GameCreated(initial_core=initial):
                mix = str(initial.get("mix", ""))
            case core.EntropyAdded(mix=now) | core.EntropyMixed(mix=now) if found is None:
                mix = now
            case core.DiceRolled(index=i) | core.ItemsDrawn(index=i) if i == index:
                found, seq = body.event, body.seq
            case core.RollProven(index=i) if i == index:
                raise IllegalCommand(f"random index {index} is proven already, at #{body.seq}", rule=R_PROOF)
    if found is None:
        raise IllegalCommand(f"no roll or draw of this game's log has random index {index} (a fork that kept its "
                             "parent's dice: prove the rolls made before it in the parent)", rule=R_PROOF)
    if found.source == "entered":
        raise IllegalCommand(f"random index {index} was entered from the table (arbitro §R.4): there is no key to "
                             "prove", rule=R_PROOF)
    return seq, found, mix


def _values(roll: Roll) -> tuple[Any, ...]:
    return roll.values if isinstance(roll, core.DiceRolled) else roll.drawn


def _recomputed(roll: Roll, key: str, mix: str) -> tuple[Any, ...]:
    if isinstance(roll, core.DiceRolled):
        return rnd.keyed_roll(key, mix, roll.index, roll.count, roll.sides)
    return rnd.keyed_draw(key, mix, roll.index, roll.population, len(roll.drawn))
