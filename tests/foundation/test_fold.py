"""The fold's use of snapshots and its chain check at the start (projections/fold.py, arbitro §L): a snapshot
saves folding only when the chained checkpoint after it vouches for it, and a log whose first event is not
chained to the genesis is broken. Tried as an attacker would: forged snapshots, a dropped first event."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import sha256_hex
from arbitro.events.records import StoredEvent
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import Snapshot
from arbitro.events import core
from arbitro.events.records import EventBody, seal
from arbitro.projections.fold import ChainBroken, Fold, Replayer, snapshot_of
from arbitro.projections.game import state_bytes

from tests.foundation.duel import DuelRuleset, TurnEnded

from .conftest import Cli, exchange


class Spy:
    """The store, recording where each read of events starts; optionally hiding event #1."""

    def __init__(self, store: Any, drop_first: bool = False, drop: int = 0, ends_after: int | None = None,
                 corrupt: int = 0) -> None:
        self.store, self.firsts, self.reads = store, [], []  # type: Any, list[int], list[tuple[int, int | None]]
        self.drop, self.ends_after, self.corrupt = 1 if drop_first else drop, ends_after, corrupt

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def events(self, game_id: str, first: int = 1, last: int | None = None) -> Iterator[StoredEvent]:
        self.firsts.append(first)
        self.reads.append((first, last))
        return (StoredEvent(e.seq, e.body + b" ", e.hash) if e.seq == self.corrupt else e
                for e in self.store.events(game_id, first, last)
                if e.seq != self.drop and (self.ends_after is None or e.seq <= self.ends_after))


@pytest.fixture
def played(db: Path, app: Arbitro) -> Arbitro:
    run = Cli(db)
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    exchange(run, "g", attacker="blue", aim="low", stance="low")  # a full round: a checkpoint and its snapshot
    return app


def replay(app: Arbitro, spy: Spy) -> bytes:
    return state_bytes(Replayer(app.replayer("g").fold, spy, "g").state_at())  # type: ignore[arg-type]


def test_a_snapshot_vouched_for_by_its_checkpoint_is_used_and_gives_the_folded_state(played: Arbitro) -> None:
    (snap, *_) = played.store.snapshots("g")
    truth = state_bytes(played.replayer("g").state_at(use_snapshots=False))
    spy = Spy(played.store)
    assert replay(played, spy) == truth
    assert 1 not in spy.firsts and snap.seq in spy.firsts  # folded from the snapshot on, not from #1
    # a snapshot is the state's seq, canonical bytes and their SHA-256
    assert snapshot_of(played.replayer("g").state_at(snap.seq, use_snapshots=False)) == \
        Snapshot(snap.seq, snap.state, sha256_hex(snap.state))


@pytest.mark.parametrize("forgery", ["digest", "state", "no checkpoint after", "at the head"])
def test_a_snapshot_not_vouched_for_is_ignored_and_the_log_folded_from_the_start(played: Arbitro, forgery: str) -> None:
    (snap, *_) = played.store.snapshots("g")
    truth = state_bytes(played.replayer("g").state_at(use_snapshots=False))
    head = played.game("g").head_seq
    if forgery == "digest":  # the digest column does not match the bytes
        fake = Snapshot(snap.seq, snap.state, "0" * 64)
    elif forgery == "state":  # bytes and digest agree, but the checkpoint after records another hash
        forged = snap.state.replace(b'"hp":{"blue":', b'"hp":{"blue":1', 1)
        fake = Snapshot(snap.seq, forged, sha256_hex(forged))
    else:  # a snapshot where no checkpoint follows: a genuine state, but nothing in the chain vouches for it
        seq = head if forgery == "at the head" else snap.seq - 1
        fake = snapshot_of(played.replayer("g").state_at(seq, use_snapshots=False))
        played.store.put_snapshot("g", fake)
        spy = Spy(played.store)
        assert Replayer(played.replayer("g").fold, spy, "g").state_at(seq) is not None  # type: ignore[arg-type]
        assert 1 in spy.firsts
        return
    played.store.put_snapshot("g", fake)
    spy = Spy(played.store)
    assert replay(played, spy) == truth
    assert 1 in spy.firsts


def test_a_log_whose_first_event_is_missing_is_broken(played: Arbitro) -> None:
    """Event #2 names #1's hash, not the genesis: served without #1, the fold refuses it."""
    with pytest.raises(ChainBroken):
        list(Replayer(played.replayer("g").fold, Spy(played.store, drop_first=True), "g").bodies(1))  # type: ignore[arg-type]


