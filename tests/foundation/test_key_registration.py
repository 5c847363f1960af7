"""A seat's key registration as a chained command (arbitro §L.6): the seat's `register_key {public_key}`, judged by the
engine, its event `key_registered` served to every seat, the registration written by the append that records it
(`since_cmd` the registering command). verify takes each key's period from the chain, so a file stripped of its
registration, or whose header moves it, fails for everyone, not only for the seat that names its key. A game
registered before registrations were chained (its chain has none) keeps verifying under the old rule, said so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.errors import BadFile, IllegalCommand, Unsigned
from arbitro.adjudicator.exchange import read_lines
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.verify_signatures import LEGACY, key_periods, signatures_said
from arbitro.events import core
from arbitro.events.signing import fingerprint, new_private_key, public_key
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import StaleSequence

from .test_key_withdrawal import WITHDRAW, red_to_play, signed


@pytest.fixture
def keyed(app: Arbitro) -> tuple[Arbitro, bytes]:
    """Game "g" (duel): red registers a key (command 1) and signs two commands."""
    app.create("duel", "standard", game_id="g")
    red = new_private_key()
    assert app.register_key("g", "red", public_key(red))["since_cmd"] == 1
    signed(app, "g", "red", red, "red-1")
    signed(app, "g", "red", red, "red-2")
    return app, red


def rows_of(app: Arbitro, seat: str = "umpire") -> list[dict[str, Any]]:
    return [json.loads(line) for line in app.export("g", seat)]


def said(rows: list[dict[str, Any]], asserted: dict[str, str] | None = None) -> tuple[str, str]:
    return signatures_said(read_lines([json.dumps(r) for r in rows]), asserted or {})


def test_a_registration_is_the_seats_command_and_its_event_is_served_to_every_seat(
        keyed: tuple[Arbitro, bytes]) -> None:
    app, red = keyed
    stored = app.store.command("g", 1)
    assert stored is not None and (stored.record.seat, stored.record.command) == (
        "red", {"type": "register_key", "public_key": public_key(red)})
    event = {"type": "key_registered", "seat": "red", "public_key": public_key(red), "rule": "arbitro §L.6"}
    for seat in ("red", "blue"):  # a public key is public
        (item,) = app.log("g", seat, 1, 1)
        assert [e["event"] for e in item["events"]] == [event], seat
    assert app.store.seat_keys("g") == {"red": (public_key(red), 1)}
    assert app.verify("g").passed


def test_a_second_registration_is_refused_with_its_rule_signed_or_not(keyed: tuple[Arbitro, bytes]) -> None:
    app, red = keyed
    head = app.game("g").head_cmd
    with pytest.raises(IllegalCommand, match=rf"red already registered the key {fingerprint(public_key(red))}\.\.\. "
                                             r"\(after command 1\)") as refused:
        app.register_key("g", "red", public_key(new_private_key()))
    assert refused.value.rule == "arbitro §L.6"
    with pytest.raises(IllegalCommand, match="one key per game at a time"):  # signed with the key in force: the same
        signed(app, "g", "red", red, "again", {"type": "register_key", "public_key": public_key(new_private_key())})
    assert app.game("g").head_cmd == head and app.store.seat_keys("g") == {"red": (public_key(red), 1)}
    with pytest.raises(IllegalCommand, match="the umpire registers no key"):  # in the engine: re-adjudication too
        app.submit("g", "umpire", {"type": "register_key", "public_key": public_key(new_private_key())})


def test_a_full_export_stripped_of_its_registration_fails_for_everyone(keyed: tuple[Arbitro, bytes]) -> None:
    """The host drops red's registration and signatures from the file (or its database) and enters a command in red's
    name unsigned: before, the file said red registered nothing and verified, unless red named its key; now the
    chain's key_registered says red signs from command 2, for any verifier."""
    app, red = keyed
    rows = rows_of(app)
    rows[0].pop("seat_keys")
    for r in rows:
        r.pop("signature", None)
    assert said(rows) == ("failed", f"the chain registers red's key {fingerprint(public_key(red))} at command 1, which "
                                    "the file's seat_keys does not say (it carries none): the registration was dropped "
                                    "or altered (arbitro §L.6)")
    with app.store.conn:  # type: ignore[attr-defined]  # the host's own database, then exported by its own server
        app.store.conn.execute("DELETE FROM seat_keys")  # type: ignore[attr-defined]
        app.store.conn.execute("DELETE FROM command_signatures")  # type: ignore[attr-defined]
    app.submit("g", "red", red_to_play(app))  # in red's name, unsigned: the store holds no key now
    report = app.verify("g")
    (check,) = [c for c in report.checks if c.name == "seat signatures"]
    assert not report.passed and check.status == "failed" and "the chain registers red's key" in check.detail


