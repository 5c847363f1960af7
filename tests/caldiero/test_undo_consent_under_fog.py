"""Caldiero under its fog option (§20.4): France's move of fr-18-ligne to 1617 brings au-colloredo (2017) into its
sight; France then takes the move back. Two games differ only in a fact hidden from Austria: whether France had
examined Colloredo before (its `seen`). Austria's view before is the same, and after the take-back it is served the
same bytes: under the fog a take-back asks consent whether or not the move showed France anything (Para Bellum's
`may_reveal`, engine-rules §U.1; rev-b's finding 3)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.creation import POSITION_FORMAT
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.caldiero.harness import encode, position
from tests.foundation.test_event_counts_channels import served_bytes as served
from tests.seeds import same_secrets


def taken_back(seen_before: bool) -> tuple[bytes, bytes]:
    """Austria's view before France's move, and what it is served after France takes the move back."""
    state = position({"fr-18-ligne": "1417", "au-colloredo": "2017"}, leaders={"massena": "1317"},
                     orders={"massena": "manoeuvre"}, options=("fog_of_war",))
    if seen_before:
        state.seen["france"] = sorted({*state.seen.get("france", []), "au-colloredo"})
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-11-29T00:00:00+00:00")
    app.create("caldiero", position={"format": POSITION_FORMAT, "ruleset": "caldiero", "scenario": "historical",
                                     "options": ["fog_of_war"], "state": encode(state)}, game_id="g")
    before = served(app.view("g", "austria"))
    app.submit("g", "france", {"type": "activate", "formation": "massena"})
    app.submit("g", "france", {"type": "end_step"})
    app.submit("g", "france", {"type": "move", "units": ["fr-18-ligne"], "to": "1617"})
    app.undo("g", "france", app.numbers(app.game("g")).head - 1, "misclick")
    return before, served([app.status("g", "austria"), app.log("g", "austria"), app.view("g", "austria")])


def test_frances_take_back_does_not_tell_austria_what_france_had_examined(monkeypatch: Any) -> None:
    same_secrets(monkeypatch)
    (before_first, after_first), (before_again, after_again) = taken_back(False), taken_back(True)
    assert before_first == before_again, "Austria's view before: the same"
    assert after_first == after_again, "Austria is told whether France had examined Colloredo before its move"
    assert b"undo_requested" in after_first  # consent asked in both (the fog is in force)
