"""Verification's parts, each held to its exact verdict and words (adjudicator/verify.py): a receipt checked
against a file (arbitro §L.4), the divergence's rule taken from the events compared (arbitro §V.1), and the log so
far as re-adjudication shows it to the undo rules. Mutation testing found each of these pinned by nothing but
"failed somewhere" (issue 20)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.exchange import Loaded, read_lines
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.verify import (
    Check, Divergence, _annotations_check, _check_build, check_annotations, check_receipt,
    check_signatures, load_stored, verify,
)
from arbitro.adjudicator.verify_anchors import beyond
from arbitro.adjudicator.verify_replay import _compare
from arbitro.adjudicator.verify_reads import MemoryHistory
from arbitro.events import signing
from arbitro.events.records import EventBody
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import Annotation
from arbitro.projections.fold import Fold
from arbitro.projections.game import state_hash

from .legacy_seat_export import legacy_export
from .conftest import Cli, exchange


@pytest.fixture
def loaded(run: Cli, db: Path) -> Loaded:
    """A duel two exchanges in, as verification reads it from the store."""
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    exchange(run, "g", attacker="blue", aim="low", stance="low")
    store = SQLiteStore(db)
    try:
        return load_stored(store, "g")
    finally:
        store.close()


# --- receipts (arbitro §L.4) ---------------------------------------------------------------------------------
class Server:
    """A server's key, signing receipts for the game `loaded` holds: by default for its last command and head."""

    def __init__(self, loaded: Loaded) -> None:
        self.key = signing.new_private_key()
        self.public = signing.public_key(self.key)
        self.loaded = loaded
        self.hashes = {e.seq: e.hash for e in loaded.events}
        self.cmd, self.seq = len(loaded.commands) - 1, max(self.hashes)

    def receipt(self, **fields: Any) -> signing.Receipt:
        last = dict(game="g", cmd=self.cmd, cmd_hash=self.loaded.commands[self.cmd][1], head=self.hashes[self.seq])
        return signing.make_receipt(self.key, **(last | fields))

    def legacy(self, **fields: Any) -> signing.LegacyReceipt:
        """An arbitro-receipt/1, as servers signed them before /2: it names the head's event number too."""
        last = dict(game="g", cmd=self.cmd, cmd_hash=self.loaded.commands[self.cmd][1], seq=self.seq,
                    head=self.hashes[self.seq], server_key=self.public)
        unsigned = signing.LegacyReceipt(**(last | fields))  # type: ignore[arg-type]
        return msgspec.structs.replace(unsigned, signature=signing.sign(self.key, unsigned.message()))

    def signer(self) -> str:
        return f"signed by server key {signing.fingerprint(self.public)}"


@pytest.mark.parametrize("kind", ["receipt", "legacy"])
def test_a_receipt_for_the_files_head_and_command_passes_and_names_its_signer(loaded: Loaded, kind: str) -> None:
    """An arbitro-receipt/2 names no event number: the file places its head after its command; a /1 still passes."""
    server = Server(loaded)
    assert check_receipt(loaded, server.hashes, getattr(server, kind)()) == Check(
        name=f"receipt for command {server.cmd}", status="passed",
        detail=f"the file holds command {server.cmd} and the head #{server.seq} the server acknowledged "
               f"({server.signer()})")


def test_a_receipt_edited_after_signing_fails_naming_the_key_it_claims(loaded: Loaded) -> None:
    server = Server(loaded)
    edited = msgspec.structs.replace(server.receipt(), head=server.hashes[server.seq - 1])  # to excuse a dropped tail
    assert check_receipt(loaded, server.hashes, edited) == Check(
        name=f"receipt for command {server.cmd}", status="failed",
        detail=f"its signature does not verify under the key it names ({signing.fingerprint(server.public)}): "
               "the receipt was edited or forged")


def test_a_receipt_for_another_game_fails_naming_both_games(loaded: Loaded) -> None:
    server = Server(loaded)
    assert check_receipt(loaded, server.hashes, server.receipt(game="h")) == Check(
        name=f"receipt for command {server.cmd}", status="failed", detail="it is a receipt for game h, not g")


