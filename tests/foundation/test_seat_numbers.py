"""The one place a seat's numbers (its commands') meet the log's (adjudicator/seat_numbers.py, engine-rules §V.6 design
(a)), on the duel toys of test_event_counts: a command maps to its events and back, and `per_command` serves a seat one
item per command that tells it neither how many events the command made nor where a hidden one lay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.errors import NoSuchEvent
from arbitro.adjudicator.seat_numbers import Command, CommandNumbers, events_of, held, per_command
from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical
from arbitro.events.records import GENESIS

from .test_event_counts import CHAIN, attacked_and_guarded  # registers tellingduel and forewarnedduel


def numbers_of(app: Arbitro) -> CommandNumbers:
    return CommandNumbers("g", (Command(c.record.cmd, c.record.seat, c.hash, c.first_seq, c.last_seq)
                                for c in app.store.commands("g")))


def played(tmp_path: Path, red_card: str, ruleset: str, monkeypatch: pytest.MonkeyPatch) -> Arbitro:
    """Red attacks, blue guards, the umpire undoes the guard (an undo's `to_seq` names an event)."""
    app = attacked_and_guarded(tmp_path, red_card, ruleset, monkeypatch)
    app.undo("g", "umpire", numbers_of(app).last_event(1), "the guard was misclicked")
    return app


def items(app: Arbitro, seat: str, first: int = 0, last: int | None = None) -> list[dict[str, Any]]:
    """What `seat` is served of commands `first` to `last`, built from the events as served one by one."""
    numbers = numbers_of(app)
    return per_command(numbers, app.log_by_event("g", seat, *numbers.events(first, last)), first, last)


def test_a_command_maps_to_its_events_and_each_event_to_its_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = played(tmp_path, "ruby-falcon", "forewarnedduel", monkeypatch)
    numbers, log = numbers_of(app), app.log("g")
    assert numbers.head == app.game("g").head_cmd == 3
    for cmd in range(numbers.head + 1):
        own = [e["seq"] for e in log if e["cmd"] == cmd]
        assert numbers.events(cmd, cmd) == (own[0], own[-1]) and numbers.last_event(cmd) == own[-1]
        assert {numbers.command_of(seq) for seq in own} == {cmd}
    assert numbers.events(1, None) == (numbers.events(1, 1)[0], log[-1]["seq"])
    assert numbers.events(3, 1) == (1, 0) and numbers.events(7, 9) == (1, 0)  # nothing between: an empty range
    with pytest.raises(NoSuchEvent, match=r"game g has commands #0 to #3; there is no #4"):
        numbers.last_event(4)
    with pytest.raises(NoSuchEvent, match="no event #99"):
        numbers.command_of(99)


def test_a_command_recorded_with_no_event_ends_where_the_one_before_it_ended() -> None:
    """A log recorded before §L.8 may hold a command that made no event (first and last 0): it is still a number, at
    the state its predecessor left, linked where that one ended."""
    numbers = CommandNumbers("old", [Command(0, "umpire", "h0", 1, 3), Command(1, "red", "h1", 0, 0),
                                     Command(2, "blue", "h2", 4, 5)])
    assert [numbers.last_event(c) for c in (0, 1, 2)] == [3, 3, 5] and numbers.command_of(4) == 2
    served = [{"seq": s, "cmd": c, "type": "x", "event": {"type": "x"}, "prev": f"p{s}", "hash": f"h{s}"}
              for s, c in ((1, 0), (2, 0), (3, 0), (4, 2), (5, 2))]
    made = per_command(numbers, served)
    assert [(i["cmd"], i["prev"], i["hash"], len(i["events"])) for i in made] == [
        (0, "p1", "h3", 3), (1, "h3", "h3", 0), (2, "p4", "h5", 2)]
    assert per_command(CommandNumbers("none", []), []) == [] and CommandNumbers("none", []).head == 0
    assert per_command(numbers, [], 1, 1)[0]["prev"] == GENESIS  # no event before it read: the chain's start


OLD_AND_NEW = [Command(0, "umpire", "h0", 1, 3), Command(1, "red", "h1", 0, 0), Command(2, "blue", "h2", 4, 5),
               Command(3, "red", "h3", 0, 0), Command(4, "blue", "h4", 6, 6), Command(5, "red", "h5", 7, 9)]


def test_numbers_then_a_command_answer_as_the_numbers_built_anew() -> None:
    """Issue 15: a submit extends the game's numbers by its command (`then`, lists and a dict copied) instead of building
    them anew from every command; every answer is the one a new build gives, with commands that made no event too."""
    grown = CommandNumbers("g", [])
    for k, made in enumerate(OLD_AND_NEW):
        grown = grown.then(made)
        anew = CommandNumbers("g", OLD_AND_NEW[:k + 1])
        assert grown.commands == anew.commands and grown.head == anew.head == made.cmd
        assert [grown.last_event(c.cmd) for c in anew.commands] == [anew.last_event(c.cmd) for c in anew.commands]
        last = anew.last_event(made.cmd)
        assert [grown.command_of(seq) for seq in range(1, last + 1)] == [anew.command_of(seq) for seq in range(1, last + 1)]
        pairs = [(a, b) for a in range(-1, k + 2) for b in (*range(-1, k + 2), None)]
        assert [grown.events(a, b) for a, b in pairs] == [anew.events(a, b) for a, b in pairs]
    assert CommandNumbers("g", OLD_AND_NEW[1:]).then(OLD_AND_NEW[0]).commands == OLD_AND_NEW  # out of order: anew


def test_items_of_some_commands_are_those_of_the_whole_walk() -> None:
    """Issue 15: `per_command` walks only the commands from the first asked or served on (a submit asks for its own); the
    items, links of commands with no event included, are those the walk of every command makes."""
    numbers = CommandNumbers("old", OLD_AND_NEW)
    served = [{"seq": s, "cmd": numbers.command_of(s), "type": "x", "event": {"type": "x"}, "prev": f"p{s}",
               "hash": f"h{s}"} for s in range(1, 10)]
    for since in range(7):  # the events served from command `since` on, as a reader of part of the log is served them
        part = [e for e in served if e["cmd"] >= since]
        whole = per_command(numbers, part)
        for first in range(7):
            for last in (*range(7), None):
                assert per_command(numbers, part, first, last) == [
                    i for i in whole if first <= i["cmd"] and (last is None or i["cmd"] <= last)], (since, first, last)


@pytest.mark.parametrize("ruleset", ["tellingduel", "forewarnedduel"])
def test_one_item_per_command_serves_blue_the_same_bytes_whatever_the_count(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    """The attacker's reading: which digests repeat (a `prev` that is not the hash of the item before says something
    came between), every number, every event, for every range blue may ask for."""
    told, untold = (played(tmp_path, card, ruleset, monkeypatch) for card in ("ruby-falcon", "coral-wolf"))
    assert told.game("g").head_seq == untold.game("g").head_seq + 1  # the umpire's log does differ

    def read(app: Arbitro, first: int, last: int | None) -> bytes:
        seen: dict[str, int] = {}
        served = [{k: (seen.setdefault(v, len(seen)) if k in CHAIN else v) for k, v in item.items()}
                  for item in items(app, "blue", first, last)]
        for item in served[:1]:
            if item["cmd"] == 0:
                item["events"][0]["event"]["origin"].pop("position")  # keyed by the secret seed: untestable
        return canonical(served)

    for first, last in ((0, None), (1, 1), (1, 2), (2, None), (3, 3)):
        assert read(told, first, last) == read(untold, first, last), (first, last)


def test_an_item_links_as_the_log_does_holds_only_what_the_seat_may_see_and_names_commands(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = played(tmp_path, "ruby-falcon", "forewarnedduel", monkeypatch)
    full, numbers = app.log("g"), numbers_of(app)
    blue, red = items(app, "blue"), items(app, "red")
    assert [i["seq"] for i in blue] == [i["cmd"] for i in blue] == [0, 1, 2, 3]
    for item in blue:
        own = [e for e in full if e["cmd"] == item["cmd"]]
        assert (item["prev"], item["hash"], item["seat"]) == (own[0]["prev"], own[-1]["hash"], own[0]["seat"])
        assert all(set(e) == {"type", "event"} for e in item["events"])  # no number, link or salt of its own
    assert [i["prev"] for i in blue[1:]] == [i["hash"] for i in blue[:-1]] and blue[-1]["hash"] == app.game("g").head_hash
    assert '"salt"' not in json.dumps(blue)  # the key, not the genesis's salt_key_commitment
    assert [e["type"] for e in blue[1]["events"]] == ["attack_declared"]  # red's card shown to red alone
    assert [e["type"] for e in red[1]["events"]][:2] == ["card_dealt", "attack_declared"]
    (undone,) = [e["event"] for e in blue[3]["events"] if e["type"] == "undone"]
    assert undone["to_seq"] == 1 and numbers.last_event(1) < numbers.events(3, 3)[0]  # the command it keeps
    flat = events_of(blue)
    assert all(e["seq"] == e["cmd"] for e in flat) and [e["type"] for e in flat] == [
        e["type"] for i in blue for e in i["events"]]
    assert events_of(full) == full  # the umpire's records, one event each, are left as they are


def test_an_items_stubs_lie_after_its_visible_events_wherever_the_hidden_ones_lay() -> None:
    """Arrivano's free order (dangling_4_3_2: caldiero_4_3_1) makes one unit_order_set per unit, in unit order: those
    the enemy may examine whole, the others as a stub. Unseen units {b, d} or {d} alone beside seen a and c: were the
    first stub kept where it lay, its place among the seen orders would tell whether an unseen unit sorting between a
    and c took the order (rev-trust3 finding 3). The stubs lie after every visible event, one of each kind, sorted."""
    def order(unit: str) -> dict[str, object]:
        return {"type": "unit_order_set", "unit": unit, "order": "attack", "rule": "arrivano §4.4"}
    stub = {"type": "unit_order_set", "rule": "arrivano §4.4", "hidden": True}
    other = {"type": "pieces_sighted", "rule": "arrivano §11.3", "hidden": True}
    with_b = held([dict(other), order("a"), dict(stub), order("c"), dict(stub)])
    without_b = held([order("a"), order("c"), dict(stub), None, dict(other)])
    assert with_b == without_b == [order("a"), order("c"), other, stub]

