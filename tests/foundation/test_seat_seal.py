"""The server seals what it showed a seat (events.signing.SeatSeal): a seat's export links each view to its event and
to the view before (signing.view_link) and ends with the server's signature over the chain's head, the last link and
the seat state. Written as the attacker: whoever edits a view (the umpire before mailing, the seat in its own copy)
and re-links or re-signs it, swaps two seats' views, or brings views, a seal or a signature from elsewhere, is
caught on import, by `arbitro check` and by `arbitro verify`, with an error naming the record."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import exchange
from arbitro.adjudicator import verify as verification
from arbitro.adjudicator.errors import BadFile, BadInput
from arbitro.adjudicator.seatcopy import SeatCopy, with_views
from arbitro.adjudicator.service import Arbitro
from arbitro.events import signing
from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.records import GENESIS
from arbitro.events.stores import open_store
from arbitro.projections.patch import patch_between

from .conftest import Cli
from .test_historian import FRIMONT

Records = list[dict[str, Any]]


@pytest.fixture
def mailed(tmp_path: Path) -> tuple[Cli, str]:
    """A Marengo game "g" where austria entered Frimont, on the umpire's database; austria's export is in e.jsonl."""
    umpire = Cli(tmp_path / "umpire.db")
    umpire("new", "marengo", "marengo", "--id", "g")
    umpire.submit("g", "austria", FRIMONT)
    return umpire, umpire("export", "g", "--as", "austria").stdout


def records(text: str) -> Records:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def text_of(rows: Records) -> str:
    return "".join(canonical(r).decode() + "\n" for r in rows)


def edit_view(text: str, k: int, relink: bool = False, key: bytes | None = None) -> str:
    """Austria's export with what it was shown after command #k changed (who was awaited for what), the patches into
    and out of that view made again so that every patch applies and every engine seq holds; with `relink`, every
    link from #k on computed again; with `key`, sealed again with that key (named as the export's server key)."""
    copy = SeatCopy(exchange.read_lines(text.splitlines()))
    shown = [copy.shown_at(cmd) for cmd in range(copy.head + 1)]
    shown[k] = {**shown[k], "awaiting": {**shown[k]["awaiting"], "prompt": "france resigns"}}
    rows = records(text)
    views = [r for r in rows if r["record"] == "seat_view"]
    for cmd in (k, k + 1):
        if cmd < len(views):
            views[cmd]["patch"] = json.dumps(patch_between(shown[cmd - 1] if cmd else {}, shown[cmd]))
    if relink:
        relink_views(rows)
    if key is not None:
        reseal(rows, key)
    return text_of(rows)


def relink_views(rows: Records) -> None:
    """Every view's link computed again from its patch, as a forger who knows signing.view_link would."""
    items = [r for r in rows if r["record"] == "item"]
    link = GENESIS
    for view, item in zip((r for r in rows if r["record"] == "seat_view"), items):
        view["digest"] = link = signing.view_link(link, view["cmd"], item["hash"], json.loads(view["patch"]))


def reseal(rows: Records, key: bytes) -> None:
    """The export sealed again with `key`, which the game record then names as the server's."""
    game = rows[0]
    game["server_key"] = signing.public_key(key)
    old = next(r for r in rows if r["record"] == "seat_seal")
    state = next({k: v for k, v in r.items() if k != "record"} for r in rows if r["record"] == "seat_state")
    last = [r for r in rows if r["record"] == "seat_view"][-1]["digest"]
    kind = signing.CommandsSeal if old["format"] == signing.SEAT_SEAL_COMMANDS_FORMAT else signing.SeatSeal
    new = signing.make_seat_seal(key, game=old["game"], seat=old["seat"], seq=old["seq"], head=old["head"],
                                 views=last, state=sha256_hex(canonical(state)), records=records_digest(rows), kind=kind)
    old.update(msgspec.to_builtins(new))


def records_digest(rows: Records) -> str:
    """The digest of every record before the seal, as a forger who knows signing.RecordsDigest computes it."""
    digest = signing.RecordsDigest()
    for row in rows:
        if row["record"] != "seat_seal":
            digest.add(canonical(row))
    return digest.hexdigest()


