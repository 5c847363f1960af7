"""rev-p P1 (eighteenth session): play taken back past the game's end resumed salting its new events with the key the
end had made public (the seed; since the salt key, the salt key), so every event made AFTER was a hash of hidden
content a seat could test guesses against (arbitro §V.3). No `expose_hidden` is needed on that path: the game ends
(seed and salt key revealed), the end is taken back (the umpire's undo, §U.5; a dispute's upheld ruling with
`undo_to`, §D.3; or the seats' undo with consent), and play resumes in the same game. Since the fix, commands after
the salting key is public get fresh random salts (projections.game.salting_key_public), which verify leaves
unchecked and says so.

Caldiero under its fog (§20.4): the umpire rules the game over, the seed and key are revealed, the umpire takes the
end back; France moves fr-18-ligne out of Austria's sight; Austria, hashing each destination France could have
chosen with the revealed key (test_fog_mid_game_reveal.recovered), finds nothing."""

from __future__ import annotations

from tests.caldiero.test_fog_mid_game_reveal import destinations, hidden_move, massena_moving, recovered

ENDED = {"type": "game_ended", "winner": "france", "reason": "ruled over", "rule": "caldiero §18"}


def test_a_move_made_after_the_seed_is_public_is_not_testable_against_its_hash() -> None:
    app = massena_moving()
    before_the_end = app.game("g").head_seq
    app.submit("g", "umpire", {"type": "ruling", "reason": "the game is over",
                               "patch": [{"op": "replace", "path": "/result", "value": ENDED}]})
    assert app.status("g", "austria").seed_revealed, "the end reveals the seed (arbitro §R.3)"
    app.submit("g", "umpire", {"type": "undo", "to": before_the_end, "reason": "the end was ruled in error"})
    assert app.status("g", "austria").outcome is None, "play resumes in the same game"
    moved = hidden_move(app, "1416")
    served = [e for item in app.log("g", "austria") for e in item["events"]]
    # the key the salts derived from, as Austria was served it at the end
    key = next(e["event"]["salt_key"] for e in served if e["type"] == "salt_key_revealed")
    assert key == app.game("g").salt_key
    true_event = next(e["event"] for e in app.log("g") if e["type"] == "units_moved")
    candidates = destinations(app)
    assert "1416" in candidates and len(candidates) > 20
    assert recovered(app, key, moved, true_event, candidates) == [], \
        "Austria finds where France's unseen unit went, hashing each candidate with the key the end revealed"
