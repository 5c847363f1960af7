"""Non-interference for the numbers a seat SENDS (engine-rules §V.6): two duels differing only in red's hidden card,
which decides whether red's attack also makes an event hidden from blue (test_event_counts.TellingDuel: after the
attack; ForewarnedDuel: before it). The same command by blue in both games names the same command numbers, is
accepted with the same meaning, and is answered in the same bytes; a number it may not send is refused in the same
bytes. The umpire's numbers are the log's and do differ (the control that the two games differ in their counts)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import ArbitroError, error_payload
from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical
from arbitro.events.sqlite import SQLiteStore
from tests.seeds import same_secrets

from .conftest import position_file
from .test_event_counts_channels import RED_CARDS, served_bytes, served_to

RULESETS = ("tellingduel", "forewarnedduel")
ATTACK, GUARD = {"type": "attack", "aim": "high"}, {"type": "guard", "stance": "low"}


def attacked_and_guarded(tmp_path: Path, red_card: str, ruleset: str, monkeypatch: pytest.MonkeyPatch) -> Arbitro:
    """Red attacks (command #1: one event or two, as red's card decides), blue guards (#2)."""
    same_secrets(monkeypatch)
    position = json.loads(position_file(tmp_path, red_card=red_card).read_text())
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-11-29T00:00:00+00:00")
    app.create(ruleset, position={**position, "ruleset": ruleset}, game_id="g")
    app.submit("g", "red", ATTACK)
    app.submit("g", "blue", GUARD)
    return app


def answered(act: Callable[[Arbitro], Any], app: Arbitro) -> bytes:
    """What `act` is answered, or the error it is refused with (errors.error_payload: the CLI's and the server's
    body), as canonical bytes without the salted digests (test_event_counts.CHAIN)."""
    try:
        result = act(app)
    except ArbitroError as e:
        return canonical(error_payload(e))
    return served_bytes(result)


def same_to_blue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str,
                 *acts: Callable[[Arbitro], Any]) -> list[Arbitro]:
    """Each of `acts` (blue's, in order) is answered in the same bytes in both games; the games, for what follows."""
    told, untold = (attacked_and_guarded(tmp_path, card, ruleset, monkeypatch) for card in RED_CARDS)
    assert told.game("g").head_seq == untold.game("g").head_seq + 1  # the counts differ, in the log
    for act in acts:
        assert answered(act, told) == answered(act, untold)
    return [told, untold]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_seats_note_is_sent_and_read_at_a_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      ruleset: str) -> None:
    """`annotate --at` as a seat names a command (its note is on the command's last event) and is answered as
    `notes` lists it; a command the game does not have is refused in the seat's numbers."""
    games = same_to_blue(tmp_path, monkeypatch, ruleset,
                         lambda app: app.annotate("g", "blue", 1, "red attacked high"),
                         lambda app: app.annotate("g", "blue", 0, "the duel begins", private=True),
                         lambda app: app.annotate("g", "blue", 3, "not yet"),
                         lambda app: app.notes("g", "blue"))
    for app in games:
        assert sorted((n.seq, n.text) for n in app.notes("g", "blue")) == [(0, "the duel begins"), (1, "red attacked high")]
        numbers = app.numbers(app.game("g"))
        assert sorted(n.seq for n in app.notes("g", "umpire")) == [numbers.last_event(0), numbers.last_event(1)]
    with pytest.raises(ArbitroError, match=r"game g has commands #0 to #2; cannot annotate #3"):
        games[0].annotate("g", "blue", 3, "not yet")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_pinned_games_refusal_tells_a_seat_no_event_number(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              ruleset: str) -> None:
    """A build with another version refuses every command (arbitro §L.5) and suggests the umpire's fork at the head:
    by the log's number to the umpire, by none to a seat."""
    told, untold = same_to_blue(tmp_path, monkeypatch, ruleset)
    for app in (told, untold):
        monkeypatch.setattr(type(registry.get(ruleset)), "version", "9.0.0")
    blue = [answered(lambda app: app.submit("g", "blue", ATTACK), app) for app in (told, untold)]
    assert blue[0] == blue[1] and b"log/version-pinned" in blue[0] and b"the umpire's fork of it at its head" in blue[0]
    umpire = [answered(lambda app: app.submit("g", "umpire", {"type": "reveal_seed", "reason": "x", "expose_hidden": True}), app)
              for app in (told, untold)]
    assert umpire[0] != umpire[1]  # the umpire is told the log's head: `arbitro fork g --at N`


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_fork_tells_its_seats_where_it_left_the_parent_by_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    ruleset: str) -> None:
    """The umpire forks after blue's guard (command #2): the fork's genesis and status serve blue `origin.at` 2, the
    same bytes whatever the parent's event count; the umpire reads the parent's event number."""
    told, untold = same_to_blue(tmp_path, monkeypatch, ruleset)
    served = []
    for app in (told, untold):
        fork = app.fork("g", app.game("g").head_seq, new_id="f")
        genesis = app.log(fork, "blue")[0]["events"][0]["event"]
        assert genesis["origin"]["at"] == app.status(fork, "blue").origin["at"] == 2
        assert app.status(fork, "umpire").origin["at"] == app.game("g").head_seq - 1  # before the fork's own record
        served.append(answered(lambda _: {"genesis": genesis, "status": app.status(fork, "blue")}, app))
    assert served[0] == served[1]


