"""Notes are numbered per chain (arbitro §L.1, docs/stores.md schema 3): the public chain 1, 2, 3 ..., and each
seat's private chain its own 1, 2, 3 .... Numbered in one count per game, the gaps in the public numbers a seat was
served told it that, and between which notes, the other seats wrote private notes. A store made before is
renumbered when it is first opened for writing (and read so when opened read-only), and so is an export made
before; a note whose chain does not hold stays damaged, for `arbitro check` and `verify` to report."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from arbitro.adjudicator import service
from arbitro.adjudicator.pictures.rulesets import PICTURES
from arbitro.adjudicator.verify import check_annotations
from arbitro.events import signing
from arbitro.events.records import GENESIS, StoredEvent
from arbitro.events.rows import numbered_per_chain
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import Annotation, Store

from tests.server.conftest import duel_picture
from tests.seeds import same_secrets

from .conftest import RED_CARD, Cli, OnPostgres, OnSQLiteFile, exchange, read_export, write_export
from .test_store_contract import create

# (event, writer, private, text) in the order written: blue's and red's private notes between the public ones
WRITTEN = [(1, "umpire", False, "the opening"), (2, "red", True, "red's plan"), (2, "blue", True, "blue's plan"),
           (3, "blue", False, "a public answer"), (3, "blue", True, "blue's second plan"), (3, "red", False, "agreed")]
NUMBERED = [("public", 1, "the opening"), ("public", 2, "a public answer"), ("public", 3, "agreed"),
            ("private:blue", 1, "blue's plan"), ("private:blue", 2, "blue's second plan"), ("private:red", 1, "red's plan")]


CREATED = 5  # the duel's creation, command #0, ends at event #5: where a seat's note sent at #0 lies


def at_sent(seat: str, seq: int) -> str:
    """`annotate --at` for a note of WRITTEN on the creation's events: the umpire sends the event, a seat the command,
    #0 (engine-rules §V.6)."""
    return str(seq if seat == "umpire" else 0)


def as_sent(written: list[tuple[int, str, bool, str]]) -> list[tuple[int, str, bool, str]]:
    """WRITTEN as written through the CLI: each seat's note on the creation's last event."""
    return [(seq if seat == "umpire" else CREATED, seat, private, text) for seq, seat, private, text in written]


def per_game(game: str, events: list[StoredEvent], written: list[tuple[int, str, bool, str]]) -> list[Annotation]:
    """Notes as a schema-2 store numbered and chained them: one count for the game, each linked in its chain."""
    last: dict[str, str] = {}
    notes = []
    for number, (seq, seat, private, text) in enumerate(written, 1):
        note = Annotation(game=game, id=number, seq=seq, seat=seat, private=private, text=text,
                          created_at="2026-01-01T00:00:00+00:00", at_hash=events[seq - 1].hash)
        note = msgspec.structs.replace(note, prev=last.get(note.chain, GENESIS))
        notes.append(msgspec.structs.replace(note, hash=note.digest()))
        last[note.chain] = notes[-1].hash
    return notes


OLD_TABLE = ("CREATE TABLE annotations (game TEXT NOT NULL, id BIGINT NOT NULL, seq BIGINT NOT NULL, seat TEXT NOT "
             "NULL, private BOOLEAN NOT NULL, text TEXT NOT NULL, created_at TEXT NOT NULL, at_hash TEXT NOT NULL, "
             "prev TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (game, id))")


def listed(notes: list[Annotation]) -> list[tuple[str, int, str]]:
    return [(n.chain, n.id, n.text) for n in notes]