def test_a_file_that_ends_before_the_acknowledged_head_lost_its_tail(loaded: Loaded) -> None:
    server = Server(loaded)
    shorter = {seq: digest for seq, digest in server.hashes.items() if seq < server.seq}
    dropped = ("the server acknowledged the log up to #{} but this file ends at #{}: events were dropped from its end "
               f"({server.signer()})")
    assert check_receipt(loaded, shorter, server.receipt()) == Check(
        name=f"receipt for command {server.cmd}", status="failed", detail=dropped.format(server.seq, server.seq - 1))
    # A file with no event at all ends at #0.
    assert check_receipt(loaded, {}, server.receipt()).detail == dropped.format(server.seq, 0)


def test_another_event_at_the_acknowledged_head_is_a_rewrite(loaded: Loaded) -> None:
    server = Server(loaded)
    assert check_receipt(loaded, server.hashes, server.receipt(head="f" * 64)) == Check(
        name=f"receipt for command {server.cmd}", status="failed",
        detail=f"this file's #{server.seq} is not the event the server acknowledged after command {server.cmd}: "
               f"the log was rewritten at or before #{server.seq} ({server.signer()})")


def test_a_receipt_naming_no_event_is_checked_by_its_command_alone(loaded: Loaded) -> None:
    """Sequence number 0 names no event, so there is no head to compare: the command must still be the one."""
    server = Server(loaded)
    check = check_receipt(loaded, server.hashes, server.legacy(seq=0, head=""))
    assert (check.status, check.detail) == (
        "passed", f"the file holds command {server.cmd} and the head #0 the server acknowledged ({server.signer()})")


@pytest.mark.parametrize("which", ["another command hash", "a command the file lacks"])
def test_a_command_that_is_not_the_acknowledged_one_fails(loaded: Loaded, which: str) -> None:
    server = Server(loaded)
    cmd = server.cmd if which == "another command hash" else len(loaded.commands)
    receipt = server.legacy(cmd=cmd, cmd_hash="0" * 64)
    assert check_receipt(loaded, server.hashes, receipt) == Check(
        name=f"receipt for command {cmd}", status="failed",
        detail=f"command {cmd} in this file is not the command the server acknowledged ({server.signer()})")
    said = check_receipt(loaded, server.hashes, server.receipt(cmd=cmd, cmd_hash="0" * 64)).detail
    assert said == (f"command {cmd} in this file is not the command the server acknowledged ({server.signer()})"
                    if which == "another command hash" else
                    f"the server acknowledged command {cmd} but this file's commands end at {cmd - 1}: commands were "
                    f"dropped from its end ({server.signer()})")


def test_a_receipt_signed_by_another_key_than_the_files_says_both(loaded: Loaded) -> None:
    """The file names the key that exported it; a receipt signed by another is still checked, and the words say
    which key signed what, so a reader can tell a server's two keys from a stranger's."""
    server, exporter = Server(loaded), signing.public_key(signing.new_private_key())
    exported = msgspec.structs.replace(loaded, server_key=exporter)
    detail = check_receipt(exported, server.hashes, server.receipt()).detail
    assert detail.endswith(f"({server.signer()}; this file was exported by key {signing.fingerprint(exporter)})")
    same = msgspec.structs.replace(loaded, server_key=server.public)
    assert check_receipt(same, server.hashes, server.receipt()).detail.endswith(f"({server.signer()})")


# --- the divergence (arbitro §V.1) -----------------------------------------------------------------------------
def body(seq: int, event: dict[str, Any]) -> EventBody[Any]:
    return EventBody(game="g", seq=seq, cmd=1, cmd_hash="c" * 64, seat="red", salt="s" * 64, prev="p" * 64,
                     event=event)


def test_the_same_events_do_not_diverge() -> None:
    same = [{"type": "hit", "rule": "duel §2"}, {"type": "dice_rolled", "purpose": "duel §3"}]
    assert _compare([body(4, e) for e in same], same, 4) is None


def test_a_divergence_names_the_first_differing_event_and_the_rule_of_what_the_log_holds() -> None:
    stored = [body(10, {"type": "hit", "rule": "duel §2"}), body(11, {"type": "hit", "rule": "duel §2.1"})]
    produced = [{"type": "hit", "rule": "duel §2"}, {"type": "miss", "rule": "duel §2.2"}]
    assert _compare(stored, produced, 10) == Divergence(seq=11, expected=stored[1].event, found=produced[1],
                                                        rule="duel §2.1")


def test_a_divergence_takes_the_rule_of_the_computed_event_when_the_logs_cites_none() -> None:
    assert _compare([body(5, {"type": "hit"})], [{"type": "miss", "rule": "duel §2.2"}], 5) == Divergence(
        seq=5, expected={"type": "hit"}, found={"type": "miss", "rule": "duel §2.2"}, rule="duel §2.2")


