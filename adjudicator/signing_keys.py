"""A seat's signing key registered and withdrawn inside its game (arbitro §L.6), both chained, judged by the engine.

A playing seat registers one key at a time with its own `register_key` (the umpire registers none: rev-s S7), a
chained event `key_registered` served to every seat; the append that records it writes the registration (the store's
row, `since_cmd` the registering command) in its transaction. The umpire's `withdraw_key` ends it with the chained
event `key_withdrawn`, naming the key whole and the commands it covered; the server fills in what the registration
says (`with_withdrawal`), as it fills in a proven roll's key (reveal.with_proof), so the stored command carries it and
re-adjudication needs no registration to emit the same event; the append that records it drops the registration in
its transaction. The seat's next command is then accepted unsigned until it registers a new key, which from then on
is required again. Verification takes each key's period from the chain (verify_signatures.key_periods)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbitro.adjudicator import core_commands as cc
from arbitro.adjudicator.errors import BadInput, IllegalCommand, NotUmpire, UnknownSeat
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import core, signing
from arbitro.events.store import KeyChange
from arbitro.projections.base import UMPIRE

R_KEYS = "arbitro §L.6"
FILLED = ("first_cmd", "last_cmd")  # what the server fills in, never the sender


Registered = Callable[[], dict[str, tuple[str, int]]]  # seat -> (public key, the last command it did not cover)
UMPIRE_REGISTERS_NONE = ("a playing seat signs its own commands; the umpire registers no key: its commands are its "
                         "token's, and a key registered with a stolen umpire token could never be withdrawn (`arbitro "
                         "invite` replaces a leaked token)")


def one_key(command: Any, seat: str, registered: Registered) -> None:
    """A seat holds one key at a time: its `register_key` while a key is in force is refused, with the rule, before
    its signature is asked for (the key in force is public: every seat was served its registration), so that a
    registration sent again (a retry) is told it is there. The withdrawal (`withdraw_key`, the umpire's) ends it."""
    held = registered().get(seat) if isinstance(command, dict) and command.get("type") == "register_key" else None
    if held is None:
        return
    key, since = held
    raise IllegalCommand(f"{seat} already registered the key {signing.fingerprint(key)}... (after command {since}); a "
                         "seat has one key per game at a time (the umpire's withdraw_key ends it)", rule=R_KEYS)


def register_key(ctx: Decision[Any], command: cc.RegisterKey) -> None:
    """The engine's rule: a playing seat registers its own key (the service refused a second one: `one_key`); the
    event is public. The umpire registers none (rev-s S7: nothing could withdraw it)."""
    if ctx.seat == UMPIRE:
        raise IllegalCommand(UMPIRE_REGISTERS_NONE, rule=R_KEYS)
    try:
        checked = signing.check_public_key(command.public_key)
    except signing.BadKey as e:
        raise BadInput(f"{ctx.seat}'s key: {e}") from None
    ctx.emit(key_registered(ctx.seat, checked))


def key_registered(seat: str, public_key: str) -> core.KeyRegistered:
    """The event a seat's `register_key` makes (the engine's, and verify's reading of a recorded one: one builder)."""
    return core.KeyRegistered(seat=seat, public_key=public_key.lower(), rule=R_KEYS)


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


def key_change(command: Any, seat: str) -> KeyChange | None:
    """The registration a recorded command makes (`register_key`, the seat's own) or ends (`withdraw_key`): the append
    writes or drops it in its transaction."""
    kind = command.get("type") if isinstance(command, dict) else None
    if kind == "register_key":
        return KeyChange(seat, str(command["public_key"]).lower(), registered=True)
    if kind == "withdraw_key":
        return KeyChange(str(command["seat"]), str(command["key"]), registered=False)
    return None