def test_a_log_missing_an_event_in_the_middle_is_broken_at_the_event_after_it(played: Arbitro) -> None:
    """Each event names the hash of the one before: with #5 deleted, #6 does not follow #4."""
    with pytest.raises(ChainBroken) as broken:
        list(Replayer(played.replayer("g").fold, Spy(played.store, drop=5), "g").bodies(1))  # type: ignore[arg-type]
    assert str(broken.value) == "game g, event #6: does not follow the event before it (deleted, inserted or reordered)"
    assert (broken.value.game, broken.value.seq) == ("g", 6)


def test_an_event_whose_content_does_not_match_its_hash_is_named_by_game_and_number(played: Arbitro) -> None:
    with pytest.raises(ChainBroken) as broken:
        list(Replayer(played.replayer("g").fold, Spy(played.store, corrupt=4), "g").bodies(1))  # type: ignore[arg-type]
    assert (broken.value.game, broken.value.seq) == ("g", 4)
    assert str(broken.value) == "game g, event #4: its content does not match its hash (edited or corrupted)"


@pytest.mark.parametrize("moved", ["number", "game"])
def test_an_event_stored_under_another_number_or_game_is_refused_even_with_its_hash_intact(
        played: Arbitro, moved: str) -> None:
    """An event's body names its game and number: a genuine event copied to another place (its hash still matching
    its bytes) claims where it came from, and decoding refuses it there, whatever the link check."""
    fold = played.replayer("g").fold
    fourth = next(iter(played.store.events("g", 4, 4)))
    stored, game = (StoredEvent(5, fourth.body, fourth.hash), "g") if moved == "number" else (fourth, "h")
    with pytest.raises(ChainBroken) as broken:
        fold.decode(stored, game, None)
    assert (broken.value.game, broken.value.seq) == (game, stored.seq)
    assert str(broken.value) == f"game {game}, event #{stored.seq}: claims to be game g #4 (moved or reordered)"
    assert fold.decode(fourth, "g", None).seq == 4  # in its place it decodes (no link asked for: prev None)


def test_a_log_that_ends_early_is_broken_at_the_first_missing_event(played: Arbitro) -> None:
    head = played.game("g").head_seq
    replayer = Replayer(played.replayer("g").fold, Spy(played.store, ends_after=head - 3), "g")  # type: ignore[arg-type]
    with pytest.raises(ChainBroken) as broken:
        replayer.state_at(head, use_snapshots=False)
    assert (broken.value.game, broken.value.seq) == ("g", head - 2)
    assert str(broken.value) == f"game g, event #{head - 2}: is missing (the log ends early)"
    empty = Replayer(played.replayer("g").fold, Spy(played.store, ends_after=0), "g")  # type: ignore[arg-type]
    with pytest.raises(ChainBroken, match="game g, event #1: is missing"):  # no event at all: the same error
        empty.state_at(head, use_snapshots=False)


def test_a_replayer_given_the_head_it_was_read_with_stops_there(played: Arbitro) -> None:
    """A submit reads the game's record once: its replayer folds to that head, not to a later one another writer
    appended meanwhile, and a number past it does not exist for it."""
    fold = played.replayer("g").fold
    at_five = Replayer(fold, played.store, "g", head=5)
    assert at_five.state_at().core.seq == 5
    assert state_bytes(at_five.state_at()) == state_bytes(played.replayer("g").state_at(5))
    with pytest.raises(ValueError) as beyond:
        at_five.state_at(6)
    assert str(beyond.value) == "game g has events #1 to #5; there is no #6"
    with pytest.raises(ValueError, match="there is no #0"):
        at_five.state_at(0)


def test_checking_a_snapshot_reads_the_one_event_after_it(played: Arbitro) -> None:
    """The checkpoint that vouches for a snapshot is the event right after it: reading more would make every
    replay read the rest of the log, which snapshots exist to avoid."""
    (snap, *_) = played.store.snapshots("g")
    spy = Spy(played.store)
    Replayer(played.replayer("g").fold, spy, "g").state_at()  # type: ignore[arg-type]
    assert (snap.seq + 1, snap.seq + 1) in spy.reads


def test_a_forged_snapshot_is_not_trusted_when_the_event_after_it_is_corrupt(played: Arbitro) -> None:
    """A snapshot whose bytes and digest agree is vouched for only by a sound checkpoint after it: a corrupt event
    there vouches for nothing, so the state at the snapshot's number is folded from the log."""
    (snap, *_) = played.store.snapshots("g")
    truth = state_bytes(played.replayer("g").state_at(snap.seq, use_snapshots=False))
    forged = snap.state.replace(b'"hp":{"blue":', b'"hp":{"blue":1', 1)
    played.store.put_snapshot("g", Snapshot(snap.seq, forged, sha256_hex(forged)))
    spy = Spy(played.store, corrupt=snap.seq + 1)
    assert state_bytes(Replayer(played.replayer("g").fold, spy, "g").state_at(snap.seq)) == truth  # type: ignore[arg-type]


