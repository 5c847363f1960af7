"""A seat's expected head is its own (engine-rules §V.6): `submit --expect` takes the head its `status` gives it, the
number of its last command, mapped to the log's in one place (Arbitro.expected_event, seat_numbers.CommandNumbers);
a stale one is refused naming the seat's numbers, and the refusal is the same bytes whatever number of hidden events
lie between. The record keeps the number the seat sent, which its signature covers (verify_signatures rebuilds it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbitro.adjudicator.errors import error_payload
from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import StaleSequence
from tests.seeds import same_secrets

from .conftest import Cli, position_file
from .test_event_counts import CHAIN  # noqa: F401  (registers the two toy rulesets)
from .test_event_counts_channels import RED_CARDS

ATTACK, GUARD = {"type": "attack", "aim": "high"}, {"type": "guard", "stance": "low"}


def test_a_seat_submits_against_its_own_status_head_and_a_stale_one_names_its_numbers(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    red_head = run.json("status", "g", "--as", "red")["head"]
    assert red_head == 0  # the creation is command #0; the log's head is its last event
    assert run.json("status", "g")["head"] > red_head
    assert run.submit("g", "red", ATTACK, "--expect", str(red_head))["cmd"] == 1
    blue_head = run.json("status", "g", "--as", "blue")["head"]
    assert blue_head == 1
    assert run.submit("g", "blue", GUARD, "--expect", str(blue_head))["cmd"] == 2
    for behind in ("1", "9"):  # a head it was shown and has passed, and one it never had
        refused = run.json("submit", "g", "--as", "red", json.dumps(ATTACK), "--expect", behind, code=2)
        assert refused["error"] == "store/stale-sequence" and refused["head"] == 2
        assert f"expected the game at command #{behind} but its head is command #2" in refused["message"]
    # signed against its own head: the record keeps the number the signature covers, and the game verifies
    key_file = str(tmp_path / "blue.key")
    public = run.json("keygen", "-o", key_file)["public_key"]
    assert run.json("register-key", "g", public, "--as", "blue")["since_cmd"] == 3  # a command of its own
    assert run.submit("g", "blue", ATTACK, "--expect", "3", "--sign", key_file, "--key", "b3")["cmd"] == 4
    app = Arbitro(SQLiteStore(run.db))
    assert app.store.command("g", 4).record.expected_seq == 3
    assert app.verify("g").passed


@pytest.mark.parametrize("ruleset", ["tellingduel", "forewarnedduel"])
def test_a_stale_refusal_is_the_same_bytes_whatever_the_count(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    """Two games differing only in red's hidden card, which decides whether red's attack also makes an event hidden
    from blue: blue's command sent against the creation is refused in the same bytes (the CLI's and the server's
    error body, errors.error_payload), and blue's own head is accepted in both."""
    same_secrets(monkeypatch)
    refusals, heads = [], []
    for card in RED_CARDS:
        position = json.loads(position_file(tmp_path, red_card=card).read_text())
        app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-11-29T00:00:00+00:00")
        app.create(ruleset, position={**position, "ruleset": ruleset}, game_id="g")
        app.submit("g", "red", ATTACK, expected_seq=app.status("g", "red").head)
        with pytest.raises(StaleSequence) as stale:
            app.submit("g", "blue", GUARD, expected_seq=0)
        refusals.append(canonical(error_payload(stale.value)))
        heads.append(app.game("g").head_seq)
        assert app.submit("g", "blue", GUARD, expected_seq=app.status("g", "blue").head).cmd == 2
    assert heads[0] == heads[1] + 1  # the counts differ, in the log
    assert refusals[0] == refusals[1] and b"its head is command #1" in refusals[0]
