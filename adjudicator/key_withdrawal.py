"""A seat's signing key withdrawn inside its game (arbitro §L.6): the umpire's `withdraw_key`, judged by the engine.

A seat registers one key at a time; its registration is the database's record (a row), but its withdrawal is a
chained event, `key_withdrawn`, naming the key whole and the commands it covered, so that verification judges each
signature under the key in force at its command after the row is gone (verify_signatures.key_periods). The server
fills in what the registration says (`with_withdrawal`), as it fills in a proven roll's key (reveal.with_proof): the
stored command carries it, and re-adjudication needs no registration to emit the same event. The append that records
the withdrawal drops the registration in its transaction (`withdrawn_by`), so that the seat's next command is
accepted unsigned until it registers a new key, which from then on is required again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbitro.adjudicator import core_commands as cc
from arbitro.adjudicator.errors import BadInput, IllegalCommand, NotUmpire, UnknownSeat
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import core, signing
from arbitro.projections.base import UMPIRE

R_KEYS = "arbitro §L.6"
FILLED = ("first_cmd", "last_cmd")  # what the server fills in, never the sender


Registered = Callable[[], dict[str, tuple[str, int]]]  # seat -> (public key, the last command it did not cover)


def with_withdrawal(command: Any, seat: str, registered: Registered, head_cmd: int) -> Any:
    """The umpire's `withdraw_key` with the key whole and the commands it covered filled in from the registration
    the store holds (`registered`: seat -> (public key, the last command it did not cover)); `head_cmd`, the game's
    last command, the last the key covered. Filled for the umpire only: another seat's goes to the engine as it came,
    to be refused there with its rule, and is told nothing of any key. A seat with no key in force, or a key named
    that is not the one in force, is refused here, with the rule, before anything is judged."""
    if not (isinstance(command, dict) and command.get("type") == "withdraw_key" and seat == UMPIRE):
        return command
    given = [name for name in FILLED if name in command]
    if given:
        raise BadInput(f"withdraw_key's {' and '.join(given)} are filled in by the server from the registration it "
                       "holds: send the seat, the reason and (optionally) the key")
    target = command.get("seat")
    in_force = registered().get(target) if isinstance(target, str) else None
    if in_force is None:
        return command  # the engine refuses it: an unknown seat as such, a seat without a key as having none
    key, since = in_force
    named = command.get("key", "")
    if isinstance(named, str) and named and named.lower() not in (key, signing.fingerprint(key)):
        raise IllegalCommand(f"{target}'s key in force is {signing.fingerprint(key)}, not {named}: name the key you "
                             "withdraw, or none (the key in force)", rule=R_KEYS)
    return {**command, "key": key, "first_cmd": since + 1, "last_cmd": head_cmd}


def withdraw_key(ctx: Decision[Any], command: cc.WithdrawKey, seats: tuple[str, ...]) -> None:
    """The engine's rule: only the umpire withdraws a key, of a playing seat that has one in force (the server filled
    it in); the event names the key and the commands it covered. An undo takes back play, not a withdrawal: the
    event stays in force whatever is undone after or before it (its registration is gone from the store)."""
    if ctx.seat != UMPIRE:
        raise NotUmpire(f"only the umpire withdraws a seat's signing key, not {ctx.seat}: a seat whose key is lost "
                        "or stolen asks the umpire", rule=R_KEYS)
    if command.seat not in seats:
        raise UnknownSeat(f"no seat {command.seat!r} in this game (seats: {', '.join(seats)})")
    event = key_withdrawn(command)
    if event is None:
        raise IllegalCommand(f"{command.seat} has no signing key in force: nothing to withdraw", rule=R_KEYS)
    ctx.emit(event)


def key_withdrawn(command: cc.WithdrawKey) -> core.KeyWithdrawn | None:
    """The event a `withdraw_key` the server filled in makes (the engine's, and verify's reading of a recorded one:
    one builder); None for one without what the server fills in (no key in force, or a file's, edited)."""
    if command.first_cmd is None or command.last_cmd is None or len(command.key) != 64:
        return None
    return core.KeyWithdrawn(seat=command.seat, public_key=command.key.lower(), first_cmd=command.first_cmd,
                             last_cmd=command.last_cmd, reason=command.reason, rule=R_KEYS)


def withdrawn_by(command: Any) -> tuple[str, str] | None:
    """(seat, public key) whose registration a recorded command ends: the append drops it in its transaction."""
    if isinstance(command, dict) and command.get("type") == "withdraw_key":
        return str(command["seat"]), str(command["key"])
    return None