def test_a_registration_moved_later_in_the_header_fails(keyed: tuple[Arbitro, bytes]) -> None:
    """The header says red registered after command 2, so that red's signed command 2 could be replaced unsigned:
    the chain says command 1."""
    app, red = keyed
    rows = rows_of(app)
    rows[0]["seat_keys"]["red"]["since_cmd"] = 2
    (second,) = [r for r in rows if r.get("record") == "command" and r["cmd"] == 2]
    del second["signature"]
    assert said(rows) == ("failed", f"the chain registers red's key {fingerprint(public_key(red))} at command 1, which "
                                    f"the file's seat_keys does not say (it carries {fingerprint(public_key(red))} after "
                                    "command 2): the registration was dropped or altered (arbitro §L.6)")


def test_two_registrations_in_force_at_once_in_a_chain_fail() -> None:
    """A chain forged to register a second key while the first is in force (the service refuses it; the store too)."""
    first, second = public_key(new_private_key()), public_key(new_private_key())
    registered = [(1, core.KeyRegistered(seat="red", public_key=first, rule="arbitro §L.6")),
                  (4, core.KeyRegistered(seat="red", public_key=second, rule="arbitro §L.6"))]
    _periods, problem = key_periods({"red": (second, 4)}, registered, [])
    assert problem == (f"red registered the key {fingerprint(second)} at command 4 while its key {fingerprint(first)} "
                       "was in force (from command 2): a seat holds one key at a time, so the chain was altered "
                       "(arbitro §L.6)")


def test_a_registration_after_a_withdrawal_opens_a_new_period_and_the_seats_export_says_both(
        keyed: tuple[Arbitro, bytes]) -> None:
    app, red = keyed
    withdrawn = app.submit("g", "umpire", WITHDRAW).cmd
    new = new_private_key()
    assert app.register_key("g", "red", public_key(new))["since_cmd"] == withdrawn + 1
    signed(app, "g", "red", new, "red-3")
    assert app.verify("g").passed
    seat_rows = rows_of(app, "red")
    status, detail = said(seat_rows, {"red": public_key(new)})
    assert status == "passed" and f"withdrawn at command {withdrawn}" in detail, detail
    # the seat's export holds both registrations as served events: one dropped from the header fails
    seat_rows[0]["seat_keys"] = {}
    assert said(seat_rows, {"red": public_key(new)}) == (
        "failed", f"the chain registers red's key {fingerprint(public_key(new))} at command {withdrawn + 1}, which the "
                  "file's seat_keys does not say (it carries none): the registration was dropped or altered "
                  "(arbitro §L.6)")


def test_a_registration_inside_a_fork_is_the_forks_own(keyed: tuple[Arbitro, bytes]) -> None:
    """A fork's seats register afresh (arbitro §R.3): the parent's registration is not the child's."""
    app, _red = keyed
    child = app.fork("g", app.game("g").head_seq, new_id="g2")
    assert app.store.seat_keys(child) == {}
    app.submit(child, "red", red_to_play(app, child))  # unsigned in the child
    own = new_private_key()
    since = app.register_key(child, "red", public_key(own))["since_cmd"]
    assert app.store.seat_keys(child) == {"red": (public_key(own), since)}
    with pytest.raises(Unsigned):
        app.submit(child, "red", red_to_play(app, child))
    signed(app, child, "red", own, "child-1")
    for game in ("g", child):
        assert app.verify(game).passed, game


