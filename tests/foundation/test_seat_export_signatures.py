"""A seat's export carries its own commands with their signatures (arbitro §L.6): `verify` checks them there too, and
`--seat-key` on a seat's export is checked, not ignored (it said VERIFIED under any key). The attacker is the host,
who holds the server's key: it strips austria's signature from austria's own command and seals the export again, so
the seal passes; the signatures do not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbitro.events import signing

from .conftest import Cli
from .test_historian import FRIMONT, PILATI
from .test_seat_seal import records, reseal, server_key_of, text_of


@pytest.fixture
def signed(tmp_path: Path) -> tuple[Cli, str]:
    """A Marengo game "g" where austria registered its key and entered Frimont signed; returns the umpire and
    austria's public key."""
    umpire = Cli(tmp_path / "umpire.db")
    umpire("new", "marengo", "marengo", "--id", "g")
    key = umpire("keygen", "-o", str(tmp_path / "austria.key")).stdout.strip()
    umpire("register-key", "g", "--as", "austria", key)
    umpire("submit", "g", "--as", "austria", "--sign", str(tmp_path / "austria.key"), json.dumps(FRIMONT))
    return umpire, key


def _signatures(umpire: Cli, path: Path, *extra: str, code: int = 0) -> dict[str, Any]:
    report = umpire.json("verify", str(path), *extra, code=code)
    assert report["passed"] is (code == 0)
    (check,) = [c for c in report["checks"] if c["name"] == "seat signatures"]
    return check  # type: ignore[no-any-return]


def test_a_seats_export_has_its_own_signatures_checked_and_its_seat_key_compared(
        signed: tuple[Cli, str], tmp_path: Path) -> None:
    umpire, key = signed
    path = tmp_path / "a.jsonl"
    umpire("export", "g", "--as", "austria", "-o", str(path))
    assert _signatures(umpire, path, "--seat-key", f"austria={key}") == {
        "name": "seat signatures", "status": "passed", "detail": (
            "1 commands signed, each by its seat's registered key; seats that sign: austria (after command 1) "
            "(austria's export holds the bodies of its own commands only)")}
    other = signing.public_key(signing.new_private_key())
    assert _signatures(umpire, path, "--seat-key", f"austria={other}", code=1)["detail"] == (
        f"the file does not carry austria's key {other[:16]}... (it carries {key[:16]}...): its commands in austria's "
        "name are not the ones that seat signed")


def test_the_host_who_strips_a_seats_signature_and_reseals_is_caught(signed: tuple[Cli, str], tmp_path: Path) -> None:
    umpire, _ = signed
    rows = records(umpire("export", "g", "--as", "austria").stdout)
    (own,) = [r for r in rows if r["record"] == "command" and r.get("signature")]
    del own["signature"]
    reseal(rows, server_key_of(tmp_path / "umpire.db"))
    path = tmp_path / "stripped.jsonl"
    path.write_text(text_of(rows), encoding="utf-8")
    server = signing.fingerprint(rows[0]["server_key"])
    said = _signatures(umpire, path, "--server-key", server, code=1)
    assert said["detail"] == (f"command {own['cmd']} in austria's name is not signed, though austria registered a key "
                              "after command 1: it was made up or altered")
    refused = Cli(tmp_path / "austria.db")("import", str(path), "--server-key", server, code=2).stderr
    assert "seat signatures: command 2 in austria's name is not signed" in refused and "nothing imported" in refused


def test_a_seats_export_checks_its_own_signatures_past_commands_whose_bodies_it_does_not_hold(
        signed: tuple[Cli, str], tmp_path: Path) -> None:
    """austria's export holds france's command (a dispute opened) as a line without a body: the check passes over it
    and goes on to austria's later signed command, and says the export holds its own commands' bodies only; the
    full log, which holds every body, says so of no one."""
    umpire, key = signed
    umpire("dispute", "open", "g", "--as", "france", "--at", "2", "the bridgehead was never open")
    umpire("submit", "g", "--as", "austria", "--sign", str(tmp_path / "austria.key"), json.dumps(PILATI))
    path = tmp_path / "a.jsonl"
    umpire("export", "g", "--as", "austria", "-o", str(path))
    assert [r["body"] is None for r in records(path.read_text()) if r["record"] == "command"] == [
        True, False, False, True, False]  # the umpire's creation, austria's registration and command, france's, austria's
    signed_by_austria = "2 commands signed, each by its seat's registered key; seats that sign: austria (after command 1)"
    assert _signatures(umpire, path, "--seat-key", f"austria={key}")["detail"] == (
        signed_by_austria + " (austria's export holds the bodies of its own commands only)")
    whole = tmp_path / "whole.jsonl"
    umpire("export", "g", "-o", str(whole))
    assert _signatures(umpire, whole, "--seat-key", f"austria={key}")["detail"] == signed_by_austria
