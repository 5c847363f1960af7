"""A mid-game reveal as the attacker of a hidden fact meets it (engine-rules §R.3, §V.3): refused unless the umpire
accepts what it exposes, then accepted; and the seed as a seat is served it."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.service import Arbitro


def served_seed(app: Arbitro, game: str, seat: str) -> str:
    """The seed as `seat` is served it (its `seed_revealed`)."""
    return next(e["event"]["seed"] for item in app.log(game, seat) for e in item["events"]
                if e["type"] == "seed_revealed")


def revealed_only_when_accepted(app: Arbitro, game: str, seat: str, why: str) -> str:
    """Reveal `game`'s seed mid-game: refused without `expose_hidden` (arbitro §R.3; `why` the hidden fact it would
    expose) with nothing appended, then accepted; the seed as `seat` is served it."""
    head = app.game(game).head_seq
    with pytest.raises(IllegalCommand) as refused:
        app.reveal(game, "a dispute over a roll", seat="umpire")
    assert refused.value.rule == "arbitro §R.3" and app.game(game).head_seq == head, \
        f"a reveal before the end {why}: refused unless the umpire accepts it"
    app.reveal(game, "a dispute over a roll", seat="umpire", expose_hidden=True)
    return served_seed(app, game, seat)
