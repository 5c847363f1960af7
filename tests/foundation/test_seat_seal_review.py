"""Review rev-trust: what the seat seal (signing.SeatSeal) leaves unbound. Each test edits a sealed seat export in a
way the seal should catch and expects import, `check` and `verify` to refuse it. They fail on main at 357fbd1: the
seal signs the views, the seat state and the head's hash, but not the events as served (a redacted event's content
is bound by no hash the seat can check), the seat's own commands, or the notes' chain ends."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitro.events import signing

from .conftest import Cli
from .test_historian import FRIMONT
from .test_seat_seal import edit_view, records, text_of


@pytest.fixture
def umpire(tmp_path: Path) -> Cli:
    cli = Cli(tmp_path / "umpire.db")
    cli("new", "marengo", "marengo", "--id", "g")
    cli.submit("g", "austria", FRIMONT)
    cli("annotate", "g", "--at", "0", "--as", "austria", "public note one")  # a seat's --at: a command (§V.6)
    cli("annotate", "g", "--at", "1", "--as", "austria", "public note two")
    return cli


SEALS_OTHER_RECORDS = ("it seals other records than this file's: an event as served, a command, a note or the game "
                       "record was edited, added or taken out after the server sealed it")


def refused_everywhere(tmp_path: Path, umpire: Cli, forged: str, text: str = SEALS_OTHER_RECORDS) -> None:
    """`forged` refused on import and failed by verify's 'seat views' check, both saying `text`."""
    path = tmp_path / "forged.jsonl"
    path.write_text(forged, encoding="utf-8")
    seat = Cli(tmp_path / "seat.db")
    assert text in seat("import", str(path), code=2).stderr
    report = umpire.json("verify", str(path), code=1)
    assert report["passed"] is False
    (views,) = [c for c in report["checks"] if c["name"] == "seat views"]
    assert views["status"] == "failed" and text in views["detail"], views


def test_a_redacted_event_edited_in_a_seat_export_is_refused(umpire: Cli, tmp_path: Path) -> None:
    """France is served austria's move redacted, in its item (no salt nor hash of its own, engine-rules §V.6): no
    hash france holds binds its content; the seal does."""
    rows = records(umpire("export", "g", "--as", "france").stdout)
    (moved,) = [e for r in rows if r["record"] == "item" for e in r["events"] if "from_zone" in e["event"]]
    moved["event"]["from_zone"] = "pool:france"
    refused_everywhere(tmp_path, umpire, text_of(rows))


def test_the_seats_own_command_edited_in_its_export_is_refused(umpire: Cli, tmp_path: Path) -> None:
    rows = records(umpire("export", "g", "--as", "austria").stdout)
    (sent,) = [r for r in rows if r["record"] == "command" and r["body"] is not None and r["cmd"] == 1]
    sent["body"]["command"]["path"] = ["somewhere_else"]
    edited = "command 1 was edited: its hash does not match"
    path = tmp_path / "forged.jsonl"
    path.write_text(text_of(rows), encoding="utf-8")
    assert edited in Cli(tmp_path / "seat.db")("import", str(path), code=2).stderr  # the command log's check, first
    checks = {c["name"]: c for c in umpire.json("verify", str(path), code=1)["checks"]}
    assert checks["command log"] == {"name": "command log", "status": "failed", "detail": edited}
    assert checks["seat views"]["status"] == "failed" and SEALS_OTHER_RECORDS in checks["seat views"]["detail"]


def test_the_last_note_dropped_from_a_seat_export_is_refused(umpire: Cli, tmp_path: Path) -> None:
    rows = [r for r in records(umpire("export", "g", "--as", "austria").stdout)
            if not (r["record"] == "annotation" and r["text"] == "public note two")]
    refused_everywhere(tmp_path, umpire, text_of(rows))


def test_verify_does_not_pass_views_sealed_by_a_key_nothing_anchors(umpire: Cli, tmp_path: Path) -> None:
    """A forger's fresh key seals its own edit; without a receipt or a pinned key, verify cannot tell it from the
    server's, so its 'seat views' check must not say passed."""
    forged = edit_view(umpire("export", "g", "--as", "austria").stdout, 1, relink=True, key=signing.new_private_key())
    (tmp_path / "forged.jsonl").write_text(forged, encoding="utf-8")
    report = umpire.json("verify", str(tmp_path / "forged.jsonl"))
    (views,) = [c for c in report["checks"] if c["name"] == "seat views"]
    assert views["status"] != "passed", views