def test_a_diverging_roll_names_the_purpose_of_the_roll_the_log_holds() -> None:
    stored = [body(7, {"type": "dice_rolled", "values": [3], "purpose": "duel §3 the hit"})]
    produced = [{"type": "dice_rolled", "values": [5], "purpose": "duel §3 the parry"}]
    assert _compare(stored, produced, 7) == Divergence(seq=7, expected=stored[0].event, found=produced[0],
                                                       rule="duel §3 the hit")


def test_an_event_the_log_lacks_or_has_too_many_diverges_at_its_number() -> None:
    extra = {"type": "dice_rolled", "values": [2], "purpose": "duel §3"}
    assert _compare([body(3, {"type": "hit"})], [{"type": "hit"}, extra], 3) == Divergence(
        seq=4, expected="(no event)", found=extra, rule="duel §3")
    stored = [body(3, {"type": "hit"}), body(4, {"type": "miss", "rule": "duel §2.2"})]
    assert _compare(stored, [{"type": "hit"}], 3) == Divergence(
        seq=4, expected=stored[1].event, found="(no event)", rule="duel §2.2")


def test_a_divergence_between_events_that_cite_nothing_names_no_rule() -> None:
    assert _compare([body(2, {"type": "hit"})], [{"type": "miss"}], 2) == Divergence(
        seq=2, expected={"type": "hit"}, found={"type": "miss"}, rule="")


# --- the log so far, as re-adjudication shows it to the undo rules -----------------------------------------------
def test_the_undo_rules_see_the_log_up_to_the_event_being_judged_and_its_states(loaded: Loaded) -> None:
    """During re-adjudication the undo rules read the log up to the head being judged (`upto`), never the events
    that follow it, and a state at any earlier number, as the store's history would give them."""
    fold = Fold(registry.get(loaded.game.ruleset))
    bodies = [fold.decode_checked(e.body) for e in loaded.events]
    history = MemoryHistory(fold, bodies)
    assert history.bodies() == []  # before the creation's events are judged
    history.upto = 9
    assert [b.seq for b in history.bodies()] == list(range(1, 10))
    assert [b.seq for b in history.bodies(4)] == list(range(4, 10))
    assert [b.seq for b in history.bodies(2, 5)] == [2, 3, 4, 5]
    assert [b.seq for b in history.bodies(8, len(bodies))] == [8, 9]  # never past the head judged
    for seq in (1, 5, len(bodies)):
        state = history.state_at(seq)
        assert state.core.seq == seq
        assert state_hash(state) == state_hash(fold.fold(bodies[:seq]))


