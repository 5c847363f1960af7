"""A seat's own copy of a game it plays by e-mail (issue 14 point 5; README "Play by e-mail").

The umpire's database holds the game; a remote seat is mailed its own export (`arbitro export GAME --as SEAT`)
and imports it into its own database. The export lacks what the seat may not see, so the copy cannot be
re-adjudicated; it is kept as it was sent, whole, and read as the seat was served it, in the seat's own numbers
(engine-rules §V.6; an `arbitro-seat/3` export): its log (one item per command, linked by the chain's hashes), its
notes, its view after each command (`seat_view` records, each the patch from the view before: `view --at`, `replay
--step` and `report` read the copy's history as they read the game's; a copy held in the older `arbitro/2` format,
numbered as the log, is read by command too and carried on by a `/3` export), and the
status and legal commands the umpire's server served it at the head (the export's last record, `seat_state`). From it the seat prepares its next command offline
(`arbitro submit --offline`), mails it back, and imports the umpire's next export over its copy: accepted only
when it continues the chain the seat already holds and keeps every note the copy holds, so the umpire cannot
rewrite what the seat was sent.

`SeatCopy` answers the read calls of `service.Arbitro` that a seat may make (game, games' kind, view, legal, log,
notes, status, awaiting, replay, verify), so the CLI reads a copy as it reads a game.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from arbitro.adjudicator import exchange
from arbitro.adjudicator import verify as verification
from arbitro.adjudicator.errors import BadFile, BadInput, check_position
from arbitro.adjudicator.exchange import Loaded
from arbitro.adjudicator.results import Awaiting, Replayed, Status
from arbitro.adjudicator.ruleset import naming
from arbitro.adjudicator.seat_numbers import Command, CommandNumbers, events_of, noted, per_command, without_digests
from arbitro.adjudicator.verify_signatures import served_keys
from arbitro.events import signing
from arbitro.events.codec import canonical, sha256_hex, to_builtins
from arbitro.events.records import GENESIS, GameRecord
from arbitro.events.store import Annotation, Store
from arbitro.projections.game import GameState
from arbitro.projections.base import UMPIRE
from arbitro.projections.patch import PatchError, apply_patch, patch_between

KEEP_EVERY = 64  # a copy keeps its view after every so many events, so any view is at most this many patches away


def at_command(shown: dict[str, Any], cmd: int) -> dict[str, Any]:
    """What a seat was shown ({"view", "awaiting"}) numbered by command `cmd`, as the umpire's server serves it:
    `history` and `SeatCopy.shown_at` must agree byte for byte (`_continues` compares them)."""
    return {**shown, "view": {**shown["view"], "engine": {**shown["view"]["engine"], "seq": cmd}}}


def history(numbers: CommandNumbers, serving: Iterable[tuple[dict[str, Any], GameState[Any]]],
            shown: Callable[[GameState[Any]], dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A seat's export's history in its own numbers (engine-rules §V.6) from each event as served and the state after
    it, in order: one item per command (seat_numbers.per_command), and what the seat was `shown` after each command
    ({"view", "awaiting"}, the view's `engine.seq` the command's number, as `view --at` serves it) as the patch from
    the one before (`seat_view` records, one view's worth of bytes and its changes), each with its link in the chain
    of views the server seals (signing.view_link: the link before, the command, its item's link, the patch). A patch
    is kept as JSON text, so each view comes back with its keys in the order it was served in. A command recorded
    before §L.8 with no event is shown what the command before it left."""
    served: list[dict[str, Any]] = []
    points: list[tuple[int, dict[str, Any]]] = []
    before: dict[str, Any] = {}
    waiting = iter(numbers.commands)
    command = next(waiting, None)
    for event, state in serving:
        served.append(event)
        if numbers.last_event(event["cmd"]) != event["seq"]:
            continue
        now = shown(state)
        while command is not None and (command.cmd <= event["cmd"] or not command.first_seq):
            at = at_command(now, command.cmd)
            points.append((command.cmd, patch_between(before, at)))
            before, command = at, next(waiting, None)
    items = per_command(numbers, served)
    link, views = GENESIS, []
    for (cmd, patch), item in zip(points, items, strict=True):
        link = signing.view_link(link, cmd, item["hash"], patch)
        views.append({"cmd": cmd, "patch": msgspec.json.encode(patch).decode(), "digest": link})
    return items, views