class Upgrade:
    """A schema-2 store: its annotations table as it was (one count per game), written by hand."""

    def open(self, mode: str) -> Store:
        raise NotImplementedError

    mark = "?"  # the driver's parameter mark

    def write_old(self, notes: list[Annotation]) -> None:
        write_old_notes(self.open("create"), self.mark, notes)

    @pytest.fixture
    def old(self) -> Iterator[tuple[list[StoredEvent], list[Annotation]]]:
        store = self.open("create")
        events = create(store, "g1", events=3)
        store.close()  # type: ignore[attr-defined]
        notes = per_game("g1", events, WRITTEN)
        second = per_game("g2", events, WRITTEN[:3])
        second[2] = msgspec.structs.replace(second[2], text="edited in the database")  # blue's private note
        self.write_old([*notes, *second])
        yield events, notes

    def test_an_older_store_is_read_numbered_per_chain_and_renumbered_once_opened_for_writing(
            self, old: tuple[list[StoredEvent], list[Annotation]]) -> None:
        events, notes = old
        hashes = {e.seq: e.hash for e in events}
        read = self.open("read")
        seen = read.annotations("g1")
        read.close()  # type: ignore[attr-defined]
        assert listed(seen) == NUMBERED and check_annotations("g1", seen, hashes) is None  # linked and hashed anew
        assert seen[0] == notes[0], "a note already numbered as its chain numbers it keeps its hash"
        store = self.open("write")
        assert store.annotations("g1") == seen  # renumbered in the database as it was read
        later = store.add_annotation(Annotation(game="g1", id=0, seq=3, seat="red", private=True, text="red again",
                                                created_at="2026-01-02T00:00:00+00:00"))
        assert (later.chain, later.id, later.prev) == ("private:red", 2, seen[-1].hash)
        # g2's blue note was edited before the upgrade: its chain stays as it was, old number included (an upgrade
        # never makes a note whole), while the chains that hold are renumbered
        damaged = store.annotations("g2")
        assert [(n.chain, n.id) for n in damaged] == [("public", 1), ("private:blue", 3), ("private:red", 1)]
        problem = check_annotations("g2", damaged, hashes)
        assert problem is not None and "note 3 (by blue on #2) does not match its hash: edited" in problem.detail
        store.close()  # type: ignore[attr-defined]
        again = self.open("write")  # a second opening finds nothing to do
        assert again.annotations("g1") == [*seen, later]
        again.close()  # type: ignore[attr-defined]


class TestSQLiteUpgrade(OnSQLiteFile, Upgrade):
    pass


class TestPostgresUpgrade(OnPostgres, Upgrade):
    pass


def write_old_notes(store: Store, mark: str, notes: list[Annotation]) -> None:
    """The store's annotations table made as schema 2 had it, holding `notes`; then the store is closed."""
    conn = store.conn  # type: ignore[attr-defined]
    conn.execute("DROP TABLE annotations")
    conn.execute(OLD_TABLE)
    for n in notes:
        conn.execute(f"INSERT INTO annotations VALUES ({','.join([mark] * 10)})",
                     (n.game, n.id, n.seq, n.seat, n.private, n.text, n.created_at, n.at_hash, n.prev, n.hash))
    conn.execute("UPDATE meta SET value='2' WHERE key='schema_version'")
    store.close()  # type: ignore[attr-defined]


