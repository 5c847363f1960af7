"""What a seat can check of its own export in its own numbers (arbitro-seat/3; engine-rules §V.2, §V.6): the items,
one per command, chained as the log is (an item's `prev` is the hash of the event before its command's first, its
`hash` that of its command's last, so each `prev` is the item before's `hash`), each naming its command's hash and
seat as the command lines do; its own command bodies hashing to their lines; the head. What it cannot check without
the full log (how many events each item stands for, the content of the ones it was not shown, re-adjudication) is
reported unchecked: its seal binds what it was served to the server (seatcopy.check_seal)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator import served_dice
from arbitro.adjudicator.exchange import Loaded
from arbitro.adjudicator.seat_numbers import events_of
from arbitro.adjudicator.verify_anchors import Check
from arbitro.events.records import GENESIS


def item_hashes(loaded: Loaded) -> dict[int, str]:
    """Each command's item link (the hash of its last event) by command number: what a seat anchors (`--head`, a
    receipt's `head`)."""
    return {int(item["cmd"]): str(item["hash"]) for item in loaded.items or ()}


def genesis_of(loaded: Loaded) -> Any:
    """The game's creation as the seat was served it: command #0's first event (None where there is none)."""
    items = loaded.items or []
    events = items[0].get("events") if items and isinstance(items[0], dict) else None
    return events[0].get("event") if isinstance(events, list) and events and isinstance(events[0], dict) else None


def item_problem(loaded: Loaded) -> tuple[int, str, str] | None:
    """The first command whose item, line or body is not what the chain says: its number, what is wrong and the check
    that fails ("hash chain": the items; "command log": a command's line or body); None if all hold."""
    items, seats = loaded.items or [], loaded.command_seats
    if len(items) != len(loaded.commands):
        return min(len(items), len(loaded.commands)), (
            f"the file holds {len(loaded.commands)} commands and {len(items)} items: a seat's export holds one item "
            "per command (cut or edited)"), "hash chain"
    prev = GENESIS
    for number, (item, (record, digest, _, _)) in enumerate(zip(items, loaded.commands)):
        said = _item_said(number, item, prev, digest, seats[number])
        if said:
            return number, said, "hash chain"
        if record is not None and record.cmd != number:
            return number, f"command {number} is out of order: its body is command {record.cmd}'s", "command log"
        if record is not None and record.digest() != digest:
            return number, f"command {number} was edited: its hash does not match", "command log"
        if record is not None and record.seat != seats[number]:
            return number, f"command {number} is {record.seat}'s, but its line names {seats[number]}", "command log"
        prev = item["hash"]
    head = len(items) - 1
    if (loaded.game.head_cmd, loaded.game.head_hash) != (head, prev):
        return head, (f"the game record names the head command #{loaded.game.head_cmd} ({loaded.game.head_hash[:12]}"
                      f"...), but the items end at #{head} ({prev[:12]}...): cut, or the record edited"), "hash chain"
    return None


def _item_said(number: int, item: Any, prev: str, digest: str, seat: str) -> str:
    """What is wrong with command `number`'s item, or ""."""
    if not isinstance(item, dict) or item.get("cmd") != number or item.get("seq") != number:
        return f"item {number} is not command #{number}'s: the items are one per command, in order"
    if not isinstance(item.get("events"), list) or not isinstance(item.get("hash"), str):
        return f"command #{number}'s item is malformed (its events a list, its hash a hash)"
    if item.get("prev") != prev:
        return f"command #{number}'s item does not follow the item before it (its prev is not that item's hash)"
    if item.get("cmd_hash") != digest:
        return f"command #{number}'s item names another command hash than its command line"
    if item.get("seat") != seat:
        return f"command #{number}'s item is {item.get('seat')}'s, but its command line names {seat}"
    return ""


def proofs_check(served: list[dict[str, Any]]) -> list[Check]:
    """The "proven rolls" check of a served log (served_dice.check_proofs, arbitro §R.5), where it holds a proof."""
    found = served_dice.check_proofs(served)
    return [] if found is None else [Check(name="proven rolls", status=found[0], detail=found[1])]


def seat_checks(loaded: Loaded) -> list[Check]:
    """What is said of a seat's export whose items hold together (item_problem None)."""
    seat, items = loaded.redacted_for, loaded.items or []
    dice, found = served_dice.check(events_of(items), loaded.game.seed_commitment)
    head = len(items) - 1
    stray = next((n for n in loaded.annotations if not 0 <= n.seq <= head), None)
    notes = Check(name="annotations", status="failed", detail=(
        f"note {stray.id} of the {stray.chain} chain is on command #{stray.seq}, which this file does not hold")
    ) if stray is not None else Check(name="annotations", status="unchecked", detail=(
        f"{len(loaded.annotations)} notes, numbered by command; their chain digests are withheld from {seat} (each "
        "covers the log's number of its event, engine-rules §V.6): the seal binds them, and their chains are "
        "checked with the full log"))
    return [
        Check(name="hash chain", status="passed", detail=(
            f"commands #0-#{head}: each item linked to the one before, naming its command's hash and seat; the "
            f"bodies of {seat}'s own commands match their hashes")),
        Check(name="command log", status="passed", detail=(
            f"{len(loaded.commands)} commands; how many events each made, and those hidden from {seat}, can be checked "
            "only with the full log")),
        notes,
        Check(name="dice", status=dice, detail=found),
        *proofs_check(events_of(items)),
        Check(name="hidden events", status="unchecked", detail=(
            f"what {seat} was not shown of each command can be checked against its item's links only with the full "
            "log")),
        Check(name="re-adjudication", status="unchecked",
              detail=f"{seat}'s export lacks hidden facts; re-adjudication needs the full log"),
    ]
