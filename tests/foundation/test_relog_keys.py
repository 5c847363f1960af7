"""bench/drivers/relog.py relogs a log with signing keys (arbitro §L.6): each seat's registration, a chained command,
played again as it was; each signed command sent again with its recorded signature (which covers the game's id,
the seat, the head and the idempotency key, all the same in a relog); the umpire's key withdrawal sent again without
what the server filled in from the registration (the relog's server fills it in alike). A translator that moves
or changes a signed command is refused, saying why: the seat's private key is not there to sign it again."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.service import Arbitro
from arbitro.events.signing import new_private_key, public_key
from arbitro.events.sqlite import SQLiteStore
from bench.drivers import relog, write_log

from .test_key_withdrawal import red_to_play, signed

SEED = "5e" * 32


@pytest.fixture
def keyed_log(tmp_path: Path) -> Path:
    """A duel where red registers a key and signs, the umpire withdraws it, red plays unsigned, registers a second
    key and signs again: the whole log, with its seed."""
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-11-30T20:00:00+00:00")
    app.create("duel", "standard", game_id="g", seed=SEED)
    first, second = new_private_key(), new_private_key()
    app.register_key("g", "red", public_key(first))
    signed(app, "g", "red", first, "red-1")
    app.withdraw_key("g", "red", "red's key file was lost")
    app.submit("g", "red", red_to_play(app), key="red-2")  # unsigned: no key in force
    app.register_key("g", "red", public_key(second))
    signed(app, "g", "red", second, "red-3")
    path = tmp_path / "keyed.jsonl"
    write_log(path, app, "g")
    return path


def test_a_log_with_registrations_signatures_and_a_withdrawal_is_relogged_byte_for_byte(keyed_log: Path,
                                                                                          tmp_path: Path) -> None:
    text = keyed_log.read_text(encoding="utf-8")
    assert text.count('"type":"key_registered"') == 2 and '"type":"key_withdrawn"' in text
    assert text.count('"signature":{') == 2
    copy = tmp_path / "copy.jsonl"
    shutil.copy(keyed_log, copy)
    assert relog.relog(copy) > 0
    assert copy.read_bytes() == keyed_log.read_bytes()


def test_a_translator_that_moves_a_signed_command_is_refused_saying_why(keyed_log: Path) -> None:
    def changed(app: Arbitro, game: str, seat: str, command: Any) -> list[tuple[str, Any]]:
        """Every attack aimed the other way: red's first signed command among them."""
        if command.get("type") == "attack":
            command = {**command, "aim": "low" if command["aim"] == "high" else "high"}
        return [(seat, command)]

    with pytest.raises(SystemExit) as e:
        relog.relog(keyed_log, changed)
    said = " ".join(str(e.value).split())
    assert "accepted only signed" in said  # the refusal
    assert ("(command 2 was signed by red: its signature covers the game's id, the seat, the head #1, the idempotency "
            "key 'red-1' and the command") in said
    assert "cannot sign it again without the seat's private key, arbitro §L.6" in said  # and why
