"""rev-trust2's attacker tests on the trust engineer's seat-export checks (87f5c73..0c9a605). The first three fail on
main for the reason their docstrings name, and pass once the finding is fixed; the last passes on main and shows a
claim of the docs to be false."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from arbitro.adjudicator.service import Arbitro
from arbitro.events import signing
from arbitro.events.sqlite import SQLiteStore

from .conftest import Cli
from .test_historian import FRIMONT, PILATI
from .test_seat_export_ranges import _by_host, _command, _event, _verified, played  # noqa: F401 (fixture)
from .test_seat_export_signatures import signed  # noqa: F401 (fixture)
from .test_seat_seal import records, reseal, server_key_of, text_of

assert played is not None and signed is not None


def test_a_copy_that_held_austrias_key_refuses_a_later_export_without_it(
        signed: tuple[Cli, str], tmp_path: Path) -> None:  # noqa: F811
    """Finding 1. The host (who holds the server's key and the umpire's database) drops austria's registered key
    from its database, enters a command in austria's name unsigned, and exports. No re-sealing is needed: the
    server seals it. austria's copy held the key and austria's signed command; import --server-key takes the new
    export and `verify` of the copy says VERIFIED, with no 'seat signatures' check at all: the only thing that
    catches it is --seat-key, which import does not take and nothing reminds the seat to give."""
    umpire, _key = signed
    seat = Cli(tmp_path / "austria.db")
    first = tmp_path / "a1.jsonl"
    umpire("export", "g", "--as", "austria", "-o", str(first))
    server = signing.fingerprint(records(first.read_text())[0]["server_key"])
    seat("import", str(first), "--server-key", server)
    with sqlite3.connect(tmp_path / "umpire.db") as db:  # the host's own database
        db.execute("DELETE FROM seat_keys")
        db.execute("DELETE FROM command_signatures")
    umpire.submit("g", "austria", PILATI)  # in austria's name, unsigned
    second = tmp_path / "a2.jsonl"
    umpire("export", "g", "--as", "austria", "-o", str(second))
    seat("import", str(second), "--server-key", server, code=2)  # main: 0, the forged command taken


def test_verify_says_unchecked_not_passed_when_a_seats_export_carries_no_keys(
        signed: tuple[Cli, str], tmp_path: Path) -> None:  # noqa: F811
    """Finding 1 (verify). The host strips austria's key from the game record AND the signature from austria's own
    command, and re-seals: verify --server-key (no --seat-key) passes it, with no 'seat signatures' check in the
    report. 0c9a605's test strips the signature only, so the key left in the record catches it."""
    umpire, _ = signed
    rows = records(umpire("export", "g", "--as", "austria").stdout)
    rows[0].pop("seat_keys")
    for r in rows:
        if r["record"] == "command":
            r.pop("signature", None)
    reseal(rows, server_key_of(tmp_path / "umpire.db"))
    path = tmp_path / "stripped.jsonl"
    path.write_text(text_of(rows), encoding="utf-8")
    report = Arbitro(SQLiteStore(":memory:")).verify_lines(text_of(rows).splitlines(), server_key=rows[0]["server_key"])
    checks = {c.name: c.status for c in report.checks}
    assert checks.get("seat signatures") in ("failed", "unchecked"), checks


def test_a_command_line_without_its_seat_does_not_turn_the_seat_check_off(played: tuple[Arbitro, str]) -> None:  # noqa: F811
    """Finding 2. 3774bb6 catches a hidden event said to be blue's because red's command line names red. The host who
    re-seals deletes `seat` from that line too (read_lines takes record.get('seat'): None skips the check)."""
    app, text = played

    def edit(rows: list[dict[str, Any]]) -> None:
        _event(rows, 3)["served"]["seat"] = "blue"
        _command(rows, 1).pop("seat")

    assert _verified(app, _by_host(app, text, edit))["command log"][0] == "failed"


def test_a_made_up_command_with_a_made_up_hidden_event_is_verified(played: tuple[Arbitro, str]) -> None:  # noqa: F811
    """Finding 3 (passes on main: it pins what the docs must say). 8fc74b3 says (engine-rules §V.2) 'each claims at
    least one, so a command made up and appended is found'. The host who re-seals appends red's made-up command 3
    claiming a made-up hidden event #8 (linked to #7, any hash: a placeholder's hash is checkable only with the full
    log) and a view for it: VERIFIED, the command log passed; only 'completeness' (unchecked) covers it."""
    app, text = played

    def edit(rows: list[dict[str, Any]]) -> None:
        last_cmd = max(i for i, r in enumerate(rows) if r["record"] == "command")
        rows.insert(last_cmd + 1, {**_command(rows, 1), "cmd": 3, "first_seq": 8, "last_seq": 8, "hash": "7" * 64})
        seven = _event(rows, 7)
        hidden = {**_event(rows, 3)["served"], "seq": 8, "cmd": 3, "prev": seven["hash"], "hash": "8" * 64}
        at = next(i for i, r in enumerate(rows) if r is seven)
        rows.insert(at + 1, {"record": "event", "seq": 8, "hash": "8" * 64, "served": hidden})
        views = [i for i, r in enumerate(rows) if r["record"] == "seat_view"]
        last_view = rows[views[-1]]
        patch = json.dumps([{"op": "replace", "path": "/view/engine/seq", "value": 8}])
        link = signing.view_link(last_view["digest"], 8, "8" * 64, json.loads(patch))
        rows.insert(views[-1] + 1, {"record": "seat_view", "seq": 8, "patch": patch, "digest": link})
        state = next(r for r in rows if r["record"] == "seat_state")
        state["seq"] = 8
        rows[0].update(head_seq=8, head_hash="8" * 64, head_cmd=3)
        next(r for r in rows if r["record"] == "seat_seal").update(seq=8, head="8" * 64)  # reseal keeps seq, head

    checks = _verified(app, _by_host(app, text, edit))
    assert checks["passed"] is True and checks["command log"][0] == "passed", checks
    assert checks["completeness"][0] == "unchecked"
