"""rev-p (eighteenth session): a game whose seed is public goes on salting its new events with that seed.

Every event's salt derives from the seed (events/random.salt; from salt's landing: from the salt key, which the
game's end reveals with it), so once a seat knows it, every event made AFTER is a hash of hidden content it can test
guesses against (arbitro §V.3), not only those before (rev-o O1, which `expose_hidden` makes the umpire accept:
"every hidden fact so far"). And the log goes on after a reveal: §R.3 says play goes on in a fork, but the engine
refuses only new ROLLS in the revealed game; a move needs none. The path that needs no `expose_hidden`: the game
ends (the seed, and the salt key, revealed), then the end is taken back (the umpire's undo, §U.5, or a dispute's
upheld ruling with `undo_to`, §D.3: "the last command was illegal"), and play resumes in the same game.

Caldiero under its fog (§20.4): the umpire rules the game over (`result`), the seed is revealed, the umpire takes
the end back; France moves fr-18-ligne out of Austria's sight; Austria, hashing each destination France could have
chosen with the public seed (tests/caldiero/test_fog_mid_game_reveal.recovered), finds where it went.

Fix (either): refuse every command but the umpire's fork/dispute records in a game whose seed (or salt key) is public
("play goes on in a fork", §R.3, which draws a new seed and key), or salt events made after a reveal with fresh
random salts (as an import without its seed does, events/random._salt) and say so in verify's salt check."""

from __future__ import annotations

from arbitro.adjudicator.creation import POSITION_FORMAT
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.caldiero.harness import encode, position
from tests.caldiero.test_fog_mid_game_reveal import destinations, recovered

ENDED = {"type": "game_ended", "winner": "france", "reason": "ruled over", "rule": "caldiero §18"}


def test_a_move_made_after_the_seed_is_public_is_not_testable_against_its_hash() -> None:
    state = position({"fr-18-ligne": "1417", "au-colloredo": "2520"}, leaders={"massena": "1317"},
                     orders={"massena": "manoeuvre"}, options=("fog_of_war",))
    app = Arbitro(SQLiteStore(":memory:"), clock=lambda: "2026-11-30T00:00:00+00:00")
    app.create("caldiero", position={"format": POSITION_FORMAT, "ruleset": "caldiero", "scenario": "historical",
                                     "options": ["fog_of_war"], "state": encode(state)}, game_id="g")
    app.submit("g", "france", {"type": "activate", "formation": "massena"})
    app.submit("g", "france", {"type": "end_step"})
    before_the_end = app.game("g").head_seq
    app.submit("g", "umpire", {"type": "ruling", "reason": "the game is over",
                               "patch": [{"op": "replace", "path": "/result", "value": ENDED}]})
    assert app.status("g", "austria").seed_revealed, "the end reveals the seed (arbitro §R.3)"
    app.submit("g", "umpire", {"type": "undo", "to": before_the_end, "reason": "the end was ruled in error"})
    assert app.status("g", "austria").outcome is None, "play resumes in the same game"
    app.submit("g", "france", {"type": "move", "units": ["fr-18-ligne"], "to": "1416"})
    moved = app.log("g", "austria")[-1]
    assert [e["event"].get("hidden") for e in moved["events"]] == ["fog of war (caldiero §20.4)"], \
        "Austria is served the move as a stub (else this test tests nothing)"
    served = [e for item in app.log("g", "austria") for e in item["events"]]
    # the key the salts derive from, as Austria was served it at the end: the salt key where the game has one
    # (salt's landing, salt_key_revealed), else the seed (seed_revealed)
    keys = {e["type"]: e["event"].get("salt_key") or e["event"].get("seed") for e in served
            if e["type"] in ("salt_key_revealed", "seed_revealed")}
    key = keys.get("salt_key_revealed") or keys["seed_revealed"]
    true_event = next(e["event"] for e in app.log("g") if e["type"] == "units_moved")
    candidates = destinations(app)
    assert "1416" in candidates and len(candidates) > 20
    assert recovered(app, key, moved, true_event, candidates) == [], \
        "Austria finds where France's unseen unit went, hashing each candidate with the key the end revealed"
