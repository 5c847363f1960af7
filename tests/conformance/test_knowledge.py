"""Who knew what, when (arbitro §D.6) against every shipped log (logs/*.jsonl): for each seat, the knowledge query at
an event agrees with what the service serves that seat (tests/conformance/knowledge_check.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitro.adjudicator import settling
from arbitro.adjudicator.seat_numbers import events_of

from .knowledge_check import knowledge_disagreements
from .test_logs_serve_no_leak import LOGS, imported

@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_knowledge_agrees_with_what_each_seat_was_served(path: Path) -> None:
    app, game = imported(path)
    for seat in app.game(game).seats:  # the whole game: every command's served view folded
        assert knowledge_disagreements(app, game, seat) == [], seat


def test_a_block_face_is_reported_from_the_command_that_showed_it_to_the_one_that_hid_it() -> None:
    """Marengo (§12): austria sees a French block's face when a served event reveals it and loses it when one hides
    it again; the query names both commands (a seat's numbers, engine-rules §V.6) by the events austria was served in
    them, as the issue's example asks ("first saw ... at #N, lost sight at #M")."""
    app, game = imported(next(p for p in LOGS if p.stem == "marengo-full"))
    served = events_of(app.log(game, "austria"))  # each event austria was served, numbered by its command
    shown = next(e for e in served if e["type"] == "blocks_revealed" and e["event"]["side"] == "france")
    token = shown["event"]["blocks"][0]["token"]
    hidden = next(e for e in served if e["type"] == "blocks_hidden" and e["seq"] > shown["seq"]
                  and token in [b["token"] for b in e["event"]["blocks"]])
    changes = settling.knowledge(app, game, "austria", about=token).changes
    face = f"/state/enemy_blocks/{token}/face_up"
    found = [c for c in changes if c.path == face and c.seq >= shown["seq"]][:2]
    assert [(c.seq, c.value) for c in found] == [(shown["seq"], True), (hidden["seq"], False)]
    for change, event in zip(found, (shown, hidden)):
        assert event["type"] in change.event.split(", ") and event["event"]["rule"] in change.rule.split(", ")
    arm = [c for c in changes if c.path == f"/state/enemy_blocks/{token}/arm"]
    assert (arm[0].seq, arm[0].shown) == (shown["seq"], True) and (arm[1].seq, arm[1].shown) == (hidden["seq"], False)
    before = settling.knowledge(app, game, "austria", at=shown["seq"] - 1, about=token).facts
    assert {f.path.rsplit("/", 1)[1]: f.value for f in before}["face_up"] is False
    assert "arm" not in {f.path.rsplit("/", 1)[1] for f in before}, "the face is not known before it is shown"


def test_knowledge_refuses_a_point_the_game_does_not_have_in_its_readers_numbers() -> None:
    app, game = imported(next(p for p in LOGS if p.stem == "marengo-full"))
    with pytest.raises(Exception, match="has commands #0 to #264; there is no #900"):
        settling.knowledge(app, game, "austria", at=900)
    with pytest.raises(Exception, match="has events #1 to #801; there is no #900"):
        settling.knowledge(app, game, "umpire", at=900)
