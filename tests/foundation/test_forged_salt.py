"""rev-p (eighteenth session), a guard for salt's landing (rev-p P1's fix gives events made after the salting key is
public fresh random salts, "which verify does not judge"): a salt is still judged everywhere else. A finished game's
full export, one mid-game event's salt replaced by one its forger chose (a salt a seat knows makes that event's
hash testable, arbitro §V.3) and the chain hashed again from there, fails verification's salt check, naming the
event; the export as made passes it."""

from __future__ import annotations

import json
from typing import Any

from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical, sha256_hex


def rehashed(lines: list[str], seq: int, salt: str) -> list[str]:
    """The export with event `seq`'s salt replaced and every later event's `prev` and hash (and the game's head)
    made again: a chain as consistent as an honest one."""
    records = [json.loads(line) for line in lines]
    prev = None
    for record in records:
        if record.get("record") != "event":
            continue
        body: dict[str, Any] = record["body"]
        if body["seq"] == seq:
            body["salt"] = salt
        if prev is not None:
            body["prev"] = prev
        record["hash"] = sha256_hex(canonical(body))
        prev = record["hash"]
    records[0]["head_hash"] = prev
    return [json.dumps(r, ensure_ascii=False) for r in records]


def salts_check(app: Arbitro, lines: list[str]) -> tuple[str, str]:
    check = next(c for c in app.verify_lines(lines).checks if c.name == "salts")
    return check.status, check.detail


def test_a_forged_salt_before_the_end_fails_verification_naming_its_event(app: Arbitro) -> None:
    app.create("duel", "standard", ["short"], game_id="g")
    while app.status("g").outcome is None:
        app.submit("g", app.status("g").awaiting.seats[0], {"type": "end_turn"})
    lines = list(app.export("g", "umpire"))
    assert salts_check(app, lines)[0] == "passed", "the honest export's salts are judged and pass"
    status, detail = salts_check(app, rehashed(lines, 4, "00" * 16))
    assert status == "failed" and "#4" in detail, (status, detail)


def test_play_taken_back_past_the_end_leaves_the_salts_before_the_end_judged(app: Arbitro) -> None:
    """The seats take back the game-ending command by consent and play it again (rev-p P1's path): the events after
    the end may carry fresh salts, but those before it are still the committed key's, and a forged one fails."""
    app.create("duel", "standard", ["short"], game_id="g")
    while app.status("g").outcome is None:
        app.submit("g", app.status("g").awaiting.seats[0], {"type": "end_turn"})
    last = app.numbers(app.game("g")).head
    app.submit("g", "red", {"type": "undo", "to": last - 1, "reason": "misclick"})
    app.submit("g", "blue", {"type": "consent", "accept": True})
    while app.status("g").outcome is None:
        app.submit("g", app.status("g").awaiting.seats[0], {"type": "end_turn"})
    lines = list(app.export("g", "umpire"))
    honest = salts_check(app, lines)
    assert honest[0] in ("passed", "unchecked"), honest
    status, detail = salts_check(app, rehashed(lines, 4, "00" * 16))
    assert status == "failed" and "#4" in detail, (status, detail)
