"""rev-o O1 (seventeenth session), the lasting answer: the umpire may reveal the seed before the game ends
(engine-rules §R.3, "e.g. in a dispute"). Salts used to derive from that seed, so from such a reveal on each seat
could recompute the salt of every event and test candidates against the hashes it was served (each item,
seat_numbers.per_command, carries its command's first `prev`, its `cmd_hash` and its last event's `hash`). They now
derive from the game's salt key (events.random), committed in the genesis and revealed only at the game's end, so a
mid-game reveal (which the umpire must still accept, `expose_hidden`: it opens every hidden roll and draw, rev-p's
tests/caldiero/test_rev_p_reveal_hidden_dice.py) opens no salt (§V.3).

Caldiero under its fog (§20.4): France moves fr-18-ligne out of Austria's sight (Austria is served a stub); the umpire
reveals the seed; Austria, with the seed from the `seed_revealed` it is served, tries every destination France could
have chosen (the attacker of tests/foundation/test_hidden_hashes.py: everything else right) and finds nothing; the
same attack with the salt key finds the true one, so the attack itself is sound."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.creation import POSITION_FORMAT
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.sqlite import SQLiteStore
from tests.caldiero.harness import encode, position
from tests.reveals import served_seed


def massena_moving() -> Arbitro:
    """Game "g" under the fog, Massena's formation activated and at its movement step: fr-18-ligne, out of
    Austria's sight, may move (au-colloredo far off)."""
    state = position({"fr-18-ligne": "1417", "au-colloredo": "2520"}, leaders={"massena": "1317"},
                     orders={"massena": "manoeuvre"}, options=("fog_of_war",))
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-11-30T00:00:00+00:00")
    app.create("caldiero", position={"format": POSITION_FORMAT, "ruleset": "caldiero", "scenario": "historical",
                                     "options": ["fog_of_war"], "state": encode(state)}, game_id="g")
    app.submit("g", "france", {"type": "activate", "formation": "massena"})
    app.submit("g", "france", {"type": "end_step"})
    return app


def hidden_move(app: Arbitro, to: str) -> dict[str, Any]:
    """France moves fr-18-ligne to `to`; the item Austria is served for it, checked to be a stub."""
    app.submit("g", "france", {"type": "move", "units": ["fr-18-ligne"], "to": to})
    moved = app.log("g", "austria")[-1]
    assert [e["event"].get("hidden") for e in moved["events"]] == ["fog of war (caldiero §20.4)"], \
        "Austria is served the move as a stub (else the attack tests nothing)"
    return moved


def destinations(app: Arbitro) -> list[str]:
    """Where France's move could have gone: the candidates an attacker tries (the listing before the move)."""
    before = app.state_at("g", app.game("g").head_seq - 1)
    listed = app.adjudicator("caldiero").legal(before, "france")
    return sorted({c["to"] for c in listed if c["type"] == "move" and c["units"] == ["fr-18-ligne"]})


def recovered(app: Arbitro, seed: str, item: dict[str, Any], true_event: dict[str, Any], candidates: list[str],
              ) -> list[str]:
    """The destinations whose event, salted with the revealed seed, hashes to the item Austria is served."""
    found = []
    for to in candidates:
        event = {**true_event, "path": [to]}  # a one-hex move: its path is its destination
        for seq in range(1, 40):  # the log's number is not served; the attacker tries them all
            body = {"game": "g", "seq": seq, "cmd": item["cmd"], "cmd_hash": item["cmd_hash"], "seat": item["seat"],
                    "salt": rnd.salt(seed, "g", seq), "prev": item["prev"], "event": event}
            if sha256_hex(canonical(body)) == item["hash"]:
                found.append(to)
    return found


def test_a_reveal_before_the_end_shows_no_unseen_move() -> None:
    app = massena_moving()
    moved = hidden_move(app, "1416")
    candidates = destinations(app)
    assert "1416" in candidates and len(candidates) > 20
    true_event = next(e["event"] for e in app.log("g") if e["type"] == "units_moved")  # the umpire's, whole
    assert recovered(app, "00" * 32, moved, true_event, candidates) == [], "without the seed nothing is found"
    app.reveal("g", "a dispute over a roll", seat="umpire", expose_hidden=True)
    served = app.log("g", "austria")
    seed = served_seed(app, "g", "austria")
    assert seed == app.game("g").seed
    item = next(i for i in served if i["cmd"] == moved["cmd"])
    assert recovered(app, seed, item, true_event, candidates) == [], "the revealed seed opens no salt"
    key = app.game("g").salt_key  # what the game's end reveals: with it the same attack finds the move
    assert key is not None and key not in str(served), "nothing served holds the salt key before the end"
    assert recovered(app, key, item, true_event, candidates) == ["1416"]