def server_key_of(db: Path) -> bytes:
    store = open_store(str(db))
    key = store.signing_key()
    assert key is not None
    return key


def refused(tmp_path: Path, text: str, name: str = "sent.jsonl", db: str = "austria.db") -> str:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return Cli(tmp_path / db)("import", str(tmp_path / name), code=2).stderr


def test_a_sealed_export_is_taken_and_checked(mailed: tuple[Cli, str], tmp_path: Path) -> None:
    umpire, text = mailed
    last = records(text)[-1]
    assert last["record"] == "seat_seal" and last["seat"] == "austria"
    assert last["server_key"] == records(text)[0]["server_key"]
    (tmp_path / "e.jsonl").write_text(text, encoding="utf-8")
    austria = Cli(tmp_path / "austria.db")
    austria("import", str(tmp_path / "e.jsonl"))
    assert austria.json("check", "g")[0]["ok"] is True
    assert umpire.json("verify", str(tmp_path / "e.jsonl"))["passed"] is True


def test_an_edited_view_is_named(mailed: tuple[Cli, str], tmp_path: Path) -> None:
    """The patches still apply and each view's seq holds (the cheap checks pass): the link of the edited view does not."""
    said = refused(tmp_path, edit_view(mailed[1], 1))
    assert "austria's view after #1: its digest does not follow from its patch" in said and "nothing imported" in said


def test_an_edited_view_relinked_fails_the_seal(mailed: tuple[Cli, str], tmp_path: Path) -> None:
    said = refused(tmp_path, edit_view(mailed[1], 1, relink=True))
    assert "its seat_seal record (last line): it seals other views than these" in said


def test_an_edited_view_resealed_with_another_key_is_refused_over_the_copy_held(mailed: tuple[Cli, str],
                                                                               tmp_path: Path) -> None:
    """A forger's own fresh key makes a seal that verifies, but not under the server's key: the copy that holds an
    export the server sealed refuses it, and so does a receipt the server signed."""
    umpire, text = mailed
    (tmp_path / "e.jsonl").write_text(text, encoding="utf-8")
    austria = Cli(tmp_path / "austria.db")
    austria("import", str(tmp_path / "e.jsonl"))
    rows = records(text)
    rows[-2]["status"]["awaiting"]["prompt"] = "france resigns"  # what austria is served at the head
    reseal(rows, signing.new_private_key())
    forged = text_of(rows)
    said = refused(tmp_path, forged)
    assert "is sealed by server key" in said and "not by the key" in said and "nothing imported" in said
    umpire("receipt", "g", "-o", str(tmp_path / "r.json"))
    (tmp_path / "forged.jsonl").write_text(forged, encoding="utf-8")
    report = umpire.json("verify", str(tmp_path / "forged.jsonl"), "--receipt", str(tmp_path / "r.json"), code=1)
    (views,) = [c for c in report["checks"] if c["name"] == "seat views"]
    assert views["status"] == "failed" and "your receipts are signed by server key" in views["detail"]


def test_the_umpire_who_reseals_an_edited_view_with_the_servers_key_is_caught_by_the_copy_held(
        mailed: tuple[Cli, str], tmp_path: Path) -> None:
    """The seal proves what the server sent; the one who holds the server's key can seal anything, so the seat's
    copy is what catches a rewrite of what it was shown before."""
    _, text = mailed
    (tmp_path / "e.jsonl").write_text(text, encoding="utf-8")
    Cli(tmp_path / "austria.db")("import", str(tmp_path / "e.jsonl"))
    said = refused(tmp_path, edit_view(text, 1, relink=True, key=server_key_of(tmp_path / "umpire.db")))
    assert "your view after command #1 differs from the one you were sent before" in " ".join(said.split())


