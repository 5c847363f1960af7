"""Non-interference per channel (engine-rules §V.6): two duels differing only in red's hidden card, which decides
whether red's attack also makes an event hidden from blue (test_event_counts.TellingDuel: after the attack;
ForewarnedDuel: before it), serve blue the same bytes on every channel built so far: the log in the CLI's words, each
view and replay by command, the status, the notes, the live stream, the report and the viewer's events in words. The
umpire's numbers are the log's and do differ (the control that the two games do differ in their counts)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.http_stream import AppendWatcher, watched_head, live
from arbitro.adjudicator.report import report
from arbitro.adjudicator.report_phrases import worded
from arbitro.adjudicator.ruleset import Decision
from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical
from arbitro.events.sqlite import SQLiteStore
from tests.seeds import same_secrets

from . import duel
from .conftest import position_file
from .test_event_counts import CHAIN  # registers the two toy rulesets

RED_CARDS = ("ruby-falcon", "coral-wolf")  # the ruby falcon makes the hidden event


def attacked(tmp_path: Path, red_card: str, ruleset: str, monkeypatch: pytest.MonkeyPatch) -> Arbitro:
    """Game "g" of `ruleset` (the same seed and clock whatever red's card), after red's attack."""
    same_secrets(monkeypatch)
    position = json.loads(position_file(tmp_path, red_card=red_card).read_text())
    position["ruleset"] = ruleset
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-11-29T00:00:00+00:00")
    app.create(ruleset, position=position, game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    return app


def played(tmp_path: Path, red_card: str, ruleset: str, monkeypatch: pytest.MonkeyPatch) -> Arbitro:
    """Red attacks, blue guards (a 2d6), the umpire notes red's attack (on its last event) and blue's guard (on its
    first), then undoes the guard, which voids its roll (a re-roll the dice audit of `status` lists)."""
    app = attacked(tmp_path, red_card, ruleset, monkeypatch)
    app.submit("g", "blue", {"type": "guard", "stance": "low"})
    numbers = app.numbers(app.game("g"))  # the umpire's numbers are the log's
    app.annotate("g", "umpire", numbers.last_event(1), "red attacked")
    app.annotate("g", "umpire", numbers.events(2, 2)[0], "blue guarded")
    app.undo("g", "umpire", numbers.last_event(1), "umpire takes the guard back")
    return app


def stream(app: Arbitro, seat: str) -> list[dict[str, str]]:
    async def read() -> list[dict[str, str]]:
        return [m async for m in live(app, AppendWatcher(app), "g", seat, -1, follow=False, poll=0.1)]
    return asyncio.run(read())


def without_chain(value: Any) -> Any:
    """Served records without the salted digests (CHAIN: a seat cannot test guesses against them) and the genesis's
    keyed position digest, which differ with red's card without telling blue anything it can test."""
    if isinstance(value, dict):
        return {k: without_chain(v) for k, v in value.items() if k not in (*CHAIN, "position")}
    if isinstance(value, list):
        return [without_chain(v) for v in value]
    return value


def served_bytes(value: Any) -> bytes:
    """What a seat is served (a log, a view, a status, an undo's events) as canonical bytes without its chain."""
    return canonical(without_chain(json.loads(msgspec.json.encode(value))))


def served_to(app: Arbitro, seat: str) -> dict[str, Any]:
    head = app.status("g", seat).head
    points = range(0 if seat != "umpire" else 1, head + 1)  # a seat's numbers are its commands', from #0
    return without_chain(json.loads(msgspec.json.encode({
        "log": app.log("g", seat),
        "views": [app.view("g", seat, at) for at in points],
        "replays": [app.replay("g", at, seat) for at in points],
        "awaiting": [app.awaiting_at("g", at, seat) for at in points],
        "status": app.status("g", seat), "notes": app.notes("g", seat),
        "stream": [{**m, "data": json.loads(m["data"])} for m in stream(app, seat)],
        "report": report(app, "g", seat, pictures="none"),
        "viewer": worded(app.log("g", seat)),  # the viewer's and its offline file's events (GET /events?words=true)
    })))


@pytest.mark.parametrize("ruleset", ["tellingduel", "forewarnedduel"])
def test_every_channel_built_serves_blue_the_same_bytes_whatever_the_count(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    told, untold = (played(tmp_path, card, ruleset, monkeypatch) for card in RED_CARDS)
    assert told.game("g").head_seq == untold.game("g").head_seq + 1  # the counts differ, in the umpire's log
    assert canonical(served_to(told, "blue")) == canonical(served_to(untold, "blue"))
    assert served_to(told, "umpire") != served_to(untold, "umpire")


@pytest.mark.parametrize("ruleset", ["tellingduel", "forewarnedduel"])
def test_status_serves_a_seat_its_dice_rerolls_by_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    """The undo that voided blue's guard roll is served to blue as command #3 back to command #1 (red's attack),
    whatever the count of the attack's events; the umpire reads the log's numbers."""
    told, untold = (played(tmp_path, card, ruleset, monkeypatch) for card in RED_CARDS)
    rerolls = [[(r.seq, r.to_seq) for r in app.status("g", "blue").dice.rerolls] for app in (told, untold)]
    assert rerolls == [[(3, 1)], [(3, 1)]]
    assert told.status("g", "umpire").dice.rerolls != untold.status("g", "umpire").dice.rerolls  # the log's numbers


def test_the_seat_shown_the_hidden_event_reads_it_in_its_commands_item(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = played(tmp_path, "ruby-falcon", "forewarnedduel", monkeypatch)
    (attack,) = [i for i in app.log("g", "red") if i["cmd"] == 1]
    assert [e["type"] for e in attack["events"]][:2] == ["card_dealt", "attack_declared"]
    (blue_sees,) = [i for i in app.log("g", "blue") if i["cmd"] == 1]
    assert [e["type"] for e in blue_sees["events"]] == ["attack_declared"]
    assert (attack["prev"], attack["hash"]) == (blue_sees["prev"], blue_sees["hash"])  # one link for every seat
    note = [n for n in app.notes("g", "blue") if n.text == "red attacked"]
    assert [n.seq for n in note] == [1] and app.status("g", "blue").head == 3
    assert [json.loads(m["data"])["seq"] for m in stream(app, "blue") if m["event"] == "awaiting"] == [3]  # after the undo
    assert [m["id"] for m in stream(app, "blue") if m["event"] == "event"] == ["0", "1", "2", "3"]


def test_a_seats_stream_waits_past_the_log_number_of_its_last_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's watcher waits for the log to pass a head in the log's numbers: a seat's stream from command `after`
    hands it the last event of that command (before any, 0), the umpire's its own number, unchanged."""
    app = played(tmp_path, "ruby-falcon", "tellingduel", monkeypatch)
    numbers = app.numbers(app.game("g"))
    assert [watched_head(app, "g", "blue", after) for after in (-1, 0, 1, 3)] == [
        0, numbers.last_event(0), numbers.last_event(1), app.game("g").head_seq]
    assert watched_head(app, "g", "umpire", 4) == 4


FALCON = "toy §1 the falcon's flight"


class FalconRollDuel(duel.DuelRuleset):
    """The duel, where attacking with the ruby falcon in hand also rolls a die for red alone, which the ruleset tries
    to hide from blue altogether (redact_random: None)."""

    name = "falconrollduel"

    def decide(self, ctx: Decision[duel.DuelState], command: Any) -> None:
        if isinstance(command, duel.AttackCmd) and ctx.state.cards.get(ctx.seat) == "ruby-falcon":
            ctx.roll(1, 6, purpose=FALCON, visible_to=(ctx.seat,))
        super().decide(ctx, command)

    def redact_random(self, data: dict[str, Any], seat: str, state: Any) -> dict[str, Any]:
        if data.get("purpose") == FALCON and seat not in (data.get("visible_to") or ()):
            return None  # type: ignore[return-value]  # the defect served_random refuses
        return super().redact_random(data, seat, state)


registry.register("falconrollduel", "tests.foundation.test_event_counts_channels:FalconRollDuel")


def test_a_ruleset_may_not_hide_that_a_roll_was_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A roll's existence, its index and the game's count of rolls (a view's `engine.rolls`) are public (engine-rules
    §V.4): a roll hidden from blue altogether would still be counted in the index of blue's next roll and in its
    view (rev-trust3 finding 2), so a ruleset's redact_random may hide a roll's values and purpose, never the roll.
    Blue is refused nothing it may see: red's own log and the umpire's are served."""
    same_secrets(monkeypatch)
    position = json.loads(position_file(tmp_path, red_card="ruby-falcon").read_text())
    position["ruleset"] = "falconrollduel"
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-11-29T00:00:00+00:00")
    app.create("falconrollduel", position=position, game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    with pytest.raises(TypeError, match="redact_random hid a dice_rolled from blue: a roll's existence is public"):
        app.log("g", "blue")
    (attack,) = [i for i in app.log("g", "red") if i["cmd"] == 1]
    assert [e["event"]["purpose"] for e in attack["events"] if e["type"] == "dice_rolled"] == [FALCON]
    assert app.view("g", "red")["engine"]["rolls"] == 1


def blue_guards(tmp_path: Path, red_card: str, ruleset: str, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Blue's submit result for its guard after red's attack, and the answer to its retry with the same key (the
    original result again), as served (the HTTP API, `submit --json` and a mailed file's reply render the same
    struct), without the salted digests and the receipt's signature, which a seat cannot test guesses against, and
    the server's key (each database makes its own)."""
    app = attacked(tmp_path, red_card, ruleset, monkeypatch)
    guard = {"type": "guard", "stance": "low"}
    results = [msgspec.to_builtins(app.submit("g", "blue", guard, key="k")) for _ in range(2)]
    assert [r["duplicate"] for r in results] == [False, True]
    return [without_chain({**r, "receipt": {k: v for k, v in r["receipt"].items() if k not in ("head", "signature", "server_key")}})
            for r in results]


@pytest.mark.parametrize("ruleset", ["tellingduel", "forewarnedduel"])
def test_a_seats_submit_result_serves_the_same_bytes_whatever_the_count(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    """The result of blue's guard names its head as blue's command (#2), and holds what the guard's one item holds
    (seat_numbers.per_command): each event its `type` and `event`, numbered by the command, with no number, link or
    salt of its own; the log's head (one more event with the ruby falcon) is the umpire's alone."""
    told, untold = (blue_guards(tmp_path, card, ruleset, monkeypatch) for card in RED_CARDS)
    assert canonical(told) == canonical(untold)
    assert told[0]["head"] == told[0]["cmd"] == 2
    assert {e["seq"] for e in told[0]["events"]} == {2} and all(set(e) == {"seq", "cmd", "seat", "type", "event"}
                                                                for e in told[0]["events"])


@pytest.mark.parametrize("ruleset", ["tellingduel", "forewarnedduel"])
def test_a_seats_notes_carry_no_digest_of_the_logs_numbers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    """A note's hash covers the log's number of its event (and its `prev` the note before it, its `at_hash` which of a
    command's events it is on): every other field it covers blue reads, so blue could hash each candidate number.
    Blue's notes (the library's and the replay's here; the CLI, HTTP and a seat's copy serve them through the same
    seat_numbers.noted) are served numbered by command with no digest: the same bytes whole, digests and all, whatever the count; the
    umpire's keep their chain."""
    told, untold = (played(tmp_path, card, ruleset, monkeypatch) for card in RED_CARDS)
    served = [msgspec.json.encode([app.notes("g", "blue"), app.replay("g", None, "blue").notes]) for app in (told, untold)]
    assert served[0] == served[1]
    assert [(n.seq, n.at_hash, n.prev, n.hash) for n in told.notes("g", "blue")] == [(1, "", "", ""), (2, "", "", "")]
    assert all(n.hash and n.at_hash for n in told.notes("g", "umpire"))


def blue_cites_whole(tmp_path: Path, red_card: str, ruleset: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The refusal blue is served when it cites the umpire's note on red's attack whole, as blue reads it (`notes
    --json`: numbered by the command, no digest), in a dispute message: the note's log number and chain hash are the
    umpire's (rev-trustb: the refusal quoted both, `it is on #N ... hash H`)."""
    app = played(tmp_path, red_card, ruleset, monkeypatch)
    (note, *_) = app.notes("g", "blue")
    cited = {"kind": "note", "note": note.id, "seq": note.seq, "by": note.seat, "private": note.private,
             "hash": note.hash}
    with pytest.raises(Exception) as refused:
        app.submit("g", "blue", {"type": "dispute_open", "about": [1], "text": "see the note", "evidence": [cited]})
    return json.dumps(refused.value.to_dict(), sort_keys=True, ensure_ascii=False)  # type: ignore[attr-defined]


@pytest.mark.parametrize("ruleset", ["tellingduel", "forewarnedduel"])
def test_a_refused_whole_citation_serves_the_same_bytes_whatever_the_count(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    told, untold = (blue_cites_whole(tmp_path, card, ruleset, monkeypatch) for card in RED_CARDS)
    assert told == untold
    assert "arbitro §D.7" in told and "cite it by its number" in told