def seal(store: Store, game_id: str, seat: str, items: list[dict[str, Any]], views: list[dict[str, Any]],
         seat_state: dict[str, Any], records: str) -> dict[str, Any] | None:
    """The server's seal on a seat's export (signing.CommandsSeal): the digest of its `records` (every one before the
    seal), its head command and that item's link, its last view link and its seat state, signed with the key that
    signs receipts. None from a database, opened read-only, that has no key yet: a copy refuses that export
    (check_views)."""
    key = store.signing_key()
    if key is None:
        return None
    return to_builtins(signing.make_seat_seal(
        key, game=game_id, seat=seat, seq=items[-1]["cmd"], head=items[-1]["hash"], views=views[-1]["digest"],
        state=sha256_hex(canonical(seat_state)), records=records, kind=signing.CommandsSeal))


def store_copy(store: Store, loaded: Loaded, text: str, server_key: str | None = None,
               seat_keys: dict[str, str] | None = None) -> str:
    """Keep a seat's export as that seat's copy of the game, after checking it (its chain, as far as a seat's
    export can be checked; its seal, by the `server_key` the seat was told if given; its signatures, under the
    `seat_keys` the seat gave as its own) and, when the database already holds a copy, that it continues that copy's
    chain and keeps the seats' keys it holds."""
    seat, game_id = loaded.redacted_for, loaded.game.id
    assert seat is not None
    failed = verification.verify(loaded, seat_keys=seat_keys).failures()
    if failed:
        raise BadFile(f"{loaded.source}: {failed[0]}; nothing imported")
    if loaded.seat_state is None:
        raise BadFile(f"{loaded.source}: {_no_seat_state(loaded)}: ask the umpire to export it again (`arbitro "
                      f"export {game_id} --as {seat}`); nothing imported")
    sent = SeatCopy(loaded)
    sent.check_views()
    if server_key is not None and not _is_key(loaded.server_key, server_key):
        raise BadFile(f"{loaded.source}: {_not_the_key_given(loaded, server_key)}; nothing imported. Keep the file "
                      "for the dispute")
    held = store.seat_copy(game_id)
    if held is not None:
        _continues(SeatCopy.read(game_id, *held), sent)
    store.put_seat_copy(game_id, seat, sent.head, text)
    return game_id


def delete_copy(store: Store, game_id: str, seat: str) -> dict[str, Any]:
    """Remove a seat's copy of a game from the seat's own database (`arbitro delete`), as its seat or the database's
    operator (the umpire's --as default); the game itself, in the umpire's database, is not touched."""
    copy = SeatCopy.find(store, game_id)
    assert copy is not None
    copy._check(game_id, seat)
    store.delete_seat_copy(game_id)
    return {"game": game_id, "deleted": True, "events": copy.head, "forks_kept": [], "copy_of": copy.seat}


