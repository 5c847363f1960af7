"""rev-p (eighteenth session), a guard for salt's salt key (rev-o O1's lasting answer): a key of its own closes the
salts to a mid-game reveal, not the DICE. A die rolled out of a seat's sight is served to it without its faces
(arbitro §V.4: that it was rolled, its random index, count and sides are public), so once the seed is revealed the
seat recomputes the faces from the seed, the served mix and the index (events.random.roll, arbitro §R.1), and with
them the hidden result they decided.

Caldiero under its fog (§20.4): the disordered fr-40-ligne, out of Austria's sight, tries to reorganise (§15.3, an
efficiency test §13.1: its die is France's). After a reveal Austria knows the die, so whether the unseen stack
reorganised. So a mid-game reveal still hands every seat a hidden fact in any game that rolled a die out of a
seat's sight (or drew privately: Monferrato's hands), salt key or not: the umpire must still accept that explicitly
(`expose_hidden`, engine-rules §R.3), and the answer must not say that nothing hidden is exposed."""

from __future__ import annotations

from arbitro.adjudicator.creation import POSITION_FORMAT
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.sqlite import SQLiteStore
from tests.caldiero.harness import encode, position
from tests.reveals import revealed_only_when_accepted

OOC = "2518"  # far from Massena and out of Austria's sight (tests/caldiero/test_fog_served.py)


def reorganised_out_of_sight() -> Arbitro:
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": OOC, "au-colloredo": "1917"}, leaders={"massena": "1317"},
                     orders={"massena": "defence"}, options=("fog_of_war",))
    state.units["fr-40-ligne"].status = "disordered"
    state.phase, state.step, state.seat = "command", "reorganise", "france"
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-11-30T00:00:00+00:00")
    app.create("caldiero", position={"format": POSITION_FORMAT, "ruleset": "caldiero", "scenario": "historical",
                                     "options": ["fog_of_war"], "state": encode(state)}, game_id="g")
    app.submit("g", "france", {"type": "reorganise", "hex": OOC})
    return app


def served_die(app: Arbitro) -> dict:
    return next(e["event"] for item in app.log("g", "austria") for e in item["events"] if e["type"] == "dice_rolled")


def test_a_mid_game_reveal_is_still_the_umpires_explicit_choice_where_a_die_was_rolled_out_of_a_seats_sight() -> None:
    app = reorganised_out_of_sight()
    die = served_die(app)
    assert die.get("hidden") and "values" not in die, "Austria is served the die without its faces (the premise)"
    umpires = next(e["event"] for e in app.log("g") if e["type"] == "dice_rolled")
    seed = revealed_only_when_accepted(app, "g", "austria", "opens every die rolled out of a seat's sight")
    # What the explicit acceptance hands Austria: the hidden faces, from the served seed, mix and index.
    assert list(rnd.roll(seed, "", die["index"], die["count"], die["sides"])) == umpires["values"]
