"""Moving games between stores (`arbitro migrate`): SQLite to PostgreSQL and back, byte for byte.

Each game goes in one transaction (Store.import_game: its whole command log and events as stored, its notes,
seats' keys and signatures), then its snapshots and its seats' token hashes; then it is checked: every stored
record equal to the source's (event bodies and hashes, commands, notes, keys, signatures, snapshots, tokens),
its chain and command log intact (storecheck), and the game verified by re-adjudication. A game already in the
target and equal to the source is left as it is, so an interrupted migration is simply run again; one that
differs is refused before anything is moved. A seat's copy of a game it plays by e-mail (adjudicator/seatcopy.py)
moves as its export, whole, and is checked as a seat's copy is (its chain, notes and dice).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from arbitro.adjudicator import verify as verification
from arbitro.adjudicator.errors import UnknownRuleset
from arbitro.adjudicator.seatcopy import SeatCopy
from arbitro.adjudicator.storecheck import check_game
from arbitro.events.store import GameExists, Store

Progress = Callable[[str, int, int], None]  # (game, its position, how many games)


class Moved(msgspec.Struct, kw_only=True):
    game: str
    status: str  # "moved" | "already there"
    events: int
    commands: int
    notes: int
    identical: bool  # every stored record equal to the source's
    problems: list[str]  # the target's chain, command log, snapshots or notes (storecheck)
    verified: bool  # re-adjudicated in the target: the same events
    verify_detail: str = ""

    @property
    def ok(self) -> bool:
        return self.identical and not self.problems and self.verified


def records(store: Store, game_id: str) -> dict[str, Any]:
    """Everything a store holds of a game, as comparable values, read as of one moment (a read transaction): a game
    played on while it is moved is moved as it was between two commands."""
    with store.read_transaction() as moment:
        return {
            "game": moment.game(game_id),
            "commands": list(moment.commands(game_id)),
            "events": list(moment.events(game_id)),
            "notes": moment.annotations(game_id),
            "seat_keys": moment.seat_keys(game_id),
            "signatures": moment.command_signatures(game_id),
            "snapshots": moment.snapshots(game_id),
            "tokens": moment.tokens(game_id),
        }


def first_difference(a: dict[str, Any], b: dict[str, Any]) -> str | None:
    """The first kind of record in which two games' records differ, or None."""
    return next((kind for kind in a if a[kind] != b[kind]), None)


def migrate(source: Store, target: Store, game_ids: Iterable[str] | None = None,
            progress: Progress | None = None) -> list[Moved]:
    """Move the games (default: all of the source's, oldest first) and the seats' copies (play by e-mail), and
    check each in the target."""
    copies = {game: (seat, text) for game, seat, text in source.seat_copies()}
    named = list(game_ids) if game_ids is not None else [g.id for g in source.games()] + sorted(copies)
    wanted, copied = [g for g in named if g not in copies], [g for g in named if g in copies]
    present = _refuse_different(source, target, wanted)
    copies_present = _refuse_different_copies(target, {g: copies[g] for g in copied})
    moved = []
    for i, game_id in enumerate(named, 1):
        if progress is not None:
            progress(game_id, i, len(named))
        if game_id in copies:
            moved.append(_copy_moved(target, game_id, *copies[game_id], game_id in copies_present))
            continue
        held = records(source, game_id)
        if game_id not in present:
            copy_game(held, target)
        moved.append(_checked(held, target, game_id, "already there" if game_id in present else "moved"))
    return moved


def _refuse_different_copies(target: Store, copies: dict[str, tuple[str, str]]) -> set[str]:
    """The seats' copies already in the target and equal to the source's; GameExists for one that differs."""
    present = set()
    for game_id, held in copies.items():
        there = target.seat_copy(game_id)
        if there is not None and there != held:
            raise GameExists(game_id, f"the target holds another copy of {game_id} ({there[0]}'s, or another export "
                                      "of it); nothing was moved. Delete it there, or leave it out of --game")
        if there is not None:
            present.add(game_id)
    return present


def _copy_moved(target: Store, game_id: str, seat: str, text: str, present: bool) -> Moved:
    """A seat's copy stored in the target as the source holds it (its export, whole), then checked there."""
    copy = SeatCopy.read(game_id, seat, text)
    if not present:
        target.put_seat_copy(game_id, seat, copy.head, text)
    held = SeatCopy.find(target, game_id)
    report = held.verify(game_id) if held is not None else None
    return Moved(game=game_id, status=f"{seat}'s copy {'already there' if present else 'moved'}", events=copy.head,
                 commands=0, notes=len(copy.loaded.annotations), identical=target.seat_copy(game_id) == (seat, text),
                 problems=[], verified=report is not None and report.passed,
                 verify_detail="; ".join(report.failures() if report is not None else []))


def _refuse_different(source: Store, target: Store, game_ids: list[str]) -> set[str]:
    """The games already in the target and equal to the source's; GameExists for one that differs."""
    there = {g.id for g in target.games()}
    present = set()
    for game_id in game_ids:
        source.game(game_id)  # GameNotFound names a game the source does not have
        if game_id in there:
            differs = first_difference(records(source, game_id), records(target, game_id))
            if differs is not None:
                raise GameExists(game_id, f"the target holds a different game under that id (its {differs} differ); "
                                          "nothing was moved. Delete it there, or leave it out of --game")
            present.add(game_id)
    return present


def copy_game(held: dict[str, Any], target: Store) -> None:
    """Store a game's records in the target as they are: its log, notes, keys and signatures in one transaction,
    then its snapshots and token hashes (written again by a rerun if it stops between the two)."""
    game = held["game"]
    by_seq = {e.seq: e for e in held["events"]}
    batches = [(c.record, [by_seq[s] for s in range(c.first_seq, c.last_seq + 1)] if c.first_seq else [])
               for c in held["commands"]]
    target.import_game(game, batches, held["notes"], held["signatures"], held["seat_keys"])
    for snapshot in held["snapshots"]:
        target.put_snapshot(game.id, snapshot)
    if held["tokens"]:
        target.put_tokens(game.id, held["tokens"])


def _checked(held: dict[str, Any], target: Store, game_id: str, status: str) -> Moved:
    identical = first_difference(held, records(target, game_id)) is None
    problems: list[str] = []
    verified, detail = False, ""
    try:
        problems = check_game(target, game_id).problems
        report = verification.verify_stored(target, game_id)
        verified = report.passed
        detail = "; ".join(f"{c.name}: {c.detail}" for c in report.checks if c.status == "failed")
    except UnknownRuleset as e:  # moved as stored; this installation cannot judge it
        detail = str(e)
    return Moved(game=game_id, status=status, events=len(held["events"]), commands=len(held["commands"]),
                 notes=len(held["notes"]), identical=identical, problems=problems, verified=verified,
                 verify_detail=detail)