def _continues(held_copy: "SeatCopy", sent_copy: "SeatCopy") -> None:
    """Refuse an export that is not the held copy's chain carried on (another seat's, an older one, a rewrite)."""
    old, new = held_copy.loaded, sent_copy.loaded
    game = old.game.id
    if new.redacted_for != old.redacted_for:
        raise BadInput(f"this database holds {old.redacted_for}'s copy of {game}; {new.redacted_for}'s export goes "
                       "in its own database (--db)")
    # Compared in the seat's numbers, by command, so a copy numbered as the log (arbitro/2) is carried on by an export
    # in the seat's own (arbitro-seat/3): each command's link (the hash of its last event), and what it was shown.
    held, sent = [i["hash"] for i in held_copy.items()], [i["hash"] for i in sent_copy.items()]
    if len(sent) < len(held):
        raise BadFile(f"{new.source} ends at command #{len(sent) - 1}, before the copy you hold (#{len(held) - 1}): "
                      "an older export; nothing imported")
    differs = next((i for i, (a, b) in enumerate(zip(held, sent)) if a != b), None)
    if differs is not None:
        raise BadFile(f"{new.source} does not continue the copy you hold: command #{differs} differs from the one you "
                      "were sent before (the umpire's log was changed, or this is another game); nothing imported. "
                      "Keep both files for the dispute")
    # Views compared as views, not as patch text: one served in another key order is the same view.
    shown = next((cmd for cmd in range(len(held)) if old.seat_views
                  and canonical(held_copy.shown_at(cmd)) != canonical(sent_copy.shown_at(cmd))), None)
    if shown is not None:
        raise BadFile(f"{new.source} does not continue the copy you hold: your view after command #{shown} differs "
                      "from the one you were sent before; nothing imported. Keep both files for the dispute")
    _keeps_notes(held_copy, sent_copy)
    _keeps_signing(old, new)
    if old.server_key is not None and new.server_key != old.server_key:
        raise BadFile(f"{new.source} is sealed by server key {_named(new.server_key)}, not by the key "
                      f"{_named(old.server_key)} that sealed the copy you hold: re-signed by someone else, or the "
                      "umpire moved the game to another server (then ask the umpire for that server's key, and once it "
                      f"matches, `arbitro delete {game} --as {old.redacted_for}` and import this file); nothing "
                      "imported. Keep both files for the dispute")


def _keeps_notes(held_copy: "SeatCopy", sent_copy: "SeatCopy") -> None:
    """Refuse an export that drops or changes a note the held copy has (by chain and number, as the seat reads it:
    its command, writer, text; its digests are withheld from a seat, engine-rules §V.6): a note's chain may only
    grow. Verify alone cannot tell, since a chain's end may be cut unseen (arbitro §L.1)."""
    source = sent_copy.loaded.source
    sent = {(n.chain, n.id): canonical(n) for n in sent_copy.read_notes()}
    for note in held_copy.read_notes():
        where = f"note {note.id} of the {note.chain} chain (by {note.seat} on command #{note.seq})"
        if (note.chain, note.id) not in sent:
            raise BadFile(f"{source} does not continue the copy you hold: it lacks {where}, which you were sent "
                          "before (dropped, or the chain's end cut); nothing imported. Keep both files for the dispute")
        if sent[(note.chain, note.id)] != canonical(note):
            raise BadFile(f"{source} does not continue the copy you hold: {where} differs from the one you were "
                          "sent before (edited); nothing imported. Keep both files for the dispute")


def _keeps_signing(old: Loaded, new: Loaded) -> None:
    """Refuse an export that drops or changes a seat's key the held copy has, unless the umpire's withdrawal of that
    key, served to the seat in the new export, explains it (arbitro §L.6): a host who drops a seat's key from its
    database (and the seat's signatures) could enter commands in that seat's name unsigned and have its server seal
    them. With the key kept, or its withdrawal chained, verify refuses a signature dropped or changed. Since a
    registration is chained and served to every seat, verify already refuses an export whose header drops or swaps a
    key its chain registers: this rule is needed only for a key registered before registrations were chained."""
    explained = {(e.seat, e.public_key, e.first_cmd - 1) for _at, e in served_keys(new)[1]}
    for seat, (key, since) in sorted(old.seat_keys.items()):
        sent = new.seat_keys.get(seat)
        if sent != (key, since) and (seat, key, since) not in explained:
            now = "carries none" if sent is None else f"carries key {_named(sent[0])} after command {sent[1]}"
            raise BadFile(f"{new.source} does not continue the copy you hold: your copy says {seat} registered key "
                          f"{_named(key)} after command {since}; this file {now} (the seat's key dropped or swapped, "
                          "so commands in its name need no signature of its own); nothing imported. Keep both files "
                          "for the dispute")


