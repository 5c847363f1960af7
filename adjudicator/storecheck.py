"""The store check (`arbitro check`): each game's records in a database, checked without re-adjudication (its
chain and genesis, its command log, its snapshots and its annotations), and each seat's copy as a seat's export is
checked. Functions over the store."""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import BadFile
from arbitro.adjudicator.exchange import Loaded, UnreadableView, read_lines
from arbitro.adjudicator.seatcopy import SeatCopy, as_found
from arbitro.adjudicator.verify import Check, check_annotations, check_chain, check_commands, load_stored, verify
from arbitro.events.codec import sha256_hex
from arbitro.events.store import Store
from arbitro.projections.fold import Fold


class GameCheck(msgspec.Struct, kw_only=True):
    """One game's records in a database, checked without re-adjudication: its chain and genesis, its
    command log, its snapshots and its annotations."""

    game: str
    ok: bool
    events: int
    commands: int
    snapshots: int
    annotations: int
    problems: list[str]
    copy_of: str = ""  # a seat's copy of the game (play by e-mail): that seat


def check_game(store: Store, game_id: str) -> GameCheck:
    """One game, read as of one moment (a read transaction): a game played on while it is checked is not reported
    broken for a command half read."""
    with store.read_transaction() as moment:
        return _checked(moment, game_id)


def _checked(store: Store, game_id: str) -> GameCheck:
    loaded = load_stored(store, game_id)
    problems: list[str] = []
    broken = check_chain(loaded)
    if broken is not None:
        problems.append(f"{broken.name}: {broken.detail}")
    else:
        fold = Fold(registry.get(loaded.game.ruleset))
        bodies = [fold.decode(e, game_id, None) for e in loaded.events]
        checks: list[Check] = []
        if not check_commands(loaded, bodies, checks):
            problems += [f"{c.name}: {c.detail}" for c in checks if c.status == "failed"]
    snapshots = store.snapshots(game_id)
    problems += _snapshot_problems(loaded, snapshots)
    notes = check_annotations(loaded.game.id, loaded.annotations, {e.seq: e.hash for e in loaded.events})
    if notes is not None:
        problems.append(f"{notes.name}: {notes.detail}")
    return GameCheck(game=game_id, ok=not problems, events=len(loaded.events), commands=len(loaded.commands),
                     snapshots=len(snapshots), annotations=len(loaded.annotations), problems=problems)


def check_copy(game_id: str, seat: str, text: str) -> GameCheck:
    """A seat's copy of a game it plays by e-mail (adjudicator/seatcopy.py), checked as a seat's export is: its
    chain as far as the seat was served it, its notes, its dice once the seed is revealed, and its views (one after
    each event, each patch applying to the one before)."""
    try:
        loaded = read_lines(text.splitlines(), f"{seat}'s copy of {game_id}")
    except BadFile as e:  # a record the copy cannot be read by: reported, as any other problem, not an abort
        return GameCheck(game=game_id, ok=False, events=0, commands=0, snapshots=0, annotations=0, copy_of=seat,
                         problems=[f"{'views' if isinstance(e, UnreadableView) else 'records'}: {e}"])
    problems = verify(loaded).failures()
    try:
        SeatCopy(loaded).check_views()
    except BadFile as e:
        problems.append(f"views: {as_found(e)}")
    own = loaded.items is not None  # a copy in the seat's numbers holds one item per command, no event count
    return GameCheck(game=game_id, ok=not problems, events=0 if own else len(loaded.served),
                     commands=len(loaded.items or ()), snapshots=0,
                     annotations=len(loaded.annotations), problems=problems, copy_of=seat)


def _snapshot_problems(loaded: Loaded, snapshots: list[Any]) -> list[str]:
    """A snapshot must hash to its recorded hash, and that hash must be the one the chained checkpoint right
    after it records (replay ignores one that is not; it is still damage worth reporting)."""
    recorded = {}
    for stored in loaded.events:
        try:
            body = msgspec.json.decode(stored.body)
        except msgspec.DecodeError:
            continue  # a damaged event: the chain check reports it
        event = body.get("event", {}) if isinstance(body, dict) else {}
        if event.get("type") == "checkpoint":
            recorded[stored.seq - 1] = event.get("state_hash")
    problems = []
    for snap in snapshots:
        if sha256_hex(snap.state) != snap.state_hash:
            problems.append(f"snapshot after #{snap.seq}: its state does not match its recorded hash")
        elif recorded.get(snap.seq) != snap.state_hash:
            problems.append(f"snapshot after #{snap.seq}: not the state the chained checkpoint #{snap.seq + 1} records")
    return problems