def test_two_seats_views_swapped_are_refused(mailed: tuple[Cli, str], tmp_path: Path) -> None:
    umpire, text = mailed
    frances = records(umpire("export", "g", "--as", "france").stdout)
    for keep_seal in (True, False):
        rows = [r for r in records(text) if r["record"] not in ("seat_view", "seat_seal")]
        rows[-1:-1] = [r for r in frances if r["record"] == "seat_view"]  # before austria's seat_state
        rows.append(next(r for r in (records(text) if keep_seal else frances) if r["record"] == "seat_seal"))
        said = refused(tmp_path, text_of(rows))
        assert ("its seat_seal record (last line): it seals other views than these: a view was edited and the links "
                "after it computed again, or the views come from another export" if keep_seal
                else "it seals france's export, not austria's") in " ".join(said.split()), said


def test_views_and_a_seal_from_another_game_are_refused(mailed: tuple[Cli, str], tmp_path: Path) -> None:
    """The same scenario and moves, another game (another seed, so other event hashes): its views do not link to
    this game's events, nor its seal to this game."""
    other = Cli(tmp_path / "other.db")
    other("new", "marengo", "marengo", "--id", "h")
    other.submit("h", "austria", FRIMONT)
    elsewhere = records(other("export", "h", "--as", "austria").stdout)
    rows = [r for r in records(mailed[1]) if r["record"] != "seat_view"]
    rows[-2:-2] = [r for r in elsewhere if r["record"] == "seat_view"]
    assert "austria's view after #0: its digest does not follow" in refused(tmp_path, text_of(rows))
    rows = records(mailed[1])
    rows[-1] = elsewhere[-1]
    said = " ".join(refused(tmp_path, text_of(rows)).split())  # its seal is the other server's
    assert (f"its seat_seal record (last line): signed by key {signing.fingerprint(elsewhere[-1]['server_key'])}, "
            f"not by the server key the export names ({signing.fingerprint(rows[0]['server_key'])})") in said


# Each alteration of the export sent after austria ended its turn, given the umpire and the export sent before.
ALTERED: dict[str, tuple[Callable[[Records, Cli, Records], None], str]] = {
    "a receipt's signature as the seal's": (
        lambda rows, umpire, before: rows[-1].update(signature=umpire.json("receipt", "g")["signature"]),
        "its signature does not verify under the key it names"),
    "the seal of the export before": (
        lambda rows, umpire, before: rows.__setitem__(-1, before[-1]),
        "it seals the chain up to #"),
    "the seat state edited": (
        lambda rows, umpire, before: rows[-2]["status"]["awaiting"].update(prompt="france resigns"),
        "(last line): it seals another seat_state (status and legal commands at the head) than this one: edited; "
        "nothing imported"),
    "no seal": (lambda rows, umpire, before: rows.pop(), "has no seat_seal record, so nothing binds what it shows"),
    "a record after the seal": (lambda rows, umpire, before: rows.append(dict(rows[-2])),
                                "a record after the seat_seal record, which ends a seat's export"),
}


@pytest.mark.parametrize("name", ALTERED)
def test_a_seal_that_is_not_this_exports_is_refused(mailed: tuple[Cli, str], tmp_path: Path, name: str) -> None:
    umpire, before = mailed
    alter, expected = ALTERED[name]
    umpire.submit("g", "austria", {"type": "end_turn"})
    rows = records(umpire("export", "g", "--as", "austria").stdout)
    alter(rows, umpire, records(before))
    assert expected in refused(tmp_path, text_of(rows)), name


def test_check_and_verify_name_a_copys_view_edited_and_relinked(mailed: tuple[Cli, str], tmp_path: Path) -> None:
    """The seat edits its own copy (to claim in a dispute it was shown something else): check and verify say so."""
    _, text = mailed
    (tmp_path / "e.jsonl").write_text(text, encoding="utf-8")
    austria = Cli(tmp_path / "austria.db")
    austria("import", str(tmp_path / "e.jsonl"))
    with sqlite3.connect(tmp_path / "austria.db") as db:
        db.execute("UPDATE seat_copies SET export=?", (edit_view(text, 1, relink=True),))
    (found,) = austria.json("check", "g", code=1)
    assert any(p.startswith("views: ") and "it seals other views" in p for p in found["problems"])
    (tmp_path / "edited.jsonl").write_text(edit_view(text, 0), encoding="utf-8")
    report = austria.json("verify", str(tmp_path / "edited.jsonl"), code=1)
    assert any(c["status"] == "failed" and "view after #0" in c["detail"] for c in report["checks"])


