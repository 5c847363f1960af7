"""A reveal's answer says what it exposed (ctx, nineteenth session; arbitro §R.3, §V.3). The CLI's `--json` said
`exposed_hidden: false` for a game with a salt key, though the reveal had just shown every seat every hidden roll
and draw (rev-p's guard tests: tests/caldiero/test_rev_p_reveal_hidden_dice.py), and the HTTP answer said nothing.
Now the service's answer names the entry of reveal.EXPOSES that applies (`salted_by`) and gives its wording
(`exposed`), the very words of the refusal without expose_hidden; the CLI prints them, HTTP returns them."""

from __future__ import annotations

import msgspec
import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.creation import genesis
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.reveal import EXPOSES
from arbitro.adjudicator.service import Arbitro
from tests.foundation.conftest import Cli

SEED = "5e" * 32


def old_game(app: Arbitro, game_id: str) -> str:
    """A game made before the salt key (its genesis commits none, as every shipped log): salted by its seed."""
    made = genesis(registry.get("duel"), SEED, "standard", salt_key="4b" * 32)
    return app.start_recorded(msgspec.structs.replace(made, salt_key_commitment=msgspec.UNSET), SEED, game_id)


@pytest.mark.parametrize("salted_by", ["salt key", "seed"])
def test_the_cli_says_what_the_reveal_exposed_as_the_refusal_did(run: Cli, app: Arbitro, salted_by: str) -> None:
    if salted_by == "seed":
        old_game(app, "g")
    else:
        run("new", "duel", "standard", "--id", "g")
    refused = run("reveal", "g", "--reason", "a dispute", code=1).stderr
    answer = run.json("reveal", "g", "--expose-hidden", "--reason", "a dispute")
    assert (answer["salted_by"], answer["exposed"]) == (salted_by, EXPOSES[salted_by])
    assert "exposed_hidden" not in answer, "the old flag said false where hidden rolls were shown"
    assert " ".join(answer["exposed"].split()) in " ".join(refused.split()), "one wording: the refusal's"


def test_the_cli_readable_answer_says_it_in_the_same_words(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    text = " ".join(run("reveal", "g", "--expose-hidden", "--reason", "a dispute").stdout.split())
    assert "A reveal before the game's end: every seat then recomputes every roll and draw made so far" in text
    assert "unseen moves and positions stay hidden." in text and "arbitro fork g --at" in text


def test_an_old_games_reveal_says_every_hidden_fact_was_shown(run: Cli, app: Arbitro) -> None:
    old_game(app, "g")
    text = run("reveal", "g", "--expose-hidden", "--reason", "a dispute").stdout
    assert "A reveal before the game's end: this game was made before salts had a key of their own" in text
    assert "unseen moves, hidden faces" in " ".join(text.split())


def test_the_library_answers_likewise_and_a_refusal_is_unchanged(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    with pytest.raises(IllegalCommand, match="expose_hidden") as refused:
        app.reveal("g", "a dispute", seat="umpire")
    assert refused.value.rule == "arbitro §R.3"
    result = app.reveal("g", "a dispute", seat="umpire", expose_hidden=True)
    assert (result.salted_by, result.exposed) == ("salt key", EXPOSES["salt key"])
    assert [e["type"] for e in result.events] == ["seed_revealed"]


def test_a_reveal_sent_as_a_plain_command_answers_alike(app: Arbitro) -> None:
    """However it is sent (`submit`, HTTP's /commands, mail), a reveal's answer says what it exposed."""
    old_game(app, "g")
    result = app.submit("g", "umpire", {"type": "reveal_seed", "reason": "a dispute", "expose_hidden": True})
    assert (getattr(result, "salted_by", None), getattr(result, "exposed", None)) == ("seed", EXPOSES["seed"])
