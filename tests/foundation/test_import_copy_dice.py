"""rev-q (nineteenth session): a copy made by import shows the rolls its original will make. The umpire's export
`--with-seed` (to move a game between servers) holds the secret seed; imported into the database that holds the
original (`import --as-id`, "when its own id is taken"), the copy rolls from the same seed, mix and random index as
the original, so the same commands give the same rolls: a seat handed the copy's tokens plays ahead there and knows
the original's next dice. arbitro §R.3 forbids exactly that of a fork ("no fork, made in any way, shows a roll its
parent will make": `--keep-dice` is refused until the parent's seed is revealed). An import is refused alike while a
game of the database still rolls from the file's secret seed; once that game's seed is revealed (it rolls no more),
or from an export without the seed (the copy rolls nothing, §R.1), the copy is made."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore

ATTACK, GUARD = {"type": "attack", "aim": "high"}, {"type": "guard", "stance": "low"}


def rolls(app: Arbitro, game: str) -> list[list[int]]:
    return [e["event"]["values"] for e in app.log(game, "umpire") if e["type"] == "dice_rolled"]


def test_the_copy_would_roll_what_its_original_rolls_next(app: Arbitro) -> None:
    """What the refusal stops: a copy made in another database (the move between servers it serves) gives the same
    commands the same rolls as the original."""
    app.create("duel", "standard", game_id="g")
    elsewhere = Arbitro(SQLiteStore(":memory:"))
    elsewhere.import_lines(app.export("g", "umpire", with_seed=True), "g.jsonl", seat="umpire", as_id="c")
    for game, where in (("c", elsewhere), ("g", app)):
        where.submit(game, "red", ATTACK)
        where.submit(game, "blue", GUARD)
    assert rolls(elsewhere, "c") == rolls(app, "g") != []


def test_no_copy_beside_a_game_that_still_rolls_from_its_secret_seed(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", ATTACK)
    with pytest.raises(IllegalCommand, match=r"game g in this database rolls from the same secret seed") as refused:
        app.import_lines(app.export("g", "umpire", with_seed=True), "g.jsonl", seat="umpire", as_id="c")
    assert refused.value.rule == "arbitro §R.3"
    assert "arbitro fork g --at" in str(refused.value)
    assert [g.id for g in app.store.games()] == ["g"], "nothing imported"


def test_a_copy_once_the_seed_is_revealed_or_without_it(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", ATTACK)
    app.import_lines(app.export("g", "umpire"), "g.jsonl", seat="umpire", as_id="unseeded")  # rolls nothing (§R.1)
    app.reveal("g", "a disputed roll", seat="umpire", expose_hidden=True)
    app.import_lines(app.export("g", "umpire", with_seed=True), "g.jsonl", seat="umpire", as_id="revealed")
    for copy in ("unseeded", "revealed"):
        with pytest.raises(IllegalCommand):
            app.submit(copy, "blue", GUARD)