def test_verify_passes_a_seal_only_under_a_key_the_seat_was_given(mailed: tuple[Cli, str], tmp_path: Path) -> None:
    """A seal proves its own key only (a forger's fresh key seals its forgery as well): verify passes it under the
    server key the seat was told (the key or its fingerprint) or its receipts name, fails it under another, and
    without either says unchecked; import names the key for the seat to compare."""
    umpire, text = mailed
    (tmp_path / "e.jsonl").write_text(text, encoding="utf-8")
    key = records(text)[0]["server_key"]

    def seat_views(*extra: str, code: int = 0) -> dict[str, Any]:
        report = umpire.json("verify", str(tmp_path / "e.jsonl"), *extra, code=code)
        (views,) = [c for c in report["checks"] if c["name"] == "seat views"]
        assert report["passed"] is (code == 0)
        return views

    assert seat_views()["status"] == "unchecked" and "nothing here anchors that key" in seat_views()["detail"]
    assert seat_views("--server-key", key)["status"] == "passed"
    assert seat_views("--server-key", signing.fingerprint(key))["detail"].endswith("the server key you gave")
    other = signing.fingerprint(signing.public_key(signing.new_private_key()))
    failed = seat_views("--server-key", other, code=1)
    assert failed["status"] == "failed" and failed["detail"] == (
        f"the file is sealed by key {signing.fingerprint(key)}, not by the server key {other} you gave: not sealed by "
        "the umpire's server")
    umpire("receipt", "g", "-o", str(tmp_path / "r.json"))
    assert seat_views("--receipt", str(tmp_path / "r.json"))["detail"].endswith("the key of your receipts")
    said = umpire("verify", str(tmp_path / "e.jsonl"), "--server-key", "umpire", code=2).stderr
    assert "--server-key 'umpire': give the server's public key" in said
    austria = Cli(tmp_path / "austria.db")
    assert f"sealed by server key {signing.fingerprint(key)}" in austria("import", str(tmp_path / "e.jsonl")).stderr
    assert austria.json("import", str(tmp_path / "e.jsonl")) == {"game": "g", "sealed_by": key}


def test_verify_fails_an_export_whose_seat_state_or_seal_was_taken_out(mailed: tuple[Cli, str], tmp_path: Path) -> None:
    """Stripping the records the seal checks must not turn the check off: with views left, a missing seat_state or
    seal fails; only an export with none of views, seat_state and seal (an older arbitro's) is unchecked."""
    umpire, text = mailed
    no_state = ("austria's export holds views or a seal but no seat_state record: taken out after the server sealed "
                "it (it is sealed with them)")
    stripped = {("seat_state",): no_state, ("seat_state", "seat_seal"): no_state,
                ("seat_seal",): "has no seat_seal record, so nothing binds what it shows"}
    for kinds, said in stripped.items():
        (tmp_path / "s.jsonl").write_text(text_of([r for r in records(text) if r["record"] not in kinds]))
        report = umpire.json("verify", str(tmp_path / "s.jsonl"), code=1)
        (views,) = [c for c in report["checks"] if c["name"] == "seat views"]
        assert views["status"] == "failed" and said in views["detail"], (kinds, views)
    older = [r for r in records(text) if r["record"] not in ("seat_view", "seat_state", "seat_seal")]
    (tmp_path / "s.jsonl").write_text(text_of(older))
    (views,) = [c for c in umpire.json("verify", str(tmp_path / "s.jsonl"))["checks"] if c["name"] == "seat views"]
    assert views == {"name": "seat views", "status": "unchecked", "detail": (
        "this export has no views, seat_state or seal (made by an arbitro before seat exports were sealed, or all "
        "three taken out): nothing binds its redacted events, commands and notes to the server")}