def test_a_game_registered_before_registrations_were_chained_keeps_verifying_said_so(app: Arbitro) -> None:
    """Its registration is the store's row only (as the old `register_seat_key` wrote it): the header's word, as
    before, reported as such; a later withdrawal and a chained registration carry on from it. A header-only
    registration after a chained one was made up."""
    app.create("duel", "standard", game_id="g")
    red = new_private_key()
    with app.store.conn:  # type: ignore[attr-defined]
        app.store.conn.execute("INSERT INTO seat_keys VALUES (?, ?, ?, ?)",  # type: ignore[attr-defined]
                               ("g", "red", public_key(red), 0))
    signed(app, "g", "red", red, "red-1")
    (check,) = [c for c in app.verify("g").checks if c.name == "seat signatures"]
    assert (check.status, check.detail) == ("passed", "1 commands signed, each by its seat's registered key; seats that "
                                                      f"sign: red (after command 0); {LEGACY}")
    withdrawn = app.submit("g", "umpire", WITHDRAW)
    (event,) = [e["event"] for e in withdrawn.events if e["type"] == "key_withdrawn"]
    assert event["first_cmd"] == 1
    new = new_private_key()
    app.register_key("g", "red", public_key(new))
    signed(app, "g", "red", new, "red-2")
    assert app.verify("g").passed
    rows = rows_of(app)
    rows[0]["seat_keys"]["blue"] = {"public_key": public_key(new_private_key()), "since_cmd": 5}
    status, detail = said(rows)
    assert status == "failed" and detail.startswith("the file's seat_keys says blue registered the key "), detail


def test_a_copy_under_another_id_of_a_game_with_chained_keys_is_refused(keyed: tuple[Arbitro, bytes]) -> None:
    """Its seats' signatures name the game: a copy under another id would keep the chain's registration without them."""
    app, _ = keyed
    lines = list(app.export("g", "umpire"))
    with pytest.raises(BadFile, match="its chain registers or withdraws a seat's signing key"):
        app.import_lines(lines, seat="umpire", as_id="copy")


def test_a_seats_export_whose_served_registration_is_malformed_is_refused_naming_it(
        keyed: tuple[Arbitro, bytes]) -> None:
    app, _ = keyed
    for broken in (None, {"type": "key_registered", "seat": "red"}, "a string"):
        seat_rows = rows_of(app, "blue")
        (item,) = [r for r in seat_rows if r["record"] == "item" and r["cmd"] == 1]
        item["events"][0]["event"] = broken
        with pytest.raises(BadFile, match="command 1's key_registered event is malformed"):
            said(seat_rows)


KEY = {name: public_key(new_private_key()) for name in ("red", "blue", "legacy")}


def registered(at: int, seat: str) -> tuple[int, core.KeyRegistered]:
    return at, core.KeyRegistered(seat=seat, public_key=KEY[seat], rule="arbitro §L.6")


def withdrawn(at: int, seat: str, key: str, first: int) -> tuple[int, core.KeyWithdrawn]:
    return at, core.KeyWithdrawn(seat=seat, public_key=key, first_cmd=first, last_cmd=at - 1, reason="lost",
                                 rule="arbitro §L.6")


def test_what_predates_the_first_chained_registration_is_legacy_and_nothing_after_it() -> None:
    """A registration or a withdrawal the chain does not anchor is the old rule's only before the chain's first
    key_registered (here red's, command 3): blue's key withdrawn from command 3 (registered after command 2) is legacy,
    from command 4 it was made up; a header key after command 3 too; a legacy withdrawal while a chained key is in
    force for the same seat fails."""
    red = registered(3, "red")
    assert key_periods({"red": (KEY["red"], 3)}, [red], [withdrawn(6, "blue", KEY["legacy"], 3)])[1] is None
    _p, problem = key_periods({"red": (KEY["red"], 3)}, [red], [withdrawn(6, "blue", KEY["legacy"], 4)])
    assert problem is not None and problem.startswith(f"blue's key {fingerprint(KEY['legacy'])} withdrawn at command 6 "
                                                      "(from command 4) is not the key the chain registered for it")
    _p, problem = key_periods({"red": (KEY["red"], 3), "blue": (KEY["blue"], 3)}, [red], [])
    assert problem == (f"the file's seat_keys says blue registered the key {fingerprint(KEY['blue'])} after command 3, "
                       "which its chain does not register: the registration was made up (arbitro §L.6)")
    assert key_periods({"red": (KEY["red"], 3), "blue": (KEY["blue"], 2)}, [red], [])[1] is None  # legacy, before it
    _p, problem = key_periods({}, [red], [withdrawn(6, "red", KEY["legacy"], 1)])
    assert problem is not None and "is not the key the chain registered for it" in problem


