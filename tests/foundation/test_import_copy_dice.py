"""rev-q (nineteenth session): a copy made by import shows the rolls its original will make. The umpire's export
`--with-seed` (to move a game between servers) holds the secret seed; imported into the database that holds the
original (`import --as-id`, "when its own id is taken"), the copy rolls from the same seed, mix and random index as
the original, so the same commands give the same rolls: a seat handed the copy's tokens plays ahead there and knows
the original's next dice. arbitro §R.3 forbids exactly that of a fork ("no fork, made in any way, shows a roll its
parent will make": `--keep-dice` is refused until the parent's seed is revealed). An import is refused alike while a
game of the database still rolls from the file's secret seed; once that game's seed is revealed (it rolls no more),
or from an export without the seed (the copy rolls nothing, §R.1), the copy is made."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from arbitro.adjudicator.errors import BadFile, IllegalCommand
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


@pytest.mark.parametrize("spelled", [str.upper, lambda seed: f" {seed[:32]} {seed[32:]}\n"],
                         ids=["upper-case", "spaced"])
def test_a_seed_spelled_otherwise_is_no_other_seed(app: Arbitro, spelled: Callable[[str], str]) -> None:
    """rev-r (twentieth session): the refusal compared the seeds' spellings, and the dice key is bytes.fromhex(seed),
    which reads upper case and spaces alike: the file's seed respelled passed the comparison, the chain and the
    commitment check (sha256 of the same bytes), and the copy rolled the original's next dice. A seed is its 64
    lowercase hex digits, as created (events.random.checked_seed): any other spelling matches no commitment."""
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", ATTACK)
    lines = list(app.export("g", "umpire", with_seed=True))
    record = json.loads(lines[0])
    record["seed"] = spelled(record["seed"])
    with pytest.raises(BadFile, match=r"carries a seed that does not match the seed commitment.*nothing imported"):
        app.import_lines([json.dumps(record), *lines[1:]], "g.jsonl", seat="umpire", as_id="c")
    assert [g.id for g in app.store.games()] == ["g"], "nothing imported"