def test_the_seat_views_check_names_the_keys_it_compared_and_what_the_seat_can_do(mailed: tuple[Cli, str]) -> None:
    """What verify tells a seat of its export's seal, word for word: with nothing to anchor the sealing key, that key
    and the two ways to anchor it (unchecked); with receipts signed by another key, both keys (failed); with the
    receipts' own key, passed."""
    umpire, text = mailed
    loaded = exchange.read_lines(text.splitlines())
    key = signing.fingerprint(loaded.server_key or "")

    def seat_views(receipts: list[signing.Receipt]) -> verification.Check:
        blank = verification.Report(game="g", ruleset="marengo", version="", kind="generated", passed=True, checks=[])
        report = with_views(blank, loaded, receipts)
        (check,) = report.checks
        assert report.passed is (check.status != "failed")
        return check

    assert seat_views([]) == verification.Check(name="seat views", status="unchecked", detail=(
        f"each record austria was sent is sealed by key {key}; nothing here anchors that key to the umpire's server "
        "(anyone can seal a file with a key of their own): compare it with the key the umpire's receipts name, or "
        "verify with --receipt or --server-key"))
    own = signing.read_receipt(umpire.json("receipt", "g"))
    assert seat_views([own]).status == "passed"
    other = signing.make_receipt(signing.new_private_key(), game="g", cmd=own.cmd, cmd_hash=own.cmd_hash,
                                 head=own.head)
    assert seat_views([own, other]) == verification.Check(name="seat views", status="failed", detail=(
        f"the views are sealed by key {key}, but your receipts are signed by server key "
        f"{signing.fingerprint(other.server_key)}: not sealed by the server that took your commands"))


def test_the_copy_held_refuses_a_rewrite_of_the_first_view_or_a_seal_by_another_key_saying_what_to_do(
        mailed: tuple[Cli, str], tmp_path: Path) -> None:
    """Over a copy it holds, a seat takes no export that shows it another view after any event, the first included,
    even sealed with the server's own key; nor one sealed by another key, and it is told what each means and does."""
    _, text = mailed
    (tmp_path / "e.jsonl").write_text(text, encoding="utf-8")
    Cli(tmp_path / "austria.db")("import", str(tmp_path / "e.jsonl"))
    server = server_key_of(tmp_path / "umpire.db")
    for k in (0, SeatCopy(exchange.read_lines(text.splitlines())).head):  # the first, the last
        said = refused(tmp_path, edit_view(text, k, relink=True, key=server))
        assert (f"does not continue the copy you hold: your view after command #{k} differs from the one you were "
                "sent before; nothing imported. Keep both files for the dispute") in " ".join(said.split())
    forger, rows = signing.new_private_key(), records(text)
    reseal(rows, forger)  # the same records, sealed by another key
    said = refused(tmp_path, text_of(rows))
    assert (f"is sealed by server key {signing.fingerprint(signing.public_key(forger))}, not by the key "
            f"{signing.fingerprint(signing.public_key(server))} that sealed the copy you hold: re-signed by someone "
            "else, or the umpire moved the game to another server (then ask the umpire for that server's key, and "
            "once it matches, `arbitro delete g --as austria` and import this file); nothing imported. Keep both "
            "files for the dispute") in " ".join(said.split())


def test_a_seal_of_the_first_format_or_whose_signature_fails_is_refused_saying_what_to_do(
        mailed: tuple[Cli, str], tmp_path: Path) -> None:
    rows = records(mailed[1])
    rows[-1]["format"] = "arbitro-seat-copy/1"
    said = refused(tmp_path, text_of(rows))
    assert ("its seat_seal record (last line): made by an arbitro that sealed the views only, not the events, "
            "commands and notes (format arbitro-seat-copy/1): ask the umpire to export it again; nothing imported"
            ) in " ".join(said.split())
    rows = records(mailed[1])
    rows[-1]["signature"] = "00" * 64
    said = refused(tmp_path, text_of(rows))
    assert ("its seat_seal record (last line): its signature does not verify under the key it names "
            f"({signing.fingerprint(rows[-1]['server_key'])}): the seal was edited or forged; nothing imported"
            ) in " ".join(said.split())


