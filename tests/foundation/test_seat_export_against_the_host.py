"""What the host, who holds the server's key and the umpire's database, can and cannot do to a seat's export
(engine-rules §L.6, §V.2; review rev-trust2). It cannot drop or swap a seat's key to enter commands in its name
unsigned: a copy that held the key refuses the later export, `import --seat-key` checks the key, and verify says
"seat signatures" unchecked, never passed, when the seat gave no key of its own. It cannot take a command line's
seat out to turn the seat check off. It can append a made-up command with a made-up hidden event after the last
point the seat anchored: only 'completeness' (unchecked) covers that, as the docs say."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.errors import BadFile
from arbitro.adjudicator.service import Arbitro
from arbitro.events import signing
from arbitro.events.sqlite import SQLiteStore

from .conftest import Cli
from .test_historian import FRIMONT, PILATI
from .test_seat_export_ranges import _by_host, _command, _event, _verified, played  # noqa: F401 (fixture)
from .test_seat_export_signatures import signed  # noqa: F401 (fixture)
from .test_seat_seal import records, reseal, server_key_of, text_of

assert played is not None and signed is not None and FRIMONT is not None


def test_a_copy_that_held_austrias_key_refuses_a_later_export_without_it(
        signed: tuple[Cli, str], tmp_path: Path) -> None:  # noqa: F811
    """The host (who holds the server's key and the umpire's database) drops austria's registered key
    from its database, enters a command in austria's name unsigned, and exports. No re-sealing is needed: the
    server seals it. austria's copy held the key: it refuses the export, and keeps what it held."""
    umpire, key = signed
    seat = Cli(tmp_path / "austria.db")
    first = tmp_path / "a1.jsonl"
    umpire("export", "g", "--as", "austria", "-o", str(first))
    server = signing.fingerprint(records(first.read_text())[0]["server_key"])
    seat("import", str(first), "--server-key", server)
    held = seat.json("status", "g")["head"]
    with sqlite3.connect(tmp_path / "umpire.db") as db:  # the host's own database
        db.execute("DELETE FROM seat_keys")
        db.execute("DELETE FROM command_signatures")
    umpire.submit("g", "austria", PILATI)  # in austria's name, unsigned
    second = tmp_path / "a2.jsonl"
    umpire("export", "g", "--as", "austria", "-o", str(second))
    refused = seat("import", str(second), "--server-key", server, code=2).stderr
    # the registration is chained (served to austria, and to every seat): the export fails verify on its own chain
    assert (f"seat signatures: the chain registers austria's key {signing.fingerprint(key)} at command 1, which the "
            "file's seat_keys does not say (it carries none): the registration was dropped or altered (arbitro §L.6)"
            in refused and "nothing imported" in refused)
    assert seat.json("status", "g")["head"] == held  # the copy as it was


def test_import_checks_the_seats_own_key_and_says_what_the_file_claims_without_it(
        signed: tuple[Cli, str], tmp_path: Path) -> None:  # noqa: F811
    """`import --seat-key`: a copy is taken only if it carries the seat's own key and its commands signed with it;
    without it, import says which key the file claims is the seat's (or that it claims none)."""
    umpire, key = signed
    path = tmp_path / "a.jsonl"
    umpire("export", "g", "--as", "austria", "-o", str(path))
    seat = Cli(tmp_path / "austria.db")
    other = signing.public_key(signing.new_private_key())
    refused = seat("import", str(path), "--seat-key", f"austria={other}", code=2).stderr
    assert f"seat signatures: the file does not carry austria's key {other[:16]}..." in refused
    seat("import", str(path), "--seat-key", "austria=nokey", code=2)
    said = seat("import", str(path)).stderr
    assert f"says austria signs with key {signing.fingerprint(key)}: check that it is yours" in said
    assert "says austria" not in seat("import", str(path), "--seat-key", f"austria={key}").stderr
    france = tmp_path / "f.jsonl"
    umpire("export", "g", "--as", "france", "-o", str(france))
    said = Cli(tmp_path / "france.db")("import", str(france)).stderr
    assert "says france registered no key: if you registered one, the umpire's host dropped it" in said


def test_verify_says_unchecked_not_passed_when_a_seats_export_carries_no_keys(
        signed: tuple[Cli, str], tmp_path: Path) -> None:  # noqa: F811
    """The host strips austria's key from the game record and the signature from austria's own command, and
    re-seals: the chain still registers the key (key_registered, served to every seat), so verify fails it for
    everyone, with or without --seat-key (before registrations were chained it said 'unchecked', and only austria's
    own key failed it). A file that carries austria's key is unchecked until austria gives it."""
    umpire, key = signed
    rows = records(umpire("export", "g", "--as", "austria").stdout)
    rows[0].pop("seat_keys")
    for r in rows:
        if r["record"] == "command":
            r.pop("signature", None)
    reseal(rows, server_key_of(tmp_path / "umpire.db"))
    path = tmp_path / "stripped.jsonl"
    path.write_text(text_of(rows), encoding="utf-8")
    app = Arbitro(SQLiteStore(":memory:"))

    def signatures(text: str, **given: Any) -> tuple[bool, str, str]:
        report = app.verify_lines(text.splitlines(), server_key=rows[0]["server_key"], **given)
        (check,) = [c for c in report.checks if c.name == "seat signatures"]
        return report.passed, check.status, check.detail

    assert signatures(text_of(rows)) == (False, "failed", (
        f"the chain registers austria's key {signing.fingerprint(key)} at command 1, which the file's seat_keys does "
        "not say (it carries none): the registration was dropped or altered (arbitro §L.6)"))
    assert signatures(text_of(rows), seat_keys={"austria": key})[:2] == (False, "failed")
    whole = umpire("export", "g", "--as", "austria").stdout
    assert signatures(whole) == (True, "unchecked", (  # a key the file carries is the file's word, not the seat's
        f"austria's commands are signed under the key this file carries for austria ({signing.fingerprint(key)}), but "
        "nothing here anchors that key to austria: check that it is yours (--seat-key austria=YOUR_PUBLIC_KEY)"))
    assert signatures(whole, seat_keys={"austria": key})[:2] == (True, "passed")


def test_a_command_line_without_its_seat_is_refused_so_the_seat_check_stays_on(played: tuple[Arbitro, str]) -> None:  # noqa: F811
    """3774bb6 catches a hidden event said to be blue's because red's command line names red. The host who re-seals
    deletes `seat` from that line too: every export names it, so the file is refused, naming the line."""
    app, text = played

    def edit(rows: list[dict[str, Any]]) -> None:
        _event(rows, 3)["served"]["seat"] = "blue"
        _command(rows, 1).pop("seat")

    edited = _by_host(app, text, edit)
    line = next(n for n, row in enumerate(records(edited), 1) if row["record"] == "command" and row["cmd"] == 1)
    with pytest.raises(BadFile, match=f"<input>, line {line}: command 1 names no seat"):
        _verified(app, edited)
    assert _verified(app, _by_host(app, text, lambda rows: _event(rows, 3)["served"].update(seat="blue")))[
        "command log"][0] == "failed"


def test_a_made_up_command_with_a_made_up_hidden_event_is_verified(played: tuple[Arbitro, str]) -> None:  # noqa: F811
    """What the docs say (engine-rules §V.2): the host who re-seals appends red's made-up command 3 claiming a
    made-up hidden event #8 (linked to #7, any hash: a placeholder's hash is checkable only with the full log) and a
    view for it: VERIFIED, the command log passed; only 'completeness' (unchecked) covers it, until a later receipt
    or --head, or the full log."""
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
