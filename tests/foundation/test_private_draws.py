"""A private draw (`ctx.draw(..., visible_to=(seat,))`) serves its seat what was drawn and nothing of the pool it
came from: the rest of a cup or a deck is as hidden from the drawer as from everyone else (arbitro §V). Proved by
non-interference: two games that differ only in the pool's undrawn content serve the drawer the same bytes."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator import registry
from arbitro.adjudicator.randomness import SeededSupply
from arbitro.adjudicator.ruleset import Decision
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.codec import canonical
from arbitro.projections.fold import Fold
from arbitro.projections.game import CoreState, GameState
from arbitro.projections.views import redact_event, seat_view

from . import duel
from arbitro.adjudicator.seat_numbers import events_of

SEED = "5e" * 32
DRAWN = "ruby-falcon"


def pool_with(others: tuple[str, str]) -> tuple[str, ...]:
    """A pool of three whose seeded draw (SEED, index 0) picks DRAWN: the draw's position depends on the pool's
    size alone (events/random.draw), so DRAWN is put there and `others` fill the rest."""
    (at,) = rnd.draw(SEED, "", 0, ("0", "1", "2"), 1)
    rest = iter(others)
    return tuple(DRAWN if str(i) == at else next(rest) for i in range(3))


def served_to(seat: str, pool: tuple[str, ...]) -> bytes:
    """Red draws its card from `pool` at the start of a duel: every event as `seat` is served it, then its view."""
    ruleset = registry.get("duel")
    fold = Fold(ruleset)
    game = GameState(core=CoreState(), rules=ruleset.new_state("standard", ()))
    ctx = Decision(ruleset, fold, fold.copy(game), "red", 1, SeededSupply(SEED), ())
    (card,) = ctx.draw(pool, 1, purpose=f"{duel.R_CARD} card for red", visible_to=("red",))
    ctx.emit(duel.CardDealt(seat="red", card=card, rule=str(duel.R_CARD)))
    out: list[Any] = []
    for event in ctx.events:
        game = fold.apply_event(game, game.core.seq + 1, event)
        out.append(redact_event(ruleset, event, seat, game))
    out.append(seat_view(ruleset, game, seat))
    return canonical(out)


def test_the_drawer_is_served_the_same_bytes_whatever_the_rest_of_the_pool_holds() -> None:
    a, b = pool_with(("coral-wolf", "amber-lynx")), pool_with(("jade-otter", "onyx-heron"))
    assert served_to("red", a) == served_to("red", b)
    assert DRAWN.encode() in served_to("red", a), "the drawer is served what it drew"
    for hidden in ("coral-wolf", "amber-lynx"):
        assert hidden.encode() not in served_to("red", a)
    assert served_to("umpire", a) != served_to("umpire", b), "the pools really differ"
    assert served_to("blue", a) == served_to("blue", b) and DRAWN.encode() not in served_to("blue", a)


def test_a_private_draw_in_a_game_serves_its_seat_the_items_and_not_the_population(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    umpire = [e["event"] for e in app.log("g") if e["type"] == "items_drawn"]
    red = [e for e in events_of(app.log("g", "red")) if e["type"] == "items_drawn"]
    assert umpire[0]["population"] and tuple(umpire[0]["visible_to"]) == ("red",)
    assert red[0]["event"]["drawn"] == umpire[0]["drawn"] and "population" not in red[0]["event"]
    assert "salt" not in red[0], "a redacted event loses its salt"
    assert "drawn" not in red[1]["event"] and red[1]["event"]["hidden"] is True  # blue's card
