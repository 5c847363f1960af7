"""A seat anchors its copy's seal to the umpire's server where it imports and verifies the copy (engine-rules §L.9):
`import --server-key KEY` refuses an export sealed by another key (a forger's own key seals its forgery as well as
the server's seals the real one, so a first import has nothing else to compare with), and `verify GAME --db` of the
copy takes the anchors `verify FILE` takes. An export stripped of its seat_state is refused saying it was taken out,
not that an older arbitro made it. Written as the attacker: the forger re-seals an edited export with a key of its
own and names that key as the server's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.errors import BadInput
from arbitro.adjudicator.seatcopy import checked_server_key
from arbitro.events import signing

from .conftest import Cli
from .test_seat_seal import mailed, records, reseal, text_of  # noqa: F401 (mailed: the fixture)


def _written(tmp_path: Path, text: str, name: str = "e.jsonl") -> str:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return str(tmp_path / name)


def _forged(text: str) -> str:
    """Austria's export with what it is served at the head changed ("france resigns"), sealed again by a forger's own
    key, which the game record then names as the server's: every check a seal makes on itself holds."""
    rows = records(text)
    rows[-2]["status"]["awaiting"]["prompt"] = "france resigns"
    reseal(rows, signing.new_private_key())
    return text_of(rows)


def test_import_takes_a_copy_sealed_by_the_server_key_given_as_key_or_fingerprint(
        mailed: tuple[Cli, str], tmp_path: Path) -> None:
    _, text = mailed
    key = records(text)[0]["server_key"]
    for n, given in enumerate((key, signing.fingerprint(key))):
        austria = Cli(tmp_path / f"austria{n}.db")
        said = austria("import", _written(tmp_path, text), "--server-key", given)
        assert said.stdout.strip() == "g" and "check that it is the umpire's" not in said.stderr
        assert austria.json("games")[0]["kind"] == "austria's copy"


def test_import_refuses_a_forgers_seal_under_the_server_key_given_and_keeps_nothing(
        mailed: tuple[Cli, str], tmp_path: Path) -> None:
    """Without --server-key the forgery is taken (nothing held to compare with; import names the key to compare);
    with the key the umpire told the seat, it is refused in words naming both keys, and nothing is stored."""
    _, text = mailed
    key = signing.fingerprint(records(text)[0]["server_key"])
    forged = _forged(text)
    forger = signing.fingerprint(records(forged)[0]["server_key"])
    austria = Cli(tmp_path / "austria.db")
    said = austria("import", _written(tmp_path, forged), "--server-key", key, code=2).stderr
    assert " ".join(said.split()).endswith(
        f"error (input/bad-file): {tmp_path / 'e.jsonl'}: the file is sealed by key {forger}, not by the server key {key} "
        "you gave: not sealed by the umpire's server; nothing imported. Keep the file for the dispute")
    assert austria.json("games") == []
    unanchored = Cli(tmp_path / "trusting.db")("import", _written(tmp_path, forged))
    assert f"sealed by server key {forger}: check that it is the umpire's" in unanchored.stderr


def test_import_refuses_server_key_on_a_full_export_and_a_malformed_key(mailed: tuple[Cli, str], tmp_path: Path) -> None:
    umpire, text = mailed
    key = records(text)[0]["server_key"]
    full = _written(tmp_path, umpire("export", "g").stdout, "full.jsonl")
    club = Cli(tmp_path / "club.db")
    said = " ".join(club("import", full, "--server-key", key, code=2).stderr.split())
    assert ("--server-key checks the seal of a seat's export; this is the umpire's full export, which carries no "
            "seal: drop --server-key") in said
    assert club.json("games") == []
    said = club("import", _written(tmp_path, text), "--server-key", "umpire", code=2).stderr
    assert "--server-key 'umpire': give the server's public key" in said


def test_verify_of_a_copy_in_the_seats_database_checks_its_seal_under_the_anchors_given(
        mailed: tuple[Cli, str], tmp_path: Path) -> None:
    """`verify g --db austria.db` verifies austria's copy as the export it came from: the seal unchecked without an
    anchor, passed under the server's key or a receipt it signed, failed under another key; a game the database holds
    whole still refuses the anchors (they check a file or a copy)."""
    umpire, text = mailed
    austria = Cli(tmp_path / "austria.db")
    austria("import", _written(tmp_path, text))
    key = records(text)[0]["server_key"]

    def seat_views(*anchors: str, code: int = 0) -> dict[str, Any]:
        report = austria.json("verify", "g", *anchors, code=code)
        assert report["passed"] is (code == 0)
        (check,) = [c for c in report["checks"] if c["name"] == "seat views"]
        return check  # type: ignore[no-any-return]

    assert seat_views()["status"] == "unchecked"
    assert seat_views("--server-key", signing.fingerprint(key))["status"] == "passed"
    other = signing.fingerprint(signing.public_key(signing.new_private_key()))
    assert seat_views("--server-key", other, code=1)["detail"] == (
        f"the file is sealed by key {signing.fingerprint(key)}, not by the server key {other} you gave: not sealed by "
        "the umpire's server")
    umpire("receipt", "g", "-o", str(tmp_path / "r.json"))
    assert seat_views("--receipt", str(tmp_path / "r.json"))["detail"].endswith("the key of your receipts")
    said = umpire("verify", "g", "--server-key", key, code=2).stderr
    assert "check an exported file or a seat's copy" in said


def test_import_of_an_export_stripped_of_its_seat_state_says_it_was_taken_out(
        mailed: tuple[Cli, str], tmp_path: Path) -> None:
    _, text = mailed
    again = "ask the umpire to export it again (`arbitro export g --as austria`); nothing imported"
    stripped = [r for r in records(text) if r["record"] != "seat_state"]
    said = " ".join(Cli(tmp_path / "a.db")("import", _written(tmp_path, text_of(stripped)), code=2).stderr.split())
    assert said.endswith("austria's export holds views or a seal but no seat_state record: taken out after the server "
                         f"sealed it (it is sealed with them): {again}"), said
    older = [r for r in records(text) if r["record"] not in ("seat_view", "seat_state", "seat_seal")]
    said = " ".join(Cli(tmp_path / "b.db")("import", _written(tmp_path, text_of(older)), code=2).stderr.split())
    assert said.endswith("austria's export has no seat_state record, nor views or a seal (made by an arbitro before "
                         f"seat exports were sealed, or all three taken out): {again}"), said


@pytest.mark.parametrize("given", ["abc123", "0123456789abcde", "zz" * 32, "AB" * 32, "X" * 16, "0123456789abcdef0"])
def test_a_server_key_is_taken_only_as_a_key_or_a_fingerprint_in_lowercase_hex(given: str) -> None:
    """Either form whole: hex of another length, or a key's length that is not lowercase hex, is refused, never taken
    as naming no key."""
    with pytest.raises(BadInput) as refused:
        checked_server_key(given)
    assert str(refused.value) == (f"--server-key {given!r}: give the server's public key (64 lowercase hex digits) or "
                                  "its fingerprint (its first 16, e.g. 9c41e0d2a7b35f18)")
    key = signing.public_key(signing.new_private_key())
    assert checked_server_key(key) == key and checked_server_key(signing.fingerprint(key)) == signing.fingerprint(key)
    assert checked_server_key(None) is None
