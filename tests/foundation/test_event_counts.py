"""Event counts per command are not served to a seat (trust point 2, engine-rules §V.6, design (a)): a seat is served
one item per command, numbered as the command and linked by its first `prev` and last `hash`, holding the events it
may see and nothing of the others, and every number it sees is a command number (adjudicator/seat_numbers.py). The
toys below make the count a hidden fact: when red's hidden card is the ruby falcon, red's attack also makes an event
hidden from blue (tellingduel: after the attack; forewarnedduel: before it). Two games differing only in that card
serve blue the same bytes, read as the attacker reads them (which digests repeat: a `prev` that is not the hash of the
item before says something came between)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.ruleset import Decision
from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical
from arbitro.events.sqlite import SQLiteStore
from tests.foundation import duel
from tests.seeds import same_secrets

from .conftest import position_file

CHAIN = ("hash", "prev", "cmd_hash", "salt")  # salted digests, which a seat cannot test guesses against


class TellingDuel(duel.DuelRuleset):
    """The duel, where attacking with the ruby falcon in hand also (hidden from blue) shows red its card again."""

    name = "tellingduel"

    def decide(self, ctx: Decision[duel.DuelState], command: Any) -> None:
        super().decide(ctx, command)
        if isinstance(command, duel.AttackCmd) and ctx.state.cards.get(ctx.seat) == "ruby-falcon":
            ctx.emit(duel.CardDealt(seat=ctx.seat, card="ruby-falcon", rule=str(duel.R_CARD)))

    def redact(self, event: Any, seat: str, state: duel.DuelState) -> dict[str, Any] | None:
        if isinstance(event, duel.CardDealt) and event.seat != seat:
            return None  # not shown at all: served as a `hidden` placeholder
        return super().redact(event, seat, state)


class ForewarnedDuel(TellingDuel):
    """As TellingDuel, but the hidden event comes first: red is shown its ruby falcon before its attack is declared,
    so blue is served a hidden event between two it sees (the genesis and the attack)."""

    name = "forewarnedduel"

    def decide(self, ctx: Decision[duel.DuelState], command: Any) -> None:
        if isinstance(command, duel.AttackCmd) and ctx.state.cards.get(ctx.seat) == "ruby-falcon":
            ctx.emit(duel.CardDealt(seat=ctx.seat, card="ruby-falcon", rule=str(duel.R_CARD)))
        duel.DuelRuleset.decide(self, ctx, command)


registry.register("tellingduel", "tests.foundation.test_event_counts:TellingDuel")
registry.register("forewarnedduel", "tests.foundation.test_event_counts:ForewarnedDuel")


def attacked_and_guarded(tmp_path: Path, red_card: str, ruleset: str, monkeypatch: pytest.MonkeyPatch) -> Arbitro:
    """Game "g" of `ruleset`, red holding `red_card` (the same seed whatever the card), after red's attack and blue's
    guard."""
    same_secrets(monkeypatch)
    position = json.loads(position_file(tmp_path, red_card=red_card).read_text())
    position["ruleset"] = ruleset
    app = Arbitro(SQLiteStore(":memory:"))
    app.create(ruleset, position=position, game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    app.submit("g", "blue", {"type": "guard", "stance": "low"})
    return app


def served_to_blue(tmp_path: Path, red_card: str, monkeypatch: pytest.MonkeyPatch, ruleset: str = "tellingduel",
                   links: bool = False) -> dict[str, Any]:
    """Blue's log and view after red's attack and blue's guard, without the salted digests (CHAIN) and event #1's
    origin.position: that digest of the position file is keyed by the secret seed (events.random.position_digest),
    so it differs with red's card without telling blue anything it can test a guess against. With `links`, each
    digest is kept as the place it first appears in (0, 1, 2 ...): which digests repeat is what an attacker reads
    of them (an event's `prev` that is not the hash of the event before it served says an event came between)."""
    app = attacked_and_guarded(tmp_path, red_card, ruleset, monkeypatch)
    seen: dict[str, int] = {}
    log = [{k: seen.setdefault(v, len(seen)) for k, v in e.items() if k in CHAIN and links}
           | {k: v for k, v in e.items() if k not in CHAIN} for e in app.log("g", "blue")]
    genesis = log[0]["events"][0]["event"]
    assert log[0]["cmd"] == 0 and set(genesis["origin"]) == {"position"}
    del genesis["origin"]["position"]
    return {"log": log, "view": app.view("g", "blue")}


def test_a_hidden_fact_that_changes_how_many_events_a_command_makes_serves_blue_the_same_bytes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert canonical(served_to_blue(tmp_path, "ruby-falcon", monkeypatch)) == canonical(
        served_to_blue(tmp_path, "coral-wolf", monkeypatch))


@pytest.mark.parametrize("ruleset", ["tellingduel", "forewarnedduel"])
def test_nor_do_the_links_between_what_blue_is_served_tell_it_where_a_hidden_event_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    """The attacker's reading of the chain: blue compares each item's `prev` with the hash of the one before it.
    Serving a run of hidden events as one placeholder (and numbering what is served) differed here: with the ruby
    falcon, red's attack served a placeholder (tellingduel: after the attack; forewarnedduel: before it, so the
    attack's `prev` was not the genesis's hash) and without it none. One item per command passes both."""
    told, untold = (served_to_blue(tmp_path, card, monkeypatch, ruleset, links=True)
                    for card in ("ruby-falcon", "coral-wolf"))
    assert canonical(told) == canonical(untold)