def test_folding_a_whole_log_with_an_undo_gives_the_replayed_state(db: Path, app: Arbitro) -> None:
    """`Fold.fold` (verification's fold of an in-memory log) keeps the state at each number an undo returns to:
    after the undo the rules and pending decisions are those of that earlier state."""
    run = Cli(db)
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    back_to = run.json("status", "g")["head"]  # the log's event; blue sends its command (engine-rules §V.6)
    run.submit("g", "blue", {"type": "attack", "aim": "high"})
    run.json("undo", "g", "--as", "blue", "--to", str(app.numbers(app.game("g")).command_of(back_to)))
    replayer = app.replayer("g")
    bodies = list(replayer.bodies())
    assert any(isinstance(b.event, core.Undone) for b in bodies)
    folded = replayer.fold.fold(bodies)
    assert state_bytes(folded) == state_bytes(replayer.state_at(use_snapshots=False))
    assert folded.rules == replayer.state_at(back_to).rules and folded.core.decisions == replayer.state_at(back_to).core.decisions


def test_folding_nothing_or_a_log_without_its_creation_is_refused(played: Arbitro) -> None:
    fold: Fold = played.replayer("g").fold
    with pytest.raises(AssertionError, match="^empty log$"):
        fold.fold([])
    bodies: list[EventBody[Any]] = list(played.replayer("g").bodies())
    with pytest.raises(AssertionError, match="^a game's log must start with game_created$"):
        fold.fold(bodies[1:])


class OneEventDuel(DuelRuleset):
    """A ruleset with a single event type of its own: `Event` is that class, not a Union of classes."""

    Event = TurnEnded  # type: ignore[assignment]


def test_a_ruleset_with_a_single_event_type_has_it_decoded() -> None:
    fold = Fold(OneEventDuel())
    body = EventBody(game="g", seq=2, cmd=1, cmd_hash="c" * 64, seat="red", salt="s" * 32, prev="p" * 64,
                     event=TurnEnded(seat="red", rule="duel §4"))
    stored = seal(body)
    assert fold.decode(stored, "g", "p" * 64).event == TurnEnded(seat="red", rule="duel §4")
    assert core.Checkpoint in fold.event_type.__args__  # and the engine's own events beside it


# --- the engine's bookkeeping, event by event ----------------------------------------------------------------------
def test_each_engine_event_sets_the_engines_part_of_the_state(played: Arbitro) -> None:
    """What `_apply_core` keeps: the entropy mix, the next random index, the revealed seed, rulings (a patch to the
    rules, readings merged and sorted), the last checkpoint's number; and an undo restores the rules, readings and
    pending decisions of its target but not the dice (the next roll is a new one: arbitro §U)."""
    fold: Fold = played.replayer("g").fold
    earlier = played.replayer("g").state_at(5)
    state = played.replayer("g").state_at(9)
    rolls = state.core.rolls

    def step(event: Any, seq: int) -> None:
        nonlocal state
        state = fold.apply_event(state, seq, event, lambda at: earlier if at == 5 else pytest.fail(f"asked for #{at}"))
        assert state.core.seq == seq

    step(core.EntropyAdded(seat="red", entropy="e", mix="1" * 64), 10)
    assert state.core.mix == "1" * 64
    step(core.EntropyMixed(seats=("red", "blue"), mix="2" * 64, rule="arbitro §R.2"), 11)
    assert state.core.mix == "2" * 64
    step(core.DiceRolled(index=rolls, count=1, sides=6, values=(4,), purpose="test"), 12)
    assert state.core.rolls == rolls + 1
    step(core.ItemsDrawn(index=rolls + 1, population=("a", "b"), drawn=("b",), purpose="test"), 13)
    assert state.core.rolls == rolls + 2
    step(core.RulingMade(reason="a fix", patch=({"op": "replace", "path": "/hp/red", "value": 1},),
                         interpretation={"zeta": "z"}), 14)
    step(core.RulingMade(reason="a reading", interpretation={"alpha": "a"}), 15)
    assert state.rules.hp["red"] == 1 and list(state.core.interpretations.items()) == [("alpha", "a"), ("zeta", "z")]
    step(core.Checkpoint(state_hash="0" * 64, reason="test"), 16)
    assert state.core.last_checkpoint == 16
    step(core.Undone(to_seq=5, by="red", reason="taken back", rule="arbitro §U.1"), 17)
    assert state.rules == earlier.rules and state.core.decisions == earlier.core.decisions
    assert state.core.interpretations == earlier.core.interpretations == {}
    assert state.core.rolls == rolls + 2 and state.core.mix == "2" * 64  # the dice are not taken back
    step(core.SeedRevealed(seed="5e" * 32, reason="the end"), 18)
    assert state.core.seed == "5e" * 32