def verify_export(loaded: Loaded, progress: Callable[[int, int], None] | None = None, head: str | None = None,
                  receipts: Sequence[signing.AnyReceipt] = (), seat_keys: dict[str, str] | None = None,
                  server_key: str | None = None, *, jobs: int = 1) -> verification.Report:
    """An export verified (verification.verify, re-adjudicated by up to `jobs` processes) and, a seat's, its views and
    seal too (with_views): what `arbitro verify` says of a file or of a seat's copy."""
    return with_views(verification.verify(loaded, progress, head, receipts, seat_keys, jobs=jobs), loaded, receipts,
                      server_key)


def with_views(report: verification.Report, loaded: Loaded, receipts: Iterable[signing.AnyReceipt] = (),
               server_key: str | None = None) -> verification.Report:
    """`report` (a seat's export verified as far as its chain goes) with its views checked: each linked to its event
    and the one before, the whole file sealed (SeatCopy.check_views) by the server's key, as anchored by the seat's
    `receipts` or the `server_key` (a key or its fingerprint) the seat had from the umpire: what `arbitro verify`
    says of a seat's export or copy. A seal under a key nothing anchors is unchecked, never passed: a forger's own
    key verifies its own seal."""
    if loaded.redacted_for is None:
        return report
    if loaded.seat_state is None and not (loaded.seat_views or loaded.seat_seal):
        check = verification.Check(name="seat views", status="unchecked", detail=(
            "this export has no views, seat_state or seal (made by an arbitro before seat exports were sealed, or "
            "all three taken out): nothing binds its redacted events, commands and notes to the server"))
    elif loaded.seat_state is None:
        check = verification.Check(name="seat views", status="failed", detail=_no_seat_state(loaded))
    else:
        try:
            SeatCopy(loaded).check_views()
            check = _anchored(loaded, receipts, server_key)
        except BadFile as e:
            check = verification.Check(name="seat views", status="failed", detail=as_found(e))
    report.checks.append(check)
    report.passed = report.passed and check.status != "failed"
    return report


def as_found(refusal: BadFile) -> str:
    """A refusal of a seat's export as a check reports it (verify, check): 'nothing imported' is import's to say."""
    return str(refusal).replace("; nothing imported", "")


def _anchored(loaded: Loaded, receipts: Iterable[signing.AnyReceipt], server_key: str | None) -> verification.Check:
    """The 'seat views' check of a well-sealed export: passed only when the sealing key is the one that signed the
    seat's receipts or the one it was told (`server_key`), failed when it is another, unchecked when nothing says."""
    key, seat = _named(loaded.server_key), loaded.redacted_for
    receipt_keys = {r.server_key for r in receipts}
    other = next(iter(sorted(receipt_keys - {loaded.server_key})), None)
    if other is not None:
        return verification.Check(name="seat views", status="failed", detail=(
            f"the views are sealed by key {key}, but your receipts are signed by server key {_named(other)}: "
            "not sealed by the server that took your commands"))
    if server_key is not None and not _is_key(loaded.server_key, server_key):
        return verification.Check(name="seat views", status="failed", detail=_not_the_key_given(loaded, server_key))
    if receipt_keys or server_key is not None:
        anchor = "the key of your receipts" if receipt_keys else "the server key you gave"
        return verification.Check(name="seat views", status="passed",
                                  detail=f"each record {seat} was sent is sealed by server key {key}, {anchor}")
    return verification.Check(name="seat views", status="unchecked", detail=(
        f"each record {seat} was sent is sealed by key {key}; nothing here anchors that key to the umpire's server "
        "(anyone can seal a file with a key of their own): compare it with the key the umpire's receipts name, or "
        "verify with --receipt or --server-key"))


def _no_seat_state(loaded: Loaded) -> str:
    """Why a seat's export without its seat_state record is refused: taken out, when the views or the seal it was
    sealed with are still there; else made before exports carried one (or all three taken out)."""
    if loaded.seat_views or loaded.seat_seal:
        return (f"{loaded.redacted_for}'s export holds views or a seal but no seat_state record: taken out after the "
                "server sealed it (it is sealed with them)")
    return (f"{loaded.redacted_for}'s export has no seat_state record, nor views or a seal (made by an arbitro before "
            "seat exports were sealed, or all three taken out)")


