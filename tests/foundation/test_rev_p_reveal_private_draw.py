"""rev-p (eighteenth session), the guard's second case (tests/caldiero/test_rev_p_reveal_hidden_dice.py has the
first): a private draw. The duel deals each seat a hidden card from its own deck (tests/foundation/duel.py `start`:
`ctx.draw(DECKS[seat], 1, visible_to=(seat,))`); blue is served red's draw without what was drawn, but its random
index is public (arbitro §V.4) and red's deck is the game's data. So once the seed is revealed blue recomputes red's
card (events.random.draw) whatever key the salts derive from: a mid-game reveal still shows a seat a hidden hand,
and stays the umpire's explicit choice (`expose_hidden`, engine-rules §R.3)."""

from __future__ import annotations

from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from tests.foundation.duel import DECKS
from tests.reveals import revealed_only_when_accepted


def test_a_mid_game_reveal_that_would_show_blue_reds_hidden_card_is_the_umpires_explicit_choice(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "end_turn"})  # mid-game
    draws = [e["event"] for item in app.log("g", "blue") for e in item["events"] if e["type"] == "items_drawn"]
    reds = next(d for d in draws if "red" in d["purpose"])
    assert reds.get("hidden") and "drawn" not in reds, "blue is served red's draw without its card (the premise)"
    seed = revealed_only_when_accepted(app, "g", "blue", "shows blue red's hidden card")
    served = [e["event"] for item in app.log("g", "blue") for e in item["events"]]
    mix = next((e["mix"] for e in served if e["type"] == "entropy_mixed"), "")
    guessed = rnd.draw(seed, mix, reds["index"], DECKS["red"], 1)
    dealt = next(e["event"]["card"] for e in app.log("g") if e["type"] == "card_dealt" and e["event"]["seat"] == "red")
    assert guessed == (dealt,), "what the explicit reveal hands blue: red's card"