def test_an_event_whose_hash_holds_but_whose_content_is_no_event_is_named_by_game_and_number(played: Arbitro) -> None:
    junk = b'{"not":"an event"}'
    with pytest.raises(ChainBroken) as broken:
        played.replayer("g").fold.decode(StoredEvent(4, junk, sha256_hex(junk)), "g", None)
    assert (broken.value.game, broken.value.seq) == ("g", 4)
    assert str(broken.value).startswith("game g, event #4: cannot be decoded: ")


def test_a_game_created_with_readings_in_force_starts_with_them_noted_in_its_rules() -> None:
    """A game may start with an umpire's readings already in force (a fork after a ruling, a position naming
    them): the fold notes them in the ruleset's state at the creation itself, before any event, since legal() and
    a decision's options read only the state. Without a reading in force the rules are the creation's own."""
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("caricat", "pastrengo")
    replayer = app.replayer(game)
    created = next(iter(replayer.bodies(1))).event
    assert isinstance(created, core.GameCreated) and not created.initial_core.get("interpretations")
    assert replayer.fold.initial(created).rules.interpretations == {}
    chosen = {"morale_value": "printed"}
    ruled = msgspec.structs.replace(created, initial_core={**created.initial_core, "interpretations": chosen})
    started = replayer.fold.initial(ruled)
    assert started.core.interpretations == chosen and started.rules.interpretations == chosen


def test_a_ruling_that_chooses_a_reading_notes_every_reading_in_force_in_the_rules() -> None:
    """legal() and a decision's options read only the ruleset's state, so a reading the umpire rules mid-game
    (arbitro §D, `readjudicate --ruling`) is noted there at once, merged with the readings already in force: the
    rules carry the same readings as the engine's part of the state."""
    app = Arbitro(SQLiteStore(":memory:"))
    replayer = app.replayer(app.create("caricat", "pastrengo"))
    state = replayer.state_at()
    seq = state.core.seq
    for reading in ({"morale_value": "printed"}, {"leader_loss": "end_of_combat"}):
        seq += 1
        state = replayer.fold.apply_event(state, seq, core.RulingMade(reason="the umpire's reading",
                                                                      interpretation=reading))
    both = {"leader_loss": "end_of_combat", "morale_value": "printed"}
    assert state.core.interpretations == both and state.rules.interpretations == both


def test_a_kept_state_gives_the_state_as_it_was_kept_each_time_whatever_changes_after(played: Arbitro) -> None:
    """Fold.kept (the engine's state before a command it decides in place, issue 15): each call a private copy of
    the state, of the game's own state type, as it was when kept."""
    fold = Fold(DuelRuleset())
    state = played.state_at("g")
    kept = fold.kept(state)
    before = state_bytes(state)
    state.rules.hp["red"] -= 5  # the original goes on changing
    first, second = kept(), kept()
    assert type(first) is type(state) and type(first.rules) is type(state.rules)
    assert state_bytes(first) == before and first is not second and first.rules is not second.rules
    first.rules.hp["blue"] -= 1
    assert state_bytes(second) == before


def test_the_state_at_a_head_is_given_only_if_its_row_has_the_heads_hash_even_when_a_snapshot_holds_it(
        played: Arbitro) -> None:
    """fold.check_head: the state from the snapshot at #N (its checkpoint #N+1 vouching for it) is the head #N's only
    if row #N hashes to the head's hash; the row is read for it, nothing folded."""
    (snap, *_) = played.store.snapshots("g")
    (row,) = played.store.events("g", snap.seq, snap.seq)
    fold, spy = played.replayer("g").fold, Spy(played.store)
    state = Replayer(fold, spy, "g", head=snap.seq, head_hash=row.hash).state_at()  # type: ignore[arg-type]
    assert state.core.seq == snap.seq and spy.reads[-1] == (snap.seq, snap.seq)
    with pytest.raises(ChainBroken) as broken:
        Replayer(fold, spy, "g", head=snap.seq, head_hash="f" * 64).state_at()  # type: ignore[arg-type]
    assert (broken.value.seq, broken.value.detail) == (
        snap.seq, "is not the head its game's record names (edited, or the game replaced)")


def test_a_replayer_reading_the_head_from_the_record_checks_the_log_ends_at_its_hash(played: Arbitro) -> None:
    record = played.game("g")

    class Replaced(Spy):
        def game(self, game_id: str) -> Any:
            return msgspec.structs.replace(record, head_hash="f" * 64)

    with pytest.raises(ChainBroken) as broken:
        Replayer(played.replayer("g").fold, Replaced(played.store), "g").state_at()  # type: ignore[arg-type]
    assert broken.value.seq == record.head_seq
    assert Replayer(played.replayer("g").fold, Spy(played.store), "g").state_at().core.seq == record.head_seq  # type: ignore[arg-type]