# --- what no check can prove: the events after the last anchor (arbitro §V.2) -------------------------------------
def test_re_adjudication_decides_each_players_command_on_its_own_state_copying_none(
        loaded: Loaded, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15: verification gives the engine the state it folded and never reads it again (`decide`'s consume),
    so no player's command costs a copy of the whole state; the one copy is of the state at the genesis (#1)."""
    copied: list[int] = []
    copy = Fold.copy
    monkeypatch.setattr(Fold, "copy", lambda fold, state: copied.append(state.core.seq) or copy(fold, state))
    assert verify(loaded).passed and len(loaded.commands) == 5
    assert copied == [1]


def test_completeness_reaches_as_far_as_the_latest_receipt_or_recorded_head(loaded: Loaded) -> None:
    server = Server(loaded)
    last = server.seq
    assert beyond(server.hashes, server.hashes[last], ()) == Check(
        name="completeness", status="passed",
        detail=f"the file ends at #{last}, the latest head you anchored (with a receipt or --head)")
    unanchored = (f"nothing proves that events #{{}}-#{last} are the ones the server accepted, nor that events after "
                  f"#{last} were not dropped: check the file against your latest receipt (--receipt) or a hash you "
                  "recorded (--head)")
    assert beyond(server.hashes, None, ()) == Check(name="completeness", status="unchecked",
                                                     detail=unanchored.format(1))
    assert beyond(server.hashes, "f" * 64, ()).detail == unanchored.format(1)  # a head not in the file anchors nothing
    early = 6  # a receipt's head, as verify.receipt_seq places it
    assert beyond(server.hashes, server.hashes[4], [early]) == Check(
        name="completeness", status="unchecked", detail="#1-#6 are anchored; " + unanchored.format(7))
    assert beyond(server.hashes, server.hashes[8], [early]).detail == "#1-#8 are anchored; " + unanchored.format(9)
    assert beyond(server.hashes, None, [early, server.seq]).status == "passed"


# --- notes are chained (arbitro §L.1) ----------------------------------------------------------------------------
@pytest.fixture
def notes(run: Cli, db: Path, loaded: Loaded) -> tuple[Loaded, list[Annotation]]:
    """Two public notes and a private one on the duel."""
    run("annotate", "g", "a bold guard", "--as", "umpire", "--at", "7")
    run("annotate", "g", "I bluffed", "--as", "red", "--at", "2", "--private")  # a seat's: the guard, #7-#10
    run("annotate", "g", "round one over", "--as", "blue", "--at", "2")
    store = SQLiteStore(db)
    try:
        annotations = store.annotations("g")
    finally:
        store.close()
    return msgspec.structs.replace(loaded, annotations=annotations), annotations


def hashes_of(loaded: Loaded) -> dict[int, str]:
    return {e.seq: e.hash for e in loaded.events}


def rehashed(note: Annotation, **fields: Any) -> Annotation:
    changed = msgspec.structs.replace(note, **fields)
    return msgspec.structs.replace(changed, hash=changed.digest())


def test_whole_note_chains_pass_counted_by_chain(notes: tuple[Loaded, list[Annotation]]) -> None:
    loaded, annotations = notes
    assert check_annotations("g", annotations, hashes_of(loaded)) is None
    assert _annotations_check(loaded) == Check(name="annotations", status="passed",
                                               detail="3 notes in 2 chains, each linked and bound to its event")


def test_each_alteration_of_a_note_is_named_with_the_note(notes: tuple[Loaded, list[Annotation]]) -> None:
    loaded, annotations = notes
    first, second, private = annotations  # the public chain first, then red's (events.rows.chain_order)
    where = f"note {first.id} (by umpire on #7)"

    def problem(notes: list[Annotation], game: str = "g") -> str | None:
        found = check_annotations(game, notes, hashes_of(loaded))
        assert found is None or (found.name, found.status) == ("annotations", "failed")
        return found.detail if found else None

    assert problem([msgspec.structs.replace(first, hash=""), private, second]) == f"{where} is not chained (no hash)"
    edited = msgspec.structs.replace(first, text="a reckless guard")
    assert problem([edited, private, second]) == f"{where} does not match its hash: edited"
    assert problem(annotations, game="h") == f"{where} does not match its hash: edited"  # another game's notes
    assert problem([private, second]) == (f"note {second.id} (by blue on #10) does not follow the note before it in "
                                          "the public chain (a note was removed, inserted or reordered)")
    moved = rehashed(first, seq=8)
    assert problem([moved, private]) == f"note {first.id} (by umpire on #8) names another event than #8"
    # The private chain stands alone: the public notes dropped from a seat's file leave it whole.
    assert problem([private]) is None


def test_a_note_on_an_event_the_file_does_not_hold_is_checked_by_its_own_hash(notes: tuple[Loaded, list[Annotation]]) -> None:
    """A seat's file may lack the event a note names (it was not served): the note's own hash still binds it."""
    loaded, annotations = notes
    hashes = {seq: digest for seq, digest in hashes_of(loaded).items() if seq != 7}
    assert check_annotations("g", annotations, hashes) is None


def test_a_seats_export_whose_note_was_edited_fails_verification_as_a_whole(run: Cli, notes: Any) -> None:
    """A seat's export is checked as far as a seat's file can be (its links, the events served whole, its notes, its
    dice): one failed check fails the whole report, as for a full log."""
    exported = "\n".join(legacy_export(Arbitro(SQLiteStore(run.db)), "g", "red"))  # numbered as the log, its notes chained
    assert verify(read_lines(exported.splitlines())).passed is True
    edited = exported.replace('"text":"round one over"', '"text":"round two over"')
    assert edited != exported
    report = verify(read_lines(edited.splitlines()))
    (failed,) = [c for c in report.checks if c.status == "failed"]
    assert failed.name == "annotations" and "edited" in failed.detail and report.passed is False


# --- seats' signatures (arbitro §L.6) ----------------------------------------------------------------------------
def test_the_signature_check_lists_every_seat_that_signs_from_its_command_or_none(
    run: Cli, db: Path, loaded: Loaded, tmp_path: Path
) -> None:
    assert check_signatures(loaded, {}) == Check(
        name="seat signatures", status="passed",
        detail="0 commands signed, each by its seat's registered key; seats that sign: none")
    for seat in ("red", "blue"):
        public = run.json("keygen", "-o", str(tmp_path / f"{seat}.key"))["public_key"]
        run("register-key", "g", public, "--as", seat)
    store = SQLiteStore(db)
    try:
        keyed = load_stored(store, "g")
    finally:
        store.close()
    last = len(keyed.commands) - 1
    assert check_signatures(keyed, {}) == Check(
        name="seat signatures", status="passed",
        detail=f"0 commands signed, each by its seat's registered key; seats that sign: blue (after command {last}), "
               f"red (after command {last - 1})")  # each from its own registering command


# --- the build a game was played with (arbitro §L.5) ---------------------------------------------------------------
class Build:
    """A ruleset as `_check_build` reads it: its version, the hash of a data folder or of its shipped data, the data
    files a state carries and its shipped ones."""

    version = "1.0.0"

    class State(msgspec.Struct):
        data_files: dict[str, str] = {}

    def data_hash(self, files: dict[str, str] | None = None) -> str:
        return ("f" if files else "s") * 64

    def carried_data(self, state: Any) -> dict[str, str]:
        return dict(state.data_files)

    def shipped_data(self) -> dict[str, str]:
        return {"map.json": "{}"}


def created_with(data: dict[str, str] | None, data_hash: str, carried: dict[str, str] | None = None) -> Any:
    origin = {"scenario": "standard", **({"data": data} if data else {})}
    initial = {"data_files": carried if carried is not None else data or {}}
    return SimpleNamespace(ruleset="duel", version="1.0.0", origin=origin, data_hash=data_hash, initial=initial)


@pytest.mark.parametrize("data, played, status, detail", [
    ({"map.json": "{}"}, "f" * 64, "passed", "the data folder the genesis carries"),
    ({"map.json": "{}"}, "e" * 64, "failed", "played with data eeeeeeeeeeee, the data the genesis carries hash to "
                                             "ffffffffffff (edited)"),
    (None, "s" * 64, "passed", "the same data files"),
    (None, "e" * 64, "failed", "played with data eeeeeeeeeeee, this build has ssssssssssss (the data files changed)"),
])
def test_the_data_a_game_was_played_with_is_its_own_folder_or_the_shipped_files(
    data: dict[str, str] | None, played: str, status: str, detail: str
) -> None:
    """A game on a user's data folder carries the folder in its genesis: its hash is checked against what the genesis
    carries, not against this build's shipped files."""
    checks: list[Check] = []
    _check_build(Build(), created_with(data, played), checks)
    assert checks == [Check(name="ruleset version", status="passed", detail="played with duel 1.0.0; this build has 1.0.0"),
                      Check(name="scenario data", status=status, detail=detail)]


@pytest.mark.parametrize("played, status, detail", [
    ("f" * 64, "passed", "the data files the genesis carries; 1 not the shipped's: map.json (changed)"),
    ("s" * 64, "failed", "played with data ssssssssssss, the data the genesis carries hash to ffffffffffff (edited)"),
])
def test_data_files_the_initial_state_carries_are_what_the_hash_is_checked_against(
    played: str, status: str, detail: str
) -> None:
    """A game whose state carries changed data (a position's overrides, or its own data_files) without a data folder:
    its hash is the carried files', never the shipped files', and each changed file is named (review rev-fidelity 1)."""
    checks: list[Check] = []
    _check_build(Build(), created_with(None, played, {"map.json": '{"x": 1}'}), checks)
    assert checks[1] == Check(name="scenario data", status=status, detail=detail)


def test_data_files_a_state_carries_are_named_against_the_games_own_data_folder_not_the_shipped_ones() -> None:
    """A game on a user's data folder whose state carries files of its own (a position's overrides): each file not
    the folder's is named as not the data folder's (changed, added, left out), however many (review rev-fidelity 1)."""
    checks: list[Check] = []
    folder = {"map.json": "{}", "units.json": "[]"}
    _check_build(Build(), created_with(folder, "f" * 64, {"map.json": '{"x": 1}', "tables.json": "{}"}), checks)
    assert checks[1] == Check(name="scenario data", status="passed", detail=(
        "the data folder the genesis carries; 3 not the data folder's: map.json (changed), tables.json (added), "
        "units.json (left out)"))