def test_a_legacy_registration_covers_the_commands_after_its_since_cmd_only(app: Arbitro) -> None:
    """red's own command before its legacy registration (its since_cmd) stays unsigned, and verifies."""
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", red_to_play(app))  # unsigned, the last command before the registration
    since, red = app.game("g").head_cmd, new_private_key()
    with app.store.conn:  # type: ignore[attr-defined]
        app.store.conn.execute("INSERT INTO seat_keys VALUES (?, ?, ?, ?)",  # type: ignore[attr-defined]
                               ("g", "red", public_key(red), since))
    signed(app, "g", "red", red, "red-2")
    assert app.verify("g").passed


def test_a_recorded_register_key_naming_no_key_fails(keyed: tuple[Arbitro, bytes]) -> None:
    app, _ = keyed
    for edited in ("abc", None, 64):
        rows = rows_of(app)
        (registering,) = [r for r in rows if r.get("record") == "command" and r["cmd"] == 1]
        registering["body"]["command"]["public_key"] = edited
        assert said(rows) == ("failed", "command 1, a register_key, names no public key (64 hex digits): it was made "
                                        "up or altered"), edited


def test_an_unsigned_command_whose_seat_registers_while_it_is_judged_is_stale(
        app: Arbitro, db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The race the append's own check (SeatSigns) closed before registrations were chained: red's unsigned command
    reads red's registration (none) and, before it is appended, red's register_key lands through another connection.
    The command was judged at the head read before the registration, which moved it: stale, never appended after it
    (the service reads the game's head before the seat's keys; read the other way round, this command would pass)."""
    app.create("duel", "standard", game_id="g")
    command = red_to_play(app)
    red, other, read = new_private_key(), Arbitro(SQLiteStore(db)), app.store.seat_keys

    def registered_meanwhile(game_id: str) -> dict[str, tuple[str, int]]:
        held = read(game_id)
        if not held:
            other.register_key(game_id, "red", public_key(red))
        return held

    monkeypatch.setattr(app.store, "seat_keys", registered_meanwhile)
    with pytest.raises(StaleSequence):
        app.submit("g", "red", command)
    monkeypatch.undo()
    registering = app.game("g").head_cmd
    assert app.store.seat_keys("g") == {"red": (public_key(red), registering)}
    assert app.store.command("g", registering + 1) is None
    with pytest.raises(Unsigned):
        app.submit("g", "red", command)
    other.store.close()


def test_an_undo_to_before_a_registration_takes_back_play_not_the_registration(keyed: tuple[Arbitro, bytes]) -> None:
    """engine-rules §L.6: an undo takes back play, not a registration. The umpire takes back to the creation (event
    before red's register_key, command 1): red's key stays registered from command 1 in the store and in the chain,
    so red's next command unsigned is refused, signed it is taken, and the game verifies."""
    app, red = keyed
    registering = app.store.command("g", 1)
    assert registering is not None
    app.submit("g", "umpire", {"type": "undo", "to": registering.first_seq - 1, "reason": "taken back to the start"})
    assert app.store.seat_keys("g") == {"red": (public_key(red), 1)}
    with pytest.raises(Unsigned):
        app.submit("g", "red", red_to_play(app))
    signed(app, "g", "red", red, "after-undo")
    (check,) = [c for c in app.verify("g").checks if c.name == "seat signatures"]
    assert check.status == "passed" and check.detail.startswith("3 commands signed"), check
