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

import msgspec
import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import ArbitroError, error_payload
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.codec import canonical
from arbitro.events.sqlite import SQLiteStore

from .conftest import position_file
from .test_event_counts_channels import RED_CARDS, without_chain

RULESETS = ("tellingduel", "forewarnedduel")
ATTACK, GUARD = {"type": "attack", "aim": "high"}, {"type": "guard", "stance": "low"}


def attacked_and_guarded(tmp_path: Path, red_card: str, ruleset: str, monkeypatch: pytest.MonkeyPatch) -> Arbitro:
    """Red attacks (command #1: one event or two, as red's card decides), blue guards (#2)."""
    monkeypatch.setattr(rnd, "new_seed", lambda: "5e" * 32)
    position = json.loads(position_file(tmp_path, red_card=red_card).read_text())
    app = Arbitro(SQLiteStore(":memory:"), clock=lambda: "2026-11-29T00:00:00+00:00")
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
    return canonical(without_chain(json.loads(msgspec.json.encode(result))))


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
    umpire = [answered(lambda app: app.submit("g", "umpire", {"type": "reveal_seed", "reason": "x"}), app)
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
