"""rev-p (eighteenth session): a seat steers the dice of a fork that kept them. A `keep_dice` fork replays its
parent's revealed seed (arbitro §R.3: "its rolls are predictable by anyone from the public seed"), and it has no
entropy seats, so `add_entropy` is accepted there (engine.py refuses it only from the umpire and where seats commit
entropy). Knowing the seed, the mix and the next random index, a seat tries entropies offline until the next roll is
the one it wants, then sends that entropy: not predicting the fork's dice, choosing them.

The engine refuses `add_entropy` where the game's seed is public to its seats (a kept-dice fork: its dice public;
or core.seed set), citing §R.3."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from tests.reveals import served_seed


def test_a_seat_cannot_mix_in_entropy_it_chose_knowing_the_public_seed(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "end_turn"})
    app.reveal("g", "analysis", seat="umpire", expose_hidden=True)
    fork = app.fork("g", app.game("g").head_seq, keep_dice=True, new_id="f")
    seed = served_seed(app, "g", "blue")
    state = app.state_at(fork)
    chosen = next(f"e{n}" for n in range(5000)
                  if rnd.roll(seed, rnd.mix_entropy(state.core.mix, "blue", f"e{n}"), state.core.rolls, 2, 6) == (6, 6))
    with pytest.raises(IllegalCommand, match=r"seed is public.*arbitro fork f") as refused:
        app.submit(fork, "blue", {"type": "add_entropy", "entropy": chosen})
    assert refused.value.rule == "arbitro §R.3"  # not another refusal (the umpire's, committed entropy's)


def test_nor_in_a_game_whose_own_seed_was_revealed(app: Arbitro) -> None:
    """The refusal reads the seed's state, not only the fork's origin: a game whose seed was revealed mid-game
    (the umpire's explicit choice) takes no more entropy either, and says where play goes on (arbitro §R.3)."""
    app.create("duel", "standard", game_id="g")
    app.submit("g", "blue", {"type": "add_entropy", "entropy": "before the reveal"})
    app.reveal("g", "a disputed roll", seat="umpire", expose_hidden=True)
    with pytest.raises(IllegalCommand, match=r"seed is public.*arbitro fork g") as refused:
        app.submit("g", "blue", {"type": "add_entropy", "entropy": "after"})
    assert refused.value.rule == "arbitro §R.3"
