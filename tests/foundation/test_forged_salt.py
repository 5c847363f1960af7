"""rev-p (eighteenth session), a guard for salt's landing (rev-p P1's fix gives events made after the salting key is
public fresh random salts, "which verify does not judge"): a salt is still judged everywhere else. A finished game's
full export, one mid-game event's salt replaced by one its forger chose (a salt a seat knows makes that event's
hash testable, arbitro §V.3) and the chain hashed again from there, fails verification's salt check, naming the
event; the export as made passes it."""

from __future__ import annotations

import json
from arbitro.adjudicator.service import Arbitro

from .conftest import ended, event_records, rechain


def rehashed(lines: list[str], seq: int, salt: str) -> list[str]:
    """The export with event `seq`'s salt replaced and the chain (and the game's head) hashed again: a chain as
    consistent as an honest one."""
    records = [json.loads(line) for line in lines]
    next(r for r in event_records(records) if r["body"]["seq"] == seq)["body"]["salt"] = salt
    rechain(records)
    return [json.dumps(r, ensure_ascii=False) for r in records]


def salts_check(app: Arbitro, lines: list[str]) -> tuple[str, str]:
    check = next(c for c in app.verify_lines(lines).checks if c.name == "salts")
    return check.status, check.detail


def test_a_forged_salt_before_the_end_fails_verification_naming_its_event(app: Arbitro) -> None:
    app.create("duel", "standard", ["short"], game_id="g")
    ended(app, "g")
    lines = list(app.export("g", "umpire"))
    assert salts_check(app, lines)[0] == "passed", "the honest export's salts are judged and pass"
    status, detail = salts_check(app, rehashed(lines, 4, "00" * 16))
    assert status == "failed" and "#4" in detail, (status, detail)


def test_play_taken_back_past_the_end_leaves_the_salts_before_the_end_judged(app: Arbitro) -> None:
    """The seats take back the game-ending command by consent and play it again (rev-p P1's path): the events after
    the end may carry fresh salts, but those before it are still the committed key's, and a forged one fails."""
    app.create("duel", "standard", ["short"], game_id="g")
    ended(app, "g")
    last = app.numbers(app.game("g")).head
    app.submit("g", "red", {"type": "undo", "to": last - 1, "reason": "misclick"})
    app.submit("g", "blue", {"type": "consent", "accept": True})
    ended(app, "g")
    lines = list(app.export("g", "umpire"))
    honest = salts_check(app, lines)
    assert honest[0] == "passed" and honest[1].endswith("after its reveal are salted at random"), honest
    status, detail = salts_check(app, rehashed(lines, 4, "00" * 16))
    assert status == "failed" and "#4" in detail, (status, detail)