UNDO_EVENTS = ("undo_requested", "decision_opened", "decision_revised", "undo_answered", "undone")


def undo_as_served(app: Arbitro, seat: str) -> bytes:
    """The undo's events as `seat`'s log serves them (the consent frame's prompt and context among them) and who
    `status` says is awaited, for what: the seat's own card, which differs between the games, left out."""
    events = [e for item in app.log("g", seat) for e in item["events"] if e["type"] in UNDO_EVENTS]
    return served_bytes({"events": events, "awaiting": app.status("g", seat).awaiting})


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("to", [0, 1])
def test_a_seats_undo_names_a_command_and_its_consent_is_served_by_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      ruleset: str, to: int) -> None:
    """`undo --to` as a seat names a command (the point is its last event: engine-rules §V.6). A point not before the
    last command is refused in command numbers. Blue's undo to the creation (#0) or to red's attack (#1) asks red's
    consent; blue and red are served the request, the consent frame's prompt and context and the undo itself in the
    same bytes whatever red's attack made; the umpire's frame keeps the log's event, which differs (the control)."""
    games = same_to_blue(tmp_path, monkeypatch, ruleset,
                         lambda app: app.undo("g", "blue", 2, "the last command"),
                         lambda app: app.undo("g", "blue", 9, "beyond the head"))
    with pytest.raises(ArbitroError, match=r"#9 is not before the last command \(#2\): nothing to take back"):
        games[0].undo("g", "blue", 9)
    umpire, asked = [], []
    for app in games:
        asked.append(unreceipted(answered(lambda app: app.undo("g", "blue", to, "a misclick"), app)))  # blue's result
        awaiting = app.status("g", "red").awaiting
        assert awaiting.kind == "consent" and awaiting.prompt == f"blue asks to take back everything after command #{to}: accept?"
        (frame,) = [e["event"]["frame"] for item in app.log("g", "red") for e in item["events"] if e["type"] == "decision_opened"
                    and e["event"]["frame"]["kind"] == "consent"]
        assert frame["ctx"]["undo_to"] == to and "undo_cmd" not in frame["ctx"]
        umpire.append(awaited_ctx(app))
    assert umpire[0].undo_cmd == umpire[1].undo_cmd == to and asked[0] == asked[1] and b"undo_requested" in asked[0]
    if to:  # red's attack ends at another event in each game (the creation, at #1 in both)
        assert umpire[0].undo_to != umpire[1].undo_to
    for seat in ("blue", "red"):
        assert undo_as_served(games[0], seat) == undo_as_served(games[1], seat)
    consented = []
    for app in games:
        consented.append(unreceipted(answered(lambda app: app.submit("g", "red", {"type": "consent", "accept": True}),
                                              app)))
        (undone,) = [e["event"] for item in app.log("g", "blue") for e in item["events"] if e["type"] == "undone"]
        assert undone["to_seq"] == to and undone["by"] == "blue"
    assert consented[0] == consented[1] and b"undone" in consented[0]  # red's result: its undone names command #to
    for seat in ("blue", "red"):
        assert undo_as_served(games[0], seat) == undo_as_served(games[1], seat)
    assert canonical(served_to(games[0], "blue")) == canonical(served_to(games[1], "blue"))


def unreceipted(answer: bytes) -> bytes:
    """A submit's answer without its receipt: signed by each database's own server key, over the chain's salted head
    (a digest a seat cannot test guesses against), so it differs between any two games."""
    return canonical({k: v for k, v in json.loads(answer).items() if k != "receipt"})


def awaited_ctx(app: Arbitro) -> Any:
    """The consent frame's context as the game holds it (the umpire's)."""
    (frame,) = [f for f in app.state_at("g").core.decisions if f.kind == "consent"]
    return frame.ctx