def _not_the_key_given(loaded: Loaded, server_key: str) -> str:
    return (f"the file is sealed by key {_named(loaded.server_key)}, not by the server key {server_key} you gave: not "
            "sealed by the umpire's server")


def checked_server_key(given: str | None, name: str = "--server-key") -> str | None:
    """A server key as a seat gives it (`--server-key`, `?server_key=`): the public key or its fingerprint
    (signing.fingerprint), in lowercase hex; anything else is refused, never taken as "no key"."""
    if given is not None and not (len(given) in (16, 64) and all(c in "0123456789abcdef" for c in given)):
        raise BadInput(f"{name} {given!r}: give the server's public key (64 lowercase hex digits) or its "
                       "fingerprint (its first 16, e.g. 9c41e0d2a7b35f18)")
    return given


def checked_seat_keys(items: Iterable[str], name: str = "--seat-key") -> dict[str, str]:
    """Seats' own public keys as a seat gives them (`--seat-key SEAT=KEY`, `?seat_key=SEAT=KEY`), each checked."""
    keys = {}
    for item in items:
        seat, sep, key = item.partition("=")
        if not sep or not seat or not key:
            raise BadInput(f"{name} {item!r}: write SEAT=PUBLIC_KEY, e.g. austria=3b6a27bc...")
        try:
            keys[seat] = signing.check_public_key(key)
        except signing.BadKey as e:
            raise BadInput(f"{name} {seat}: {e}") from None
    return keys


def _is_key(public: str | None, given: str) -> bool:
    """Whether `given` names the key `public`: the key itself, or its fingerprint (signing.fingerprint)."""
    return public is not None and given in (public, signing.fingerprint(public))


def _named(key: str | None) -> str:
    return signing.fingerprint(key) if key else "(none)"


def _engine_seq(shown: Any) -> Any:
    """The event a view says it follows (its engine's seq), or None where it has none."""
    try:
        return shown["view"]["engine"]["seq"]
    except (KeyError, TypeError):
        return None


def _seal_problem(loaded: Loaded, seat: str, last_link: str) -> str:
    """What is wrong with a seat export's seal, or "" when it seals exactly what the file holds."""
    if isinstance(loaded.seat_seal, dict) and loaded.seat_seal.get("format") == "arbitro-seat-copy/1":
        return ("made by an arbitro that sealed the views only, not the events, commands and notes (format "
                "arbitro-seat-copy/1): ask the umpire to export it again")
    kind = signing.CommandsSeal if loaded.items is not None else signing.SeatSeal
    try:
        sealed = msgspec.convert(loaded.seat_seal, kind)
    except msgspec.ValidationError as e:
        return f"malformed ({e})"
    if not sealed.signed_ok():
        return (f"its signature does not verify under the key it names ({_named(sealed.server_key)}): the seal was "
                "edited or forged")
    if sealed.server_key != loaded.server_key:
        return (f"signed by key {_named(sealed.server_key)}, not by the server key the export names "
                f"({_named(loaded.server_key)})")
    points = loaded.items if loaded.items is not None else loaded.served
    head = points[-1] if points else {"seq": 0, "hash": ""}
    mismatches = [
        (sealed.game != loaded.game.id, f"it seals game {sealed.game}, not {loaded.game.id}"),
        (sealed.seat != seat, f"it seals {sealed.seat}'s export, not {seat}'s"),
        ((sealed.seq, sealed.head) != (head["seq"], head["hash"]),
         f"it seals the chain up to #{sealed.seq}, not this file's head #{head['seq']}"),
        (sealed.views != last_link, "it seals other views than these: a view was edited and the links after it "
                                    "computed again, or the views come from another export"),
        (sealed.state != sha256_hex(canonical(loaded.seat_state)),
         "it seals another seat_state (status and legal commands at the head) than this one: edited"),
        (sealed.records != loaded.records_digest,
         "it seals other records than this file's: an event as served, a command, a note or the game record was "
         "edited, added or taken out after the server sealed it"),
    ]
    return next((said for wrong, said in mismatches if wrong), "")