def test_verify_names_an_edited_view_without_the_imports_last_words(mailed: tuple[Cli, str]) -> None:
    """verify says what is wrong with a view; 'nothing imported' is import's to say, not verify's."""
    loaded = exchange.read_lines(edit_view(mailed[1], 1).splitlines())
    blank = verification.Report(game="g", ruleset="marengo", version="", kind="generated", passed=True, checks=[])
    (check,) = with_views(blank, loaded).checks
    assert check == verification.Check(name="seat views", status="failed", detail=(
        "<input>: austria's view after #1: its digest does not follow from its patch, its command and the view before "
        "it: edited, or from another game or export"))


def test_a_view_saying_the_game_was_at_another_event_is_refused_naming_both(mailed: tuple[Cli, str]) -> None:
    """A view is what the seat was shown after its own event: one that says (by its engine's seq) it follows another
    event is refused before any link is checked, naming the view and the event it claims, whatever its patches."""
    copy = SeatCopy(exchange.read_lines(mailed[1].splitlines()))
    shown = [copy.shown_at(cmd) for cmd in range(copy.head + 1)]
    shown[1] = {**shown[1], "view": {**shown[1]["view"], "engine": {**shown[1]["view"]["engine"], "seq": 7}}}
    rows = records(mailed[1])
    views = [r for r in rows if r["record"] == "seat_view"]
    views[1]["patch"] = json.dumps(patch_between(shown[0], shown[1]))
    with pytest.raises(BadFile) as refused:
        SeatCopy(exchange.read_lines(text_of(rows).splitlines())).check_views()
    assert str(refused.value) == ("<input>: austria's view after #1 says the game was at #7: not the view after that "
                                  "command (edited?); nothing imported")


def test_a_view_with_no_link_is_refused_as_from_an_export_made_before_views_were_sealed(mailed: tuple[Cli, str]) -> None:
    rows = records(mailed[1])
    next(r for r in rows if r["record"] == "seat_view" and r["cmd"] == 1)["digest"] = None
    with pytest.raises(BadFile) as refused:
        SeatCopy(exchange.read_lines(text_of(rows).splitlines())).check_views()
    assert str(refused.value) == (
        "<input>: austria's view after #1: its digest does not follow from its patch, its command and the view before "
        "it (an export made before views were sealed): edited, or from another game or export; nothing imported")


def test_a_database_without_a_signing_key_exports_a_seats_file_unsealed_which_a_seat_refuses(tmp_path: Path) -> None:
    """A database made before keys existed and opened read-only since has no key to seal with: its seat export has
    views and a seat state but no seal, and the seat's import says so rather than taking an export nothing binds."""
    umpire = Cli(tmp_path / "umpire.db")
    umpire("new", "marengo", "marengo", "--id", "g")
    umpire.submit("g", "austria", FRIMONT)
    with sqlite3.connect(tmp_path / "umpire.db") as db:
        db.execute("DELETE FROM meta WHERE key='server_signing_key'")
    app = Arbitro(open_store(str(tmp_path / "umpire.db"), mode="read"))
    kinds = [json.loads(line)["record"] for line in app.export("g", "austria")]
    assert "seat_seal" not in kinds and {"seat_view", "seat_state"} <= set(kinds)
    said = " ".join(refused(tmp_path, "".join(line + "\n" for line in app.export("g", "austria"))).split())
    assert said.endswith(
        "austria's export has no seat_seal record, so nothing binds what it shows to the server (made by an older "
        "arbitro, or from a database without a signing key): ask the umpire to export it again (`arbitro export g "
        "--as austria`); nothing imported")


