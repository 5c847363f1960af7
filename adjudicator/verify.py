"""Verification: is this log what the rules, the dice and the chain say it must be?

1. the hash chain (every event's hash, its link to the one before, contiguous numbering, the head);
2. every event names the hash of the command that caused it;
3. the ruleset version and scenario-data hash the game was played with, against this build;
4. the seed against the commitment made at creation, once revealed;
5. re-adjudication: the command log is played again from the start through the current adjudicator and
   must give exactly the stored events (checkpoint state hashes included); dice are recomputed from the
   revealed seed, or read back from the log and reported unchecked while the seed is secret.
The first divergence is reported: sequence number, what the log holds, what the rules give, the rule.
What cannot be checked (dice before the reveal, hidden facts missing from a seat's export) is reported as
unchecked, never as passed.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import msgspec

from arbitro.adjudicator import registry, served_dice
from arbitro.adjudicator.datafiles import differing_files
from arbitro.adjudicator.engine import Adjudicator
from arbitro.adjudicator.exchange import Loaded
from arbitro.adjudicator.randomness import audit_dice, commits_to_keys, describe_rerolls
from arbitro.adjudicator.verify_anchors import (Check, Status, beyond, check_head, check_receipt, file_commands,
                                               receipt_seq)
from arbitro.adjudicator.verify_ranges import Spans, range_problem, seat_command_problem, spans_problem
from arbitro.adjudicator.verify_seat import genesis_of, item_hashes, item_problem, proofs_check, seat_checks
from arbitro.adjudicator.verify_signatures import keys_chained, signatures_said
from arbitro.adjudicator.verify_replay import Divergence, Progress, begun
from arbitro.adjudicator.verify_reads import (
    EventHashes, Events, Scan, SpilledEvents, Stamp, Stamps, StoredEvents, fewer_full_collections, stored_rows,
)
from arbitro.events import core
from arbitro.events import random as rnd
from arbitro.events.codec import canonical, sha256_hex, to_builtins
from arbitro.events.records import GENESIS, CommandRecord, EventBody, GameRecord, StoredEvent
from arbitro.events.signing import AnyReceipt
from arbitro.events.store import Annotation, Store
from arbitro.projections.fold import ChainBroken, Fold


class Report(msgspec.Struct, kw_only=True):
    game: str
    ruleset: str
    version: str
    kind: str  # generated | transcribed
    passed: bool
    checks: list[Check]
    divergence: Divergence | None = None
    provisional: list[str] = []

    def failures(self) -> list[str]:
        """Each failed check as `name: detail` (what `import`, `check` and `migrate` say of a seat's copy)."""
        return [f"{c.name}: {c.detail}" for c in self.checks if c.status == "failed"]


def load_stored(store: Store, game_id: str, *, streamed: bool = False, spilled: bool = False) -> Loaded:
    """A stored game's whole record, as an exported file holds it, read as of one moment (a read transaction): a
    command committed meanwhile is in none of it or all of it. `streamed`: its events read from `store` as they are
    asked for, none held (verification in bounded memory: issue 15); give a read transaction's store, as
    `verify_stored` does, so that they are read as of the same moment. `spilled`: its events copied in that moment to
    a temporary file and read from it (`SpilledEvents`), none held, for workers forked to judge them (`--jobs`)."""
    with store.read_transaction() as moment:
        commands = [(c.record, c.hash, c.first_seq, c.last_seq) for c in moment.commands(game_id)]
        events: Sequence[StoredEvent] = (
            SpilledEvents(stored_rows(moment, game_id)) if spilled else
            StoredEvents(store, game_id, moment) if streamed else list(moment.events(game_id)))
        return Loaded(game=moment.game(game_id), commands=commands, events=events,
                      annotations=moment.annotations(game_id), seat_keys=moment.seat_keys(game_id),
                      signatures=moment.command_signatures(game_id))


def verify_stored(store: Store, game_id: str, progress: Progress | None = None, jobs: int = 1) -> Report:
    """`verify` of a stored game, its events read from the store as they are checked (none held), every read in one
    read transaction: a game played on while it is verified is judged as it was when verify began. `jobs` above 1:
    re-adjudicated by up to that many processes, which read the events as that moment spilled them (load_stored)."""
    with store.read_transaction() as moment:
        return verify(load_stored(moment, game_id, streamed=True, spilled=jobs > 1), progress, jobs=jobs)


def check_chain(loaded: Loaded, fold: Fold | None = None, seen: Callable[[EventBody[Any]], None] | None = None) -> Check | None:
    """The first break in the chain, or a game record that disagrees with its genesis; None if intact. `seen`:
    given each event as it is checked, so that a caller learns what it needs of the log in the same read."""
    fold = fold or Fold(registry.get(loaded.game.ruleset))
    prev = GENESIS
    for expected_seq, stored in enumerate(loaded.events, 1):
        if stored.seq != expected_seq:
            return Check(name="hash chain", status="failed",
                         detail=f"event #{expected_seq} is missing (found #{stored.seq} in its place)")
        try:
            body = fold.decode(stored, loaded.game.id, prev)
        except ChainBroken as e:
            return Check(name="hash chain", status="failed", detail=str(e))
        if seen is not None:
            seen(body)
        if expected_seq == 1:
            problem = check_genesis(loaded.game, body.event)
            if problem is not None:
                return problem
        prev = stored.hash
    return _head_problem(loaded.game, len(loaded.events), prev)


def _head_problem(game: GameRecord, head: int, last_hash: str) -> Check | None:
    """Whether a chain that ends at #`head` with `last_hash` is the game record's (its head and head hash), and holds
    its genesis: the chain's links cannot tell events cut from its end."""
    if head != game.head_seq:
        return Check(name="hash chain", status="failed",
                     detail=f"the log ends at #{head} but the game's head is #{game.head_seq} "
                            "(events deleted from the end, or the file is truncated)")
    if last_hash != game.head_hash:
        return Check(name="hash chain", status="failed",
                     detail=f"the game's head hash {game.head_hash[:12]} is not the hash of its last event "
                            f"#{head} ({last_hash[:12]}): the record or the log was edited")
    if not head:  # a record whose head says so is consistent with it, but no game is without its genesis
        return Check(name="genesis", status="failed", detail="the log has no event: no genesis (#1) says what game it is")
    return None


def check_genesis(game: GameRecord, created: Any, *, seats: bool = False) -> Check | None:
    """The game record is a convenience copy of the chained genesis (`game_created`, event #1): every field
    that decides how the log is judged must say what the genesis says (arbitro §L.1). `created` is the
    event, or as a seat was served it (a mapping; fields it lacks are not compared; `seats`: a seat's export's)."""
    genesis = to_builtins(created) if isinstance(created, core.Event) else created
    if not isinstance(genesis, dict) or genesis.get("type") != "game_created":
        return Check(name="genesis", status="failed", detail="event #1 is not game_created: the log has no genesis")
    origin = genesis.get("origin") or {}
    # a seat is served a fork's point in its parent by the parent's command, not the event the record's parent_seq
    # names (views.served_origin, engine-rules §V.6): only the umpire's genesis binds parent_seq
    served = ("parent_seq",) if seats else ()
    bound: list[tuple[str, Any, str, Any]] = [
        ("ruleset", game.ruleset, "ruleset", None), ("version", game.version, "version", None),
        ("scenario", game.scenario, "scenario", None), ("kind", game.kind, "kind", None),
        ("seed_commitment", game.seed_commitment, "seed_commitment", None),
        ("seats", list(game.seats), "seats", None),
        ("parent", game.parent, "origin", origin.get("fork")), ("parent_seq", game.parent_seq, "origin", origin.get("at")),
        ("parent_hash", game.parent_hash, "origin", origin.get("hash")),
    ]
    for name, record, key, derived in bound:
        if key not in genesis or name in served:
            continue
        value = derived if key == "origin" else genesis[key]
        value = list(value) if isinstance(value, tuple) else value
        if record != value:
            return Check(name="genesis", status="failed",
                         detail=f"the game record says {name}={record!r} but the chained genesis (#1) says "
                                f"{value!r}: the record was edited")
    for name, secret in (("seed", game.seed), ("salt key", game.salt_key)):  # as created, 64 lowercase hex digits:
        # another spelling of the same bytes (upper case, spaces) would be another seed to an import's comparison
        if secret is not None and not rnd.commits_to(secret, genesis.get(f"{name.replace(' ', '_')}_commitment")):
            return Check(name="genesis", status="failed", detail=f"the game record carries a {name} that does not "
                                                                 f"match the {name} commitment of the chained genesis (#1)")
    return None


def verify(
    loaded: Loaded, progress: Progress | None = None, head: str | None = None,
    receipts: Sequence[AnyReceipt] = (), seat_keys: dict[str, str] | None = None, *, jobs: int = 1,
) -> Report:
    """`loaded` verified (the module's docstring), anchored to a `head` the caller recorded, `receipts` it kept and
    `seat_keys` it trusts. `jobs`: the most processes re-adjudicating at once (verify_replay; the report is the same
    for any number)."""
    with fewer_full_collections():
        report = _verify(loaded, progress, jobs)
    hashes = _hashes(loaded)
    anchors = [check_head(hashes, head, commands=loaded.items is not None)] if head is not None else []
    if loaded.redacted_for is not None or loaded.seat_keys or loaded.signatures or seat_keys or keys_chained(loaded):
        anchors.append(check_signatures(loaded, seat_keys or {}))  # a seat's export: always said, checked or not
    numbers = file_commands(loaded) if receipts and loaded.items is None else None
    anchors += [check_receipt(loaded, hashes, r, numbers) for r in receipts]
    anchors.append(beyond(hashes, head, [receipt_seq(loaded, r, numbers) or 0 for r in receipts],
                          commands=loaded.items is not None))
    report.checks += anchors
    report.passed = report.passed and all(c.status != "failed" for c in anchors)
    return report


def _hashes(loaded: Loaded) -> Mapping[int, str]:
    """Every event's hash by sequence number, from a full log (read from it as asked) or a seat's export numbered as
    the log (arbitro/2); a seat's export in its numbers gives each command's item link by command number."""
    if loaded.items is not None:
        return item_hashes(loaded)
    if loaded.redacted_for is not None:
        return {int(e["seq"]): str(e["hash"]) for e in loaded.served}
    return EventHashes(loaded.events)


def check_signatures(loaded: Loaded, asserted: dict[str, str]) -> Check:
    """Seats' signatures on their own commands (arbitro §L.6; verify_signatures)."""
    status, detail = signatures_said(loaded, asserted)
    return Check(name="seat signatures", status=status, detail=detail)


def _verify(loaded: Loaded, progress: Progress | None = None, jobs: int = 1) -> Report:
    ruleset = registry.get(loaded.game.ruleset)
    game = loaded.game
    checks: list[Check] = []
    report = Report(game=game.id, ruleset=game.ruleset, version=game.version, kind=game.kind, passed=False, checks=checks)
    if loaded.items is not None:
        return _verify_items(loaded, report)
    if loaded.redacted_for is not None:
        return _verify_seat_export(loaded, report)
    adj = Adjudicator(ruleset)  # one for every check: its fold's decoders and the ruleset's caches are shared
    scan = Scan(len(loaded.commands))
    broken = check_chain(loaded, adj.fold, scan.see)
    if broken is not None:
        checks.append(broken)
        report.divergence = Divergence(seq=_seq_of(broken.detail), expected="an intact chain", found=broken.detail,
                                       rule="arbitro §L.1")
        return report
    checks.append(Check(name="hash chain", status="passed", detail=f"{len(loaded.events)} events, head {game.head_hash[:12]}"))
    checks.append(Check(name="genesis", status="passed",
                        detail="the game record (ruleset, version, kind, seats, seed commitment) is the chained #1's"))
    bodies = Events(adj.fold, loaded.events)
    created = scan.created
    assert isinstance(created, core.GameCreated)
    report.provisional = list(created.provisional)
    secrets: list[Check] = []  # the seed's and salt key's checks, said after the build's as ever
    seed = _check_seed(created, scan, secrets, created.kind)
    salt_key = _check_salt_key(created, scan, secrets)
    # re-adjudication's workers judge while this process checks the rest (issue 15: the critical path)
    with begun(adj, loaded, bodies, seed, jobs, salt_key=salt_key, caused=scan.caused) as judging:
        stamps = Stamps(loaded.events)
        salts = Salts(loaded.game.id, _salting_key(created, scan),
                      scan.made_public.get(core.SaltKeyRevealed if created.salted_by_key() else core.SeedRevealed, 0))
        if not check_commands(loaded, stamps, checks, salts):  # the salts judged in the same reads of commands, stamps
            misplaced = range_problem(loaded, stamps)
            if misplaced is not None:
                report.divergence = Divergence(seq=misplaced[0], found=misplaced[1], rule="arbitro §L.1",
                                               expected="an event in the range of the command it names")
            return report
        _check_build(ruleset, created, checks)
        checks += secrets
        _check_salts(loaded, salts, salt_key if created.salted_by_key() else seed, checks, created.salted_by_key())
        _check_dice_protection(scan.dice, checks)
        divergence = judging.finish(checks, progress)
    checks.append(_annotations_check(loaded))
    report.divergence = divergence
    report.passed = divergence is None and all(c.status != "failed" for c in checks)
    return report


def _seq_of(detail: str) -> int:
    match = re.search(r"#(\d+)", detail)
    return int(match.group(1)) if match else 0


def check_commands(loaded: Loaded, bodies: Iterable[EventBody[Any] | Stamp], checks: list[Check],
                   salts: Salts | None = None) -> bool:
    """Every command present, in order and unedited, every event naming its command's hash, and every event in the
    range of the command it names (verify, import, check), in one read of the commands and one of the events; `salts`
    judges each command and event (a stamp) on the way. A command's first_seq/last_seq are covered by no hash, and
    re-adjudication compares each command with its range only: an event outside every range would pass it."""
    hashes: dict[int, str] = {}
    claimed = array("q")  # each command's first and last event, for the ranges' check: one read of the commands, which
    # from a file is a line read, checked and decoded each (issue 15: verify's serial part read them three times)
    for number, (record, digest, first, last) in enumerate(loaded.commands):
        if record is None or record.cmd != number:
            checks.append(Check(name="command log", status="failed", detail=f"command {number} is missing or out of order"))
            return False
        if record.digest() != digest:
            checks.append(Check(name="command log", status="failed",
                                detail=f"command {number} (events #{first}-#{last}) was edited: its hash does not match"))
            return False
        hashes[record.cmd] = digest
        claimed.append(first)
        claimed.append(last)
        if salts is not None:
            salts.see_command(record, first)
    spans = Spans()
    for body in bodies:
        if hashes.get(body.cmd) != body.cmd_hash:
            checks.append(Check(name="command log", status="failed",
                                detail=f"event #{body.seq} names command {body.cmd} with a different hash"))
            return False
        spans.add(body)
        if salts is not None:
            salts.see(body)
    misplaced = spans_problem(zip(claimed[::2], claimed[1::2]), spans)
    if misplaced is not None:
        checks.append(Check(name="command log", status="failed", detail=misplaced[1]))
        return False
    checks.append(Check(name="command log", status="passed", detail=f"{len(loaded.commands)} commands, each hash matches its events"))
    return True


def _check_build(ruleset: Any, created: core.GameCreated, checks: list[Check]) -> None:
    same = created.version == ruleset.version
    checks.append(Check(name="ruleset version", status="passed" if same else "failed",
                        detail=f"played with {created.ruleset} {created.version}; this build has {ruleset.version}"))
    own = created.origin.get("data")  # a user's data folder, carried whole by the genesis (Ruleset.read_data)
    # The data the game plays on: the files its initial state carries (its own folder, changed by any overrides),
    # else the shipped ones; each carried file that is not its folder's or the shipped one is named (rev-fidelity 1).
    carried = ruleset.carried_data(msgspec.convert(created.initial, ruleset.State)) if created.initial else {}
    data = ruleset.data_hash(carried or own)
    changed = differing_files(carried, own or ruleset.shipped_data()) if carried else []
    kept = ("the data folder the genesis carries" if own else "the data files the genesis carries" if carried else
            "the same data files") + (
        f"; {len(changed)} not the {'data folder' if own else 'shipped'}'s: " + ", ".join(f"{n} ({how})" for n, how in changed)
        if changed else "")
    same = created.data_hash == data
    checks.append(Check(name="scenario data", status="passed" if same else "failed",
                        detail=kept if same else f"played with data {created.data_hash[:12]}, " +
                        (f"the data the genesis carries hash to {data[:12]} (edited)" if carried or own else
                         f"this build has {data[:12]} (the data files changed)")))


def _check_seed(created: core.GameCreated, scan: Scan, checks: list[Check], kind: str) -> str | None:
    """The revealed seed, once checked against the commitment, for what derives from it (the salts; a generated
    game's dice): a transcribed game's dice were entered at the table, but its salts still derive from its seed."""
    revealed, rolls = scan.revealed, scan.rolls
    if kind == "transcribed":
        checks.append(Check(name="dice", status="unchecked",
                            detail=f"transcribed game: {rolls} rolls and draws were entered from the table as recorded"))
    elif revealed is None:
        checks.append(Check(name="dice", status="unchecked",
                            detail=f"{rolls} rolls and draws cannot be recomputed until the seed is revealed"))
    if revealed is None:
        return None
    ok = rnd.commitment(revealed.seed) == created.seed_commitment
    checks.append(Check(name="seed commitment", status="passed" if ok else "failed",
                        detail="the revealed seed matches the commitment made at creation" if ok else
                        "the revealed seed does NOT match the commitment made at creation"))
    if ok and created.provable():
        _check_roll_keys(created, revealed.seed, checks)
    return revealed.seed if ok else None


def _check_roll_keys(created: core.GameCreated, seed: str, checks: list[Check]) -> None:
    """A provable game's root over its roll keys (arbitro §R.5), rebuilt from the revealed seed: a root that is not
    the seed's would have let the host prove keys it chose, not the ones its rolls were made with."""
    ok = commits_to_keys(seed, created)
    checks.append(Check(name="roll keys", status="passed" if ok else "failed", detail=(
        f"the {created.roll_keys} roll keys the genesis commits to ({rnd.DERIVATION_KEYED}, root "
        f"{str(created.roll_key_root)[:12]}) are the revealed seed's" if ok else
        f"the genesis's roll-key root is NOT the Merkle root over the revealed seed's {created.roll_keys} roll keys "
        "(arbitro §R.5)")))


def _salting_key(created: core.GameCreated, scan: Scan) -> str | None:
    """The key the log says its salts derive from, not yet checked against its commitment: the salt key the game's
    end reveals (an older game, made before the salt key: its revealed seed)."""
    if created.salted_by_key():
        return scan.salt_key.salt_key if scan.salt_key is not None else None
    return scan.revealed.seed if scan.revealed is not None else None


def _check_salt_key(created: core.GameCreated, scan: Scan, checks: list[Check]) -> str | None:
    """The salt key revealed at the game's end, once checked against the commitment its genesis made, for the salts
    that derive from it (events.random); None before the end, and for an older game."""
    if not created.salted_by_key() or scan.salt_key is None:
        return None
    ok = rnd.commitment(scan.salt_key.salt_key) == created.salt_key_commitment
    checks.append(Check(name="salt key commitment", status="passed" if ok else "failed",
                        detail="the revealed salt key matches the commitment made at creation" if ok else
                        "the revealed salt key does NOT match the commitment made at creation"))
    return scan.salt_key.salt_key if ok else None


class Salts:
    """Whether each command's and event's salt derives from the revealed key (_salting_key), judged as the command
    check reads the commands (`see_command`) and the stamps (`see`): the first command and the first event whose salt
    does not, and how many events were judged. Reported only once the key is found to be the committed one. The
    commands after `last` (the one that revealed the key) and their events have fresh random salts
    (projections.game.salting_key_public): not judged."""

    def __init__(self, game_id: str, key: str | None, last: int) -> None:
        self.game_id, self.key, self.last = game_id, key, last
        self.wrong: int | None = None  # the first event whose salt does not derive from `key`
        self.wrong_command: tuple[int, int] | None = None  # the first such command, and its first event
        self.seen = 0

    def see_command(self, record: CommandRecord, first: int) -> None:
        if (self.key is not None and self.wrong_command is None and record.cmd <= self.last
                and record.salt != rnd.command_salt(self.key, self.game_id, record.cmd)):
            self.wrong_command = record.cmd, first

    def see(self, stamp: EventBody[Any] | Stamp) -> None:
        if stamp.cmd > self.last:
            return
        self.seen += 1
        if self.key is not None and self.wrong is None and stamp.salt != rnd.salt(self.key, self.game_id, stamp.seq):
            self.wrong = stamp.seq


def _check_salts(loaded: Loaded, salts: Salts, key: str | None, checks: list[Check], keyed: bool) -> None:
    """Every command's and event's salt derives from the salt key, `keyed` (an older game's: from its seed; arbitro
    §V.3): a salt chosen otherwise could be one a seat knows, which would make the hashes it is served testable
    against its guesses. `key` is the revealed key `salts` judged the events by, once found to be the committed one
    (_check_salt_key, _check_seed), else None."""
    source = "the salt key" if keyed else "the seed"
    if key is None:
        checks.append(Check(name="salts", status="unchecked", detail=f"command and event salts derive from {source}: "
                            + ("checkable once the game's end reveals it" if keyed else "checkable once it is revealed")))
        return
    if salts.wrong_command is not None:  # judged by `key`: the key `salts` was made with, found to be the committed one
        cmd, first = salts.wrong_command
        checks.append(Check(name="salts", status="failed",
                            detail=f"command {cmd} (events from #{first}) has a salt not derived from {source}"))
        return
    if salts.wrong is not None:
        checks.append(Check(name="salts", status="failed", detail=f"event #{salts.wrong} has a salt not derived from {source}"))
        return
    after = len(loaded.commands) - salts.last - 1  # salted at random once the key was public (arbitro §V.3)
    checks.append(Check(name="salts", status="passed", detail=f"the salts of {salts.last + 1} commands and {salts.seen} "
                        f"events derive from {source}" + (f"; the {after} commands after its reveal are salted at random"
                                                          if after else "")))


def _check_dice_protection(bodies: Iterable[EventBody[Any]], checks: list[Check]) -> None:
    """Against whom the dice are protected, rulings that left a seat out, and every undo that re-rolled:
    re-adjudication proves these events follow from the commands; this says what they mean (arbitro §R.2, §U)."""
    audit = audit_dice(bodies)
    if audit.protection != "entered":
        status: Status = "unchecked" if audit.protection == "host" else "noted" if audit.waivers else "passed"
        checks.append(Check(name="dice protection", status=status, detail=audit.summary))
    checks.append(Check(name="re-rolls", status="noted" if audit.rerolls else "passed",
                        detail=describe_rerolls(audit.rerolls)))


def _verify_items(loaded: Loaded, report: Report) -> Report:
    """A seat's export in its own numbers (arbitro-seat/3): its items, commands and head (verify_seat), its genesis."""
    problem = item_problem(loaded)
    genesis = check_genesis(loaded.game, genesis_of(loaded), seats=True) if problem is None else None
    if genesis is not None:
        problem = (0, genesis.detail, "genesis")
    if problem is not None:
        detail = problem[1] if problem[2] != "hash chain" else f"command #{problem[0]}: {problem[1]}"
        report.checks.append(Check(name=problem[2], status="failed", detail=detail))
        expected = "the genesis" if problem[2] == "genesis" else "an intact chain of items"
        report.divergence = Divergence(seq=problem[0], expected=expected, found=problem[1], rule="arbitro §L.1")
        return report
    report.checks += seat_checks(loaded)
    report.passed = all(c.status != "failed" for c in report.checks)
    return report


def _verify_seat_export(loaded: Loaded, report: Report) -> Report:
    """A seat's export: check what can be checked (links; the hashes of events served whole)."""
    prev, whole = GENESIS, 0
    for expected, served in enumerate(loaded.served, 1):
        if served.get("seq") != expected or served.get("prev") != prev:
            report.checks.append(Check(name="hash chain", status="failed",
                                       detail=f"event #{expected} does not follow the event before it"))
            report.divergence = Divergence(seq=expected, expected=prev, found=served.get("prev"), rule="arbitro §L.1")
            return report
        if "salt" in served:
            body = {"game": loaded.game.id, "seq": served["seq"], "cmd": served["cmd"], "cmd_hash": served["cmd_hash"],
                    "seat": served["seat"], "salt": served["salt"], "prev": served["prev"], "event": served["event"]}
            if sha256_hex(canonical(body)) != served["hash"]:
                report.checks.append(Check(name="hash chain", status="failed", detail=f"event #{expected} was edited"))
                report.divergence = Divergence(seq=expected, expected=served["hash"], found="a different content", rule="arbitro §L.1")
                return report
            whole += 1
        problem = check_genesis(loaded.game, served.get("event"), seats=True) if expected == 1 else None
        if problem is not None:  # served whole, its hash binds it; redacted, it is still what the seat was sent
            report.checks.append(problem)
            report.divergence = Divergence(seq=1, expected="the genesis", found=problem.detail, rule="arbitro §L.1")
            return report
        prev = served["hash"]
    n = len(loaded.served)
    cut = _head_problem(loaded.game, n, prev)
    if cut is not None:
        report.checks.append(cut)
        report.divergence = Divergence(seq=_seq_of(cut.detail), expected="an intact chain", found=cut.detail,
                                       rule="arbitro §L.1")
        return report
    misplaced = seat_command_problem(loaded)
    if misplaced is not None:
        report.checks.append(Check(name="command log", status="failed", detail=misplaced[1]))
        report.divergence = Divergence(seq=misplaced[0], expected="an event in the range of the command it names",
                                       found=misplaced[1], rule="arbitro §L.1")
        return report
    report.checks.append(Check(name="command log", status="passed", detail=(
        f"{len(loaded.commands)} commands, each claiming the events that name it; which command an event hidden from "
        f"{loaded.redacted_for} belongs to can be checked only with the full log")))
    report.checks.append(_annotations_check(loaded))
    dice, found = served_dice.check(loaded.served, loaded.game.seed_commitment)
    report.checks.append(Check(name="dice", status=dice, detail=found))
    report.checks += proofs_check(loaded.served)
    report.checks += [
        Check(name="hash chain", status="passed",
              detail=f"{n} events linked; {whole} served whole have matching hashes"),
        Check(name="hidden events", status="unchecked",
              detail=f"{n - whole} events are redacted for {loaded.redacted_for}: their content can be checked against "
                     "these hashes only with the full log"),
        Check(name="re-adjudication", status="unchecked",
              detail=f"{loaded.redacted_for}'s export lacks hidden facts; re-adjudication needs the full log"),
    ]
    report.passed = all(c.status != "failed" for c in report.checks)
    return report


def _annotations_check(loaded: Loaded) -> Check:
    problem = check_annotations(loaded.game.id, loaded.annotations, _hashes(loaded))
    chains = len({n.chain for n in loaded.annotations})
    return problem or Check(name="annotations", status="passed",
                            detail=f"{len(loaded.annotations)} notes in {chains} chains, each linked and bound to its event")


def check_annotations(game_id: str, notes: list[Annotation], event_hashes: Mapping[int, str]) -> Check | None:
    """The first note that is not where its chain says (edited, inserted, reordered, one before it removed,
    or moved to another event); None if every chain is whole. A chain's last notes can be dropped unseen,
    as a log's tail can (arbitro §L.1)."""
    last: dict[str, str] = {}
    for note in notes:
        where = f"note {note.id} (by {note.seat} on #{note.seq})"
        if not note.hash:
            return Check(name="annotations", status="failed", detail=f"{where} is not chained (no hash)")
        if note.game != game_id or note.digest() != note.hash:
            return Check(name="annotations", status="failed", detail=f"{where} does not match its hash: edited")
        if note.prev != last.get(note.chain, GENESIS):
            return Check(name="annotations", status="failed",
                         detail=f"{where} does not follow the note before it in the {note.chain} chain "
                                "(a note was removed, inserted or reordered)")
        if event_hashes.get(note.seq, note.at_hash) != note.at_hash:
            return Check(name="annotations", status="failed", detail=f"{where} names another event than #{note.seq}")
        last[note.chain] = note.hash
    return None