class SeatCopy:
    """One seat's copy, read as that seat was served it."""

    def __init__(self, loaded: Loaded) -> None:
        assert loaded.redacted_for is not None and loaded.seat_state is not None
        self.loaded = loaded
        self.seat: str = loaded.redacted_for
        self.state: dict[str, Any] = loaded.seat_state
        self._kept: dict[int, bytes] = {}  # point -> the view after it, encoded: every KEEP_EVERY-th, and the last read
        # Its points: an arbitro/2 export's events (#1 on), or an arbitro-seat/3 export's commands (#0 on: its own
        # numbers, engine-rules §V.6), each with the view after it.
        self.first = 0 if loaded.items is not None else 1
        self.unit = "command" if loaded.items is not None else "event"

    @classmethod
    def read(cls, game_id: str, seat: str, text: str) -> "SeatCopy":
        return cls(exchange.read_lines(text.splitlines(), f"{seat}'s copy of {game_id}"))

    @classmethod
    def find(cls, store: Store, game_id: str) -> "SeatCopy | None":
        held = store.seat_copy(game_id)
        return cls.read(game_id, *held) if held is not None else None

    def listing(self) -> dict[str, Any]:
        """The copy as `arbitro games` lists it."""
        g = self.loaded.game
        return {"game": g.id, "ruleset": g.ruleset, "scenario": g.scenario, "kind": f"{self.seat}'s copy",
                "head": self.numbers.head, "parent": g.parent, "parent_seq": g.parent_seq}  # the seat's: a command

    @property
    def head(self) -> int:
        """The copy's last point: its last event (arbitro/2), its last command (arbitro-seat/3)."""
        return self.loaded.game.head_cmd if self.loaded.items is not None else self.loaded.game.head_seq

    def _check(self, game_id: str, seat: str) -> None:
        """A copy serves its own seat only (the default umpire's reading is the copy's seat's: all it holds)."""
        if game_id != self.loaded.game.id:
            raise BadInput(f"this is {self.seat}'s copy of {self.loaded.game.id}, not of {game_id}")
        if seat not in (self.seat, UMPIRE):
            raise BadInput(f"this database holds {self.seat}'s copy of {game_id}: it holds only what {self.seat} was "
                           f"served, so it shows {self.seat}'s view alone (--as {self.seat})")

    def check_views(self) -> None:
        """Refuse an export whose views are not one for each event it holds, each patch (a list of operations)
        applying to the one before, each view at the event it follows (its engine's seq), each linked to the one
        before and to its event (signing.view_link), the whole sealed by the server's key (check_seal)."""
        seqs = [v["seq"] for v in self.loaded.seat_views]
        if seqs != list(range(self.first, self.head + 1)):
            raise BadFile(f"{self.loaded.source}: {self.seat}'s export holds no view after each of its {self.unit}s (made "
                          f"by an older arbitro, or cut): ask the umpire to export it again (`arbitro export "
                          f"{self.loaded.game.id} --as {self.seat}`); nothing imported")
        for seq in seqs:
            where = f"{self.loaded.source}: {self.seat}'s view after #{seq}"
            if not isinstance(self.loaded.seat_views[seq - self.first]["patch"], list):
                raise BadFile(f"{where}: its patch is not a list of operations; nothing imported")
            try:
                at = _engine_seq(self._view_at(seq))
            except PatchError as e:
                raise BadFile(f"{where}: {e}; nothing imported") from None
            if at != seq:
                raise BadFile(f"{where} says the game was at #{at}: not the view after that {self.unit} (edited?); "
                              "nothing imported")
        self.check_seal()

    def check_seal(self) -> None:
        """Refuse views or a seat state the server did not serve this seat: each view's link must follow from its
        patch, its event's hash and the link before, and the server's seal (signed with the key the file names, the
        one that signs its receipts) must name this game, this seat, the chain's head, the last link and the seat
        state. An edited view names its record; one edited with every link after it recomputed, or views or a seal
        taken from another game, seat or export, fail the seal."""
        loaded, source = self.loaded, self.loaded.source
        link = GENESIS
        for record, event in zip(loaded.seat_views, loaded.items if loaded.items is not None else loaded.served):
            link = signing.view_link(link, record["seq"], event["hash"], record["patch"])
            if record["digest"] != link:
                unsealed = " (an export made before views were sealed)" if record["digest"] is None else ""
                raise BadFile(f"{source}: {self.seat}'s view after #{record['seq']}: its digest does not follow "
                              f"from its patch, its {self.unit} and the view before it{unsealed}: edited, or from "
                              "another game or export; nothing imported")
        if loaded.seat_seal is None:
            raise BadFile(f"{source}: {self.seat}'s export has no seat_seal record, so nothing binds what it shows "
                          f"to the server (made by an older arbitro, or from a database without a signing key): ask "
                          f"the umpire to export it again (`arbitro export {loaded.game.id} --as {self.seat}`); "
                          "nothing imported")
        problem = _seal_problem(loaded, self.seat, link)
        if problem:
            raise BadFile(f"{source}: its seat_seal record (last line): {problem}; nothing imported. Keep the file "
                          "for the dispute")

    def shown_after(self, at: int) -> dict[str, Any]:
        """What the seat was shown after point `at` of its copy ({"view", "awaiting"}: an arbitro/2 copy's event, an
        arbitro-seat/3 copy's command), as it was served."""
        return self._view_at(at)

    def shown_at(self, cmd: int) -> dict[str, Any]:
        """What the seat was shown after command `cmd` ({"view", "awaiting"}), its view's `engine.seq` the command, as
        the umpire's server serves it (whichever format the copy was sent in)."""
        return at_command(self._view_at(self.numbers.last_event(cmd)), cmd)

    def items(self) -> list[dict[str, Any]]:
        """One item per command, as the umpire's server serves the seat (seat_numbers.per_command)."""
        if self.loaded.items is not None:
            return self.loaded.items
        return per_command(self.numbers, self.loaded.served)

    def read_notes(self) -> list[Annotation]:
        """The copy's notes as the seat reads them: numbered by command, digests withheld (seat_numbers.noted)."""
        if self.loaded.items is not None:
            return [without_digests(n) for n in self.loaded.annotations]
        return noted(self.numbers, self.loaded.annotations)

    def _view_at(self, at: int) -> dict[str, Any]:
        """What the seat was shown after event `at` ({"view", "awaiting"}): the nearest point kept at or before it,
        carried on by the patches."""
        if not self.loaded.seat_views:
            raise BadInput(f"{self.seat}'s copy of {self.loaded.game.id} was imported from an export made before "
                           "arbitro kept a seat's view after each event: import the umpire's next export over it")
        check_position(at, self.first, self.head, f"{self.seat}'s copy of {self.loaded.game.id}", self.unit)
        start = max((k for k in self._kept if k <= at), default=self.first - 1)
        view: dict[str, Any] = msgspec.json.decode(self._kept[start]) if start in self._kept else {}
        for seq in range(start + 1, at + 1):
            # A fresh copy of the patch: apply_patch puts its values into the view, where later patches change them.
            patch = self.loaded.seat_views[seq - self.first]["patch"]
            view = apply_patch(view, msgspec.json.decode(msgspec.json.encode(patch)))
            if seq % KEEP_EVERY == 0:
                self._kept[seq] = msgspec.json.encode(view)
        self._kept = {k: v for k, v in self._kept.items() if k % KEEP_EVERY == 0}
        self._kept[at] = msgspec.json.encode(view)  # the last read: stepping on from it is one patch
        return view

    # --- the read calls of service.Arbitro, as the copy's seat -------------------------------------------------
    def game(self, game_id: str) -> GameRecord:
        self._check(game_id, self.seat)
        return self.loaded.game

    @functools.cached_property
    def numbers(self) -> CommandNumbers:
        """The copy's commands and their points' numbers (seat_numbers.py): what the seat reads of its copy is
        numbered by command, as the umpire's server serves it (engine-rules §V.6). An arbitro/2 copy's point after a
        command is its last event; an arbitro-seat/3 copy's is the command itself."""
        own = self.loaded.items is not None
        return CommandNumbers(self.loaded.game.id, (
            Command(cmd, seat, digest, cmd if own else first, cmd if own else last)
            for cmd, ((_, digest, first, last), seat) in enumerate(zip(self.loaded.commands, self.loaded.command_seats))))

    def view(self, game_id: str, seat: str, at: int | None = None) -> dict[str, Any]:
        """The view after command `at` (default: the head), numbered by the command, as the umpire serves the seat."""
        self._check(game_id, seat)
        cmd = self.numbers.head if at is None else at
        return {**self.shown_at(cmd)["view"], "game": game_id}

    def legal(self, game_id: str, seat: str, piece: str | None = None) -> list[dict[str, Any]]:
        self._check(game_id, seat)
        return naming(self.state["legal"], piece)

    def played_data(self, game_id: str, at: int | None = None) -> dict[str, str]:
        """{}: a seat's copy holds none of the game's own data files (they are the umpire's, views.served_origin), so
        its pictures are drawn on the shipped data, as the server draws a seat's (render.render)."""
        return {}

    def status(self, game_id: str, seat: str = UMPIRE) -> Status:
        self._check(game_id, seat)
        return msgspec.convert(self.state["status"], Status)

    def awaiting_at(self, game_id: str, at: int | None = None, seat: str = UMPIRE) -> Awaiting:
        """Who was awaited after command `at` (default: the head)."""
        self._check(game_id, self.seat)
        at_event = self.head if at is None else self.numbers.last_event(at)  # a point: an event, or (/3) a command
        return msgspec.convert(self._view_at(at_event)["awaiting"], Awaiting)

    def log(self, game_id: str, seat: str = UMPIRE, first: int | None = None,
            last: int | None = None) -> list[dict[str, Any]]:
        """One item per command from `first` to `last`, as the umpire's server serves the seat (seat_numbers)."""
        self._check(game_id, seat)
        first = 0 if first is None else first
        if self.loaded.items is not None:
            end = self.numbers.head if last is None else last
            return [msgspec.json.decode(canonical(i)) for i in self.loaded.items if first <= i["cmd"] <= end]
        lo, hi = self.numbers.events(first, last)
        return per_command(self.numbers, (e for e in self.loaded.served if lo <= e["seq"] <= hi), first, last)

    def log_by_event(self, game_id: str, seat: str) -> list[dict[str, Any]]:
        """Every event of the export one by one (Arbitro.log_by_event), `seq` its place: as in the log in an arbitro/2
        copy; in an arbitro-seat/3 copy, which holds no log number, its place among the events the copy holds
        (seat_numbers.events_of, each with its command's `cmd`): the reader that takes them (cli_dice.explain_roll)
        tells a seat its commands' numbers alone."""
        self._check(game_id, seat)
        if self.loaded.items is not None:
            return [{**e, "seq": place} for place, e in enumerate(events_of(self.loaded.items), 1)]
        return [dict(e) for e in self.loaded.served]

    def notes(self, game_id: str, seat: str = UMPIRE, first: int | None = None,
              last: int | None = None) -> list[Annotation]:
        """The notes on commands `first` to `last`, as the umpire serves the seat (seat_numbers.noted)."""
        self._check(game_id, seat)
        end = self.numbers.head if last is None else last
        return [n for n in self.read_notes() if (first or 0) <= n.seq <= end]

    def replay(self, game_id: str, to: int | None = None, seat: str = UMPIRE) -> Replayed:
        view = self.view(game_id, seat, to)
        at = view["engine"]["seq"]
        return Replayed(game=game_id, seq=at, view=view, notes=self.notes(game_id, seat, None, at))

    def verify(self, game_id: str, progress: Callable[[int, int], None] | None = None, head: str | None = None,
               receipts: Sequence[signing.AnyReceipt] = (), seat_keys: dict[str, str] | None = None,
               server_key: str | None = None) -> Any:
        """The copy verified as the export it was imported from (Arbitro.verify_lines): its chain and its seal, the
        seal anchored by the seat's `receipts` or the `server_key` it was told (unchecked without either)."""
        self._check(game_id, self.seat)
        return verify_export(self.loaded, progress, head, receipts, seat_keys, server_key)