def test_an_event_edited_and_sealed_again_with_the_servers_key_is_refused_by_the_chain_on_import(
        mailed: tuple[Cli, str], tmp_path: Path) -> None:
    """The seal binds a file to whoever holds the server's key: the umpire who edits an item and seals the file again
    passes the seal; an item's events carry no hash of their own (engine-rules §V.6), so what catches it is the copy
    held, and the full log (each item's links): an item relinked is refused by the chain."""
    rows = records(mailed[1])
    item = next(r for r in rows if r["record"] == "item" and r["cmd"] == 1)
    item["prev"] = "0" * 64
    reseal(rows, server_key_of(tmp_path / "umpire.db"))
    said = " ".join(refused(tmp_path, text_of(rows), name="forged.jsonl").split())
    assert said.endswith("forged.jsonl: hash chain: command #1: command #1's item does not follow the item before it "
                         "(its prev is not that item's hash); nothing imported"), said


def test_a_sealed_export_emptied_of_its_events_fails_its_seal_at_head_zero(mailed: tuple[Cli, str]) -> None:
    """Every item and view taken out, the game record's head moved to #0: the seal still names the chain's real
    head, and the 'seat views' check says the file's head is #0 (it holds no item), not a traceback."""
    rows = [r for r in records(mailed[1]) if r["record"] not in ("item", "seat_view")]
    rows[0]["head_cmd"], rows[0]["head_hash"] = 0, "0" * 64
    loaded = exchange.read_lines(text_of(rows).splitlines())
    blank = verification.Report(game="g", ruleset="marengo", version="", kind="generated", passed=True, checks=[])
    (check,) = with_views(blank, loaded).checks
    assert check == verification.Check(name="seat views", status="failed", detail=(
        "<input>: austria's export holds no view after each of its commands (made by an older arbitro, or cut): ask "
        "the umpire to export it again (`arbitro export g --as austria`)"))


def test_a_sealed_export_that_names_no_server_key_is_refused_saying_so(mailed: tuple[Cli, str], tmp_path: Path) -> None:
    """The game record's server key taken out (as an export made before keys were): the seal names its own key, and
    the refusal says the export names none."""
    rows = records(mailed[1])
    rows[0]["server_key"] = None
    said = " ".join(refused(tmp_path, text_of(rows)).split())
    assert (f"its seat_seal record (last line): signed by key {signing.fingerprint(rows[-1]['server_key'])}, not by "
            "the server key the export names ((none)); nothing imported") in said


def test_a_copy_answers_for_its_own_game_only(mailed: tuple[Cli, str]) -> None:
    copy = SeatCopy(exchange.read_lines(mailed[1].splitlines()))
    with pytest.raises(BadInput) as refused_game:
        copy.view("h", "austria")
    assert str(refused_game.value) == "this is austria's copy of g, not of h"


def test_an_export_without_its_seat_state_is_refused_on_import_saying_what_to_ask_for(mailed: tuple[Cli, str],
                                                                                     tmp_path: Path) -> None:
    ask = "ask the umpire to export it again (`arbitro export g --as austria`); nothing imported"
    rows = [r for r in records(mailed[1]) if r["record"] != "seat_state"]
    said = " ".join(refused(tmp_path, text_of(rows), name="stateless.jsonl").split())
    assert said.endswith("stateless.jsonl: austria's export holds views or a seal but no seat_state record: taken out "
                         f"after the server sealed it (it is sealed with them): {ask}"), said
    rows = [r for r in rows if r["record"] not in ("seat_view", "seat_seal")]
    said = " ".join(refused(tmp_path, text_of(rows), name="older.jsonl").split())
    assert said.endswith("older.jsonl: austria's export has no seat_state record, nor views or a seal (made by an "
                         f"arbitro before seat exports were sealed, or all three taken out): {ask}"), said


def test_a_copy_imported_before_views_were_kept_says_how_to_get_them(mailed: tuple[Cli, str]) -> None:
    rows = [r for r in records(mailed[1]) if r["record"] != "seat_view"]
    copy = SeatCopy(exchange.read_lines(text_of(rows).splitlines()))
    with pytest.raises(BadInput) as refused_view:
        copy.view("g", "austria")
    assert str(refused_view.value) == ("austria's copy of g was imported from an export made before arbitro kept a "
                                       "seat's view after each event: import the umpire's next export over it")
