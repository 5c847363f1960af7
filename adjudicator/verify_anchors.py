"""What anchors a log to what was played (arbitro §L.4, §V.2): a head hash a seat recorded, the server's signed
receipts, and what neither covers (the completeness line). A check's result is a `Check`, as every check of
verification's is (verify.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import msgspec

from arbitro.adjudicator.exchange import Loaded
from arbitro.adjudicator.seat_numbers import Command, CommandNumbers
from arbitro.events import signing
from arbitro.events.signing import AnyReceipt, LegacyReceipt

Status = Literal["passed", "failed", "unchecked", "noted"]  # noted: true, and worth an auditor's attention


class Check(msgspec.Struct, kw_only=True):
    name: str
    status: Status
    detail: str


def check_head(hashes: Mapping[int, str], head: str, *, commands: bool = False) -> Check:
    """A hash a seat recorded (from a submit, a log it was served, a receipt's `head`): the file's chain up to the
    event with that hash is the one the seat saw, since no other content hashes to it (arbitro §V.2). It says
    nothing of what follows that event. `commands`: `hashes` are a seat's export's item links by command (its own
    numbers, engine-rules §V.6)."""
    at = next((seq for seq, digest in hashes.items() if digest == head), None)
    if at is None:
        return Check(name="trusted head", status="failed",
                     detail=f"the hash you recorded ({head[:12]}...) is not in this log: it is not the log you played")
    span = f"commands #0-#{at}" if commands else f"events #1-#{at}"
    return Check(name="trusted head", status="passed",
                 detail=f"{span} are the chain you recorded ({head[:12]}... at #{at})")


def file_commands(loaded: Loaded) -> CommandNumbers:
    """The file's commands numbered as receipts name them: built once per verify, not once per receipt."""
    return CommandNumbers(loaded.game.id, (Command(cmd, "", digest, first, last)
                                           for cmd, (_, digest, first, last) in enumerate(loaded.commands)))


def receipt_seq(loaded: Loaded, receipt: AnyReceipt, numbers: CommandNumbers | None = None) -> int | None:
    """The log's number of the head a receipt acknowledges: an arbitro-receipt/1 names it; an arbitro-receipt/2 places
    it after its command (the last event of the command or before it: seat_numbers.CommandNumbers), as the file's
    commands say (`numbers`: file_commands, if already built); None where the file has no such command."""
    if isinstance(receipt, LegacyReceipt):
        return receipt.seq if loaded.items is None else None
    if loaded.items is not None:  # a seat's export in its numbers: its anchors are by command
        return receipt.cmd if 0 <= receipt.cmd < len(loaded.items) else None
    numbers = file_commands(loaded) if numbers is None else numbers
    return numbers.last_event(receipt.cmd) if 0 <= receipt.cmd <= numbers.head else None


def check_receipt(loaded: Loaded, hashes: Mapping[int, str], receipt: AnyReceipt,
                  numbers: CommandNumbers | None = None) -> Check:
    """A receipt the server signed when it accepted a command: the file must hold that command and, after it, that
    head (receipt_seq). Anything else proves a dropped tail or a rewrite (arbitro §L.4)."""
    name = f"receipt for command {receipt.cmd}"
    if not receipt.signed_ok():
        return Check(name=name, status="failed",
                     detail=f"its signature does not verify under the key it names ({signing.fingerprint(receipt.server_key)}): "
                            "the receipt was edited or forged")
    if receipt.game != loaded.game.id:
        return Check(name=name, status="failed", detail=f"it is a receipt for game {receipt.game}, not {loaded.game.id}")
    if loaded.items is not None and isinstance(receipt, LegacyReceipt):
        return Check(name=name, status="unchecked", detail=(
            "an arbitro-receipt/1 names the log's event number, which a seat's export in its own numbers does not "
            "hold: check it against the umpire's full export"))
    head = max(hashes, default=0)
    signer = f"signed by server key {signing.fingerprint(receipt.server_key)}"
    if loaded.server_key and loaded.server_key != receipt.server_key:
        signer += f"; this file was exported by key {signing.fingerprint(loaded.server_key)}"
    seq = receipt_seq(loaded, receipt, numbers)
    if seq is None:
        return Check(name=name, status="failed",
                     detail=f"the server acknowledged command {receipt.cmd} but this file's commands end at "
                            f"{len(loaded.commands) - 1}: commands were dropped from its end ({signer})")
    if seq > head:
        return Check(name=name, status="failed",
                     detail=f"the server acknowledged the log up to #{seq} but this file ends at #{head}: "
                            f"events were dropped from its end ({signer})")
    if seq and hashes.get(seq) != receipt.head:
        return Check(name=name, status="failed",
                     detail=f"this file's #{seq} is not the event the server acknowledged after command "
                            f"{receipt.cmd}: the log was rewritten at or before #{seq} ({signer})")
    command = loaded.commands[receipt.cmd] if receipt.cmd < len(loaded.commands) else None
    if command is None or command[1] != receipt.cmd_hash:
        return Check(name=name, status="failed",
                     detail=f"command {receipt.cmd} in this file is not the command the server acknowledged ({signer})")
    return Check(name=name, status="passed",
                 detail=f"the file holds command {receipt.cmd} and the head #{seq} the server acknowledged ({signer})")


def beyond(hashes: Mapping[int, str], head: str | None, receipts: Sequence[int], *, commands: bool = False) -> Check:
    """What no check can prove: the events after the last point a seat anchored (arbitro §V.2); `receipts`: the
    log's number of each receipt's head (receipt_seq). `commands`: `hashes` are a seat's export's item links by
    command (its own numbers, engine-rules §V.6), and so are the receipts' points."""
    unit, start = ("commands", 0) if commands else ("events", 1)
    if not hashes:
        return Check(name="completeness", status="unchecked", detail="the file holds no event: nothing is anchored")
    last, at_head = 0, 0
    for seq, digest in hashes.items():  # one read of a log that is not held
        last, at_head = max(last, seq), max(at_head, seq if digest == head else 0)
    anchored = max([*receipts, at_head], default=0)
    if anchored >= last:
        return Check(name="completeness", status="passed",
                     detail=f"the file ends at #{last}, the latest head you anchored (with a receipt or --head)")
    covered = f"#{start}-#{anchored} are anchored; " if anchored else ""
    return Check(name="completeness", status="unchecked",
                 detail=f"{covered}nothing proves that {unit} #{anchored + 1 if anchored else start}-#{last} are the "
                        f"ones the server accepted, nor that {unit} after #{last} were not dropped: check the file "
                        "against your latest receipt (--receipt) or a hash you recorded (--head)")