def test_arbitro_migrate_moves_an_older_store_numbered_per_chain_and_leaves_the_source_as_it_was(
        run: Cli, db: Path, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    store = SQLiteStore(db)
    write_old_notes(store, "?", per_game("g", list(store.events("g")), WRITTEN))
    moved = run.json("migrate", "--from", str(db), "--to", str(tmp_path / "new.db"))
    assert moved["ok"] and moved["games"][0]["notes"] == len(WRITTEN)
    target = Cli(tmp_path / "new.db")
    assert [(n["id"], n["text"]) for n in target.json("notes", "g", "--as", "blue")] == [
        (1, "the opening"), (2, "a public answer"), (3, "agreed"), (1, "blue's plan"), (2, "blue's second plan")]
    assert target.json("verify", "g")["passed"] and target.json("check")[0]["ok"]
    source = SQLiteStore(db, mode="read")  # only read: still schema 2 (it is numbered per chain when opened to write)
    assert "chain" not in {row[1] for row in source.conn.execute("PRAGMA table_info(annotations)")}
    source.close()


def test_renumbering_keeps_a_chain_already_numbered_so_and_is_done_once() -> None:
    events = [StoredEvent(seq, b"{}", f"{seq:064x}") for seq in (1, 2, 3)]
    notes = per_game("g", events, WRITTEN)
    once = numbered_per_chain(notes)
    assert listed(once) == NUMBERED and numbered_per_chain(once) == once
    public_only = per_game("g", events, [w for w in WRITTEN if not w[2]])
    assert numbered_per_chain(public_only) == public_only  # nothing private: the old numbers were the chain's


# --- an export made before ------------------------------------------------------------------------------------
def test_an_export_numbered_per_game_imports_and_verifies_numbered_per_chain(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    for seq, seat, private, text in WRITTEN:
        run("annotate", "g", text, "--as", seat, "--at", at_sent(seat, seq), *(["--private"] if private else []))
    path = tmp_path / "g.jsonl"
    run("export", "g", "-o", str(path))
    records = read_export(path)
    notes = [msgspec.convert({k: v for k, v in r.items() if k != "record"}, Annotation)
             for r in records if r["record"] == "annotation"]
    events = {r["seq"]: r["hash"] for r in records if r["record"] == "event"}
    by_text = {n.text: n for n in notes}
    stored = [StoredEvent(seq, b"{}", events[seq]) for seq in sorted(events)]
    old = per_game("g", stored, as_sent(WRITTEN))
    assert [by_text[n.text].at_hash for n in old] == [n.at_hash for n in old]
    write_export(path, [r for r in records if r["record"] != "annotation"]
                 + [{"record": "annotation", **msgspec.to_builtins(n)} for n in old])
    assert run.json("verify", str(path))["passed"]
    other = Cli(tmp_path / "other.db")
    other("import", str(path))
    assert [(n["private"], n["seat"] if n["private"] else "", n["id"], n["text"]) for n in other.json("notes", "g")
            if not n["private"]] == [(False, "", 1, "the opening"), (False, "", 2, "a public answer"), (False, "", 3, "agreed")]
    assert [n["id"] for n in other.json("notes", "g", "--as", "blue") if n["private"]] == [1, 2]
    assert other.json("verify", "g")["passed"]


# --- non-interference: whether red wrote private notes changes no byte blue is served -------------------------------
def served_to_blue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, red_writes: bool) -> str:
    """A fixed-seed, fixed-clock duel with public notes, blue's own private notes and (or not) red's private notes
    between them, and a dispute citing the public chain's second note; everything blue is served of it through the
    CLI (text and --json), its export, its seat's copy imported from that export, and its reports."""
    same_secrets(monkeypatch)
    monkeypatch.setattr(service, "now", lambda: "2026-01-01T00:00:00+00:00")
    monkeypatch.setitem(PICTURES, "duel", duel_picture)  # the viewer draws the duel's map
    keys = itertools.count(1)  # the commands' idempotency keys, else random
    monkeypatch.setattr(secrets, "token_hex", lambda n=32: f"{next(keys):0{2 * n}x}")
    monkeypatch.setattr(signing, "new_private_key", lambda: bytes(range(32)))  # the server's key, else random
    folder = tmp_path / ("with" if red_writes else "without")
    folder.mkdir()
    monkeypatch.chdir(folder)  # the same relative paths in both games' outputs
    run = Cli(Path("arbitro.db"))
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    for seq, seat, private, text in WRITTEN:
        if seat != "red" or not private or red_writes:
            run("annotate", "g", text, "--as", seat, "--at", at_sent(seat, seq), *(["--private"] if private else []))
    if red_writes:
        run("annotate", "g", f"I hold {RED_CARD}", "--as", "red", "--at", "2", "--private")  # on blue's guard
    run("dispute", "open", "g", "see the public answer", "--as", "blue", "--at", "2", "--note", "2")
    run("dispute", "reply", "g", "1", "and my plan", "--as", "blue", "--note", "private:2", "--private")
    shown = [run(*command, "g", "--as", "blue", *fmt).stdout
             for command in (["notes"], ["log"], ["view"], ["replay"], ["disputes"], ["status"])
             for fmt in ([], ["--json"])]
    run("export", "g", "--as", "blue", "-o", "blue.jsonl")
    run("report", "g", "--as", "blue", "--pictures", "none", "-o", "blue.md")
    run("report", "g", "--as", "blue", "--pictures", "none", "-o", "blue.html")
    run("report", "g", "--as", "blue", "--viewer", "-o", "viewer.html")
    copy = Cli(Path("blue-copy.db"))
    copy("import", "blue.jsonl")
    shown += [copy(*command, "g", "--as", "blue", "--json").stdout for command in (["notes"], ["view"], ["log"])]
    files = [Path(name).read_text(encoding="utf-8") for name in ("blue.jsonl", "blue.md", "blue.html", "viewer.html")]
    return "\n".join([*shown, *files])


def test_whether_red_wrote_private_notes_changes_no_byte_blue_is_served(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    quiet, busy = (served_to_blue(tmp_path, monkeypatch, red_writes) for red_writes in (False, True))
    assert quiet == busy
    assert "red's plan" not in busy and RED_CARD not in busy
    assert "a public answer" in busy and "blue's second plan" in busy  # blue's own chain is served to blue
    umpire = Cli(tmp_path / "with" / "arbitro.db")
    assert umpire.json("notes", "g", "--as", "red")[-1]["id"] == 2, "red's chain is there, numbered on its own"
