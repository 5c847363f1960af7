"""A seat's signing key withdrawn inside its game (arbitro §L.6): the umpire's `withdraw_key`, a chained
`key_withdrawn` event naming the key and the commands it covered; the seat unsigned after it until it registers a
new key, required from then on; verify judging each signature under the key in force at its command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator import settling
from arbitro.adjudicator.errors import BadFile, BadInput, IllegalCommand, NotUmpire, UnknownSeat, Unsigned
from arbitro.adjudicator.exchange import read_lines
from arbitro.adjudicator.service import Arbitro
from arbitro.events.store import StaleSequence
from arbitro.events import core
from arbitro.adjudicator.verify_signatures import recorded_key_event, signatures_said
from arbitro.events.signing import command_statement, fingerprint, new_private_key, public_key, sign

from .conftest import Cli
from .test_historian import PILATI
from .test_seat_export_signatures import signed as signed_marengo  # noqa: F401 (fixture)
from .test_seat_seal import records

WITHDRAW = {"type": "withdraw_key", "seat": "red", "reason": "red's key file was lost"}


def red_to_play(app: Arbitro, game: str = "g") -> Any:
    """Blue plays (unsigned) until red has a command to send; red's first legal command."""
    while not app.legal(game, "red"):
        app.submit(game, "blue", app.legal(game, "blue")[0])
    return app.legal(game, "red")[0]


def signed(app: Arbitro, game: str, seat: str, private: bytes, key: str, command: Any = None) -> Any:
    """`seat`'s command (red's next legal one unless given), signed with `private` as the seat's own client signs."""
    command = red_to_play(app, game) if command is None else command
    head = app.game(game).head_cmd  # a seat's head is a command's (§V.6)
    statement = command_statement(game=game, seat=seat, expected_seq=head, key=key, command=command)
    return app.submit(game, seat, command, expected_seq=head, key=key, signature=sign(private, statement))


def seat_signatures(app: Arbitro, game: str) -> Any:
    (check,) = [c for c in app.verify(game).checks if c.name == "seat signatures"]
    return check


@pytest.fixture
def keyed(app: Arbitro) -> tuple[Arbitro, bytes]:
    """Game "g" (duel) where red registered a key and signed one command; returns red's private key."""
    app.create("duel", "standard", game_id="g")
    red = new_private_key()
    app.register_key("g", "red", public_key(red))
    signed(app, "g", "red", red, "red-1")
    return app, red


def test_the_umpire_withdraws_a_key_in_a_chained_event_naming_it_and_the_commands_it_covered(
        keyed: tuple[Arbitro, bytes]) -> None:
    app, red = keyed
    result = app.submit("g", "umpire", WITHDRAW)
    (event,) = [e["event"] for e in result.events if e["type"] == "key_withdrawn"]
    assert event == {"type": "key_withdrawn", "seat": "red", "public_key": public_key(red), "first_cmd": 2,
                     "last_cmd": 2, "reason": "red's key file was lost", "rule": "arbitro §L.6"}
    assert app.store.seat_keys("g") == {}, "the registration is dropped with the event, in the append's transaction"
    stored = app.store.command("g", result.cmd)
    assert stored is not None and stored.record.command == {**WITHDRAW, "key": public_key(red), "first_cmd": 2,
                                                            "last_cmd": 2}
    (item,) = app.log("g", "blue", result.cmd, result.cmd)  # served every seat: the key is public
    assert [e["event"] for e in item["events"]] == [event]


def test_after_the_withdrawal_the_seat_is_unsigned_until_it_registers_a_new_key_required_from_then_on(
        keyed: tuple[Arbitro, bytes]) -> None:
    app, red = keyed
    app.submit("g", "umpire", WITHDRAW)
    with pytest.raises(BadInput, match="no key registered"):  # the withdrawn key signs nothing any more
        signed(app, "g", "red", red, "red-2")
    app.submit("g", "red", red_to_play(app), key="red-unsigned")  # accepted unsigned
    new = new_private_key()
    app.register_key("g", "red", public_key(new))
    with pytest.raises(Unsigned, match="arbitro submit --sign"):
        app.submit("g", "red", red_to_play(app))
    with pytest.raises(Unsigned, match="does not verify"):
        signed(app, "g", "red", red, "red-3")
    signed(app, "g", "red", new, "red-4")
    check = seat_signatures(app, "g")
    assert app.verify("g").passed and check.status == "passed", check


def test_only_the_umpire_withdraws_a_key_and_only_one_in_force(keyed: tuple[Arbitro, bytes]) -> None:
    app, red = keyed
    for attempt in (lambda: signed(app, "g", "red", red, "red-own", WITHDRAW),  # its own, signed
                    lambda: app.submit("g", "blue", WITHDRAW)):  # another's
        with pytest.raises(NotUmpire, match="only the umpire withdraws") as refused:
            attempt()
        assert refused.value.rule == "arbitro §L.6"
    with pytest.raises(UnknownSeat, match="no seat 'green'"):
        app.submit("g", "umpire", {**WITHDRAW, "seat": "green"})
    with pytest.raises(IllegalCommand, match="blue has no signing key in force: nothing to withdraw"):
        app.submit("g", "umpire", {**WITHDRAW, "seat": "blue"})
    other = public_key(new_private_key())
    with pytest.raises(IllegalCommand, match=f"red's key in force is {fingerprint(public_key(red))}, not "):
        app.submit("g", "umpire", {**WITHDRAW, "key": other})
    with pytest.raises(BadInput, match="filled in by the server"):
        app.submit("g", "umpire", {**WITHDRAW, "first_cmd": 1, "last_cmd": 9})
    assert app.submit("g", "umpire", {**WITHDRAW, "key": fingerprint(public_key(red))}).events
    assert app.store.seat_keys("g") == {}


def test_verify_judges_each_signature_under_the_key_in_force_at_its_command(keyed: tuple[Arbitro, bytes]) -> None:
    """Old key, withdrawal, an unsigned command, new key: the full export verifies; a signature of the new key
    moved onto a command the old key covered, or an unsigned command after the new registration, fails."""
    app, red = keyed
    app.submit("g", "umpire", WITHDRAW)
    app.submit("g", "red", red_to_play(app), key="red-unsigned")
    new = new_private_key()
    app.register_key("g", "red", public_key(new))
    signed(app, "g", "red", new, "red-4")
    lines = [line.strip() for line in app.export("g", "umpire")]
    loaded = read_lines(lines)
    status, said = signatures_said(loaded, {})
    assert status == "passed", said
    old, new_key = fingerprint(public_key(red)), fingerprint(public_key(new))
    assert said == ("2 commands signed, each by its seat's registered key; seats that sign: red (after command 7); "
                    f"red's key {old} withdrawn at command 3 (it covered commands 2 to 2: red's key file was lost)")
    rows = [json.loads(line) for line in lines]

    def said_of(edit: Any) -> tuple[str, str]:
        edited = json.loads(json.dumps(rows))
        edit(edited)
        return signatures_said(read_lines([json.dumps(r) for r in edited]), {})

    def strip_first(edited: list[dict[str, Any]]) -> None:  # red's signature under the withdrawn key dropped
        del edited[3]["signature"]

    def registered_at_0(edited: list[dict[str, Any]]) -> None:  # the new key claimed in force before the withdrawal
        edited[0]["seat_keys"]["red"]["since_cmd"] = 0

    def old_key_again(edited: list[dict[str, Any]]) -> None:  # the withdrawn key swapped in for the new one
        edited[0]["seat_keys"]["red"]["public_key"] = public_key(red)

    assert said_of(strip_first) == ("failed", f"command 2 in red's name is not signed, though red's key {old} was in "
                                              "force (commands 2 to 2, withdrawn at command 3): it was made up or "
                                              "altered")
    # the header's registration must be the chain's (key_registered at command 7): no other period or key passes
    assert said_of(registered_at_0) == ("failed", f"the chain registers red's key {new_key} at command 7, which the "
                                                  f"file's seat_keys does not say (it carries {new_key} after command "
                                                  "0): the registration was dropped or altered (arbitro §L.6)")
    assert said_of(old_key_again) == ("failed", f"the chain registers red's key {new_key} at command 7, which the "
                                                f"file's seat_keys does not say (it carries {old} after command 7): "
                                                "the registration was dropped or altered (arbitro §L.6)")


def test_an_old_signed_command_replayed_after_the_withdrawal_is_refused(keyed: tuple[Arbitro, bytes]) -> None:
    """The withdrawn key's signature on a command sent again, as it was, after the withdrawal (no key in force: a
    signature is refused), and after a new registration (it does not verify under the new key)."""
    app, red = keyed
    command = red_to_play(app)
    head = app.game("g").head_cmd
    signature = sign(red, command_statement(game="g", seat="red", expected_seq=head, key="old", command=command))
    app.submit("g", "umpire", WITHDRAW)
    with pytest.raises(BadInput, match=r"red has no key registered in game g: register one first \(`arbitro "
                       r"register-key g --as red PUBLIC_KEY`, or on a server `arbitro remote register-key g "
                       r"PUBLIC_KEY`; arbitro §L\.6\)$"):  # what to run, local or remote, and the rule it enforces
        app.submit("g", "red", command, expected_seq=head, key="old", signature=signature)
    app.register_key("g", "red", public_key(new_private_key()))
    with pytest.raises(Unsigned, match="does not verify under red's key"):
        app.submit("g", "red", command, expected_seq=head, key="old", signature=signature)


def test_a_seats_copy_that_held_the_key_takes_a_later_export_only_with_the_withdrawal_explaining_it(
        signed_marengo: tuple[Cli, str], tmp_path: Path) -> None:
    """austria's copy held its key; the umpire withdraws it (a chained event, served to austria) and austria registers
    a new one: the later export is taken, and verifies under either key austria names. A host that drops the key
    without the withdrawal is refused (test_seat_export_against_the_host.py)."""
    umpire, key = signed_marengo
    seat = Cli(tmp_path / "austria.db")
    first = tmp_path / "a1.jsonl"
    umpire("export", "g", "--as", "austria", "-o", str(first))
    server = fingerprint(records(first.read_text())[0]["server_key"])
    seat("import", str(first), "--server-key", server)
    umpire("submit", "g", "--as", "umpire", json.dumps({**WITHDRAW, "seat": "austria"}))
    new = umpire("keygen", "-o", str(tmp_path / "austria2.key")).stdout.strip()
    umpire("register-key", "g", "--as", "austria", new)
    umpire("submit", "g", "--as", "austria", "--sign", str(tmp_path / "austria2.key"), json.dumps(PILATI))
    second = tmp_path / "a2.jsonl"
    umpire("export", "g", "--as", "austria", "-o", str(second))
    seat("import", str(second), "--server-key", server)
    for named in (key, new):
        report = umpire.json("verify", str(second), "--seat-key", f"austria={named}")
        (check,) = [c for c in report["checks"] if c["name"] == "seat signatures"]
        assert report["passed"] and check["status"] == "passed", check
        assert f"austria's key {fingerprint(key)} withdrawn at command 3" in check["detail"]


def test_the_cli_withdraws_a_key_for_the_umpire_only(tmp_path: Path) -> None:
    """`arbitro withdraw-key GAME --seat SEAT --reason ...`: the umpire's (the default --as); a seat's refused with the
    rule; --json is the submit's result, the text says what the seat does next."""
    umpire = Cli(tmp_path / "g.db")
    umpire("new", "duel", "standard", "--id", "g")
    key = umpire("keygen", "-o", str(tmp_path / "red.key")).stdout.strip()
    umpire("register-key", "g", "--as", "red", key)
    args = ("withdraw-key", "g", "--seat", "red", "--reason", "red's key file was lost")
    refused = umpire(*args, "--as", "blue", code=1).stderr
    assert refused.startswith("error (authority/umpire-only): only the umpire withdraws a seat's signing key, not blue")
    assert "[arbitro §L.6]" in refused
    text = umpire(*args).stdout
    assert text.startswith("accepted: command 2\n") and text.rstrip().endswith(
        f"red's key {key[:16]} is withdrawn (it covered commands 2 to 1); red is unsigned until it registers a new key "
        "(`register-key g --as red PUBLIC_KEY`)")
    assert umpire.json("withdraw-key", "g", "--seat", "red", "--reason", "again", code=1)["error"] == "rules/illegal"
    umpire("register-key", "g", "--as", "red", key)  # the same key again, registered anew
    answer = umpire.json(*args, "--key", key[:16])
    (event,) = [e["event"] for e in answer["events"] if e["type"] == "key_withdrawn"]
    assert (event["first_cmd"], event["last_cmd"]) == (4, 3)  # registered again at command 3


def test_a_withdrawal_forged_or_altered_in_a_file_is_caught(keyed: tuple[Arbitro, bytes]) -> None:
    """The file's withdrawal made to cover no command (red's signature then falls under no key in force), or a
    withdrawal forged in where there was none: the chain breaks, and the signatures fall under the wrong key."""
    app, red = keyed
    app.submit("g", "umpire", WITHDRAW)
    rows = [json.loads(line) for line in app.export("g", "umpire")]
    (withdrawal,) = [r for r in rows if r["record"] == "command" and r["body"]["command"]["type"] == "withdraw_key"]
    withdrawal["body"]["command"]["first_cmd"] = 3  # the key covered nothing, so red's command 2 was never its
    loaded = read_lines([json.dumps(r) for r in rows])
    assert signatures_said(loaded, {}) == ("failed", f"red's key {fingerprint(public_key(red))} withdrawn at command 3 "
                                                     "(from command 3) is not the key the chain registered for it: a "
                                                     "registration or a withdrawal was altered (arbitro §L.6)")
    checks = {c.name: c.status for c in app.verify_lines([json.dumps(r) for r in rows], "forged.jsonl").checks}
    assert checks["seat signatures"] == "failed" and "failed" in (checks["hash chain"], checks.get("command log")), checks


def test_an_amendment_does_not_replay_a_withdrawal_into_the_fork(keyed: tuple[Arbitro, bytes]) -> None:
    """A fork's seats register their keys afresh (arbitro §R.3): the parent's withdrawal is its own record, skipped
    by the amendment's replay (arbitro §D.5) as a fork or a dispute is, not refused as a command the fork cannot
    take (no key there to withdraw)."""
    app, red = keyed
    app.submit("g", "umpire", WITHDRAW)
    red_to_play(app)
    app.reveal("g", "for the amendment", seat="umpire", expose_hidden=True)
    first = app.store.command("g", 2)  # red's signed command, after its registration (command 1)
    assert first is not None
    amended = settling.amend(app, "g", "umpire", first.first_seq, first.record.command)
    assert amended.refused is None and amended.skipped == 1, amended


def test_a_withdrawal_edited_out_of_shape_is_a_failure_not_a_traceback(keyed: tuple[Arbitro, bytes]) -> None:
    """A file's withdraw_key without the key the server filled in, or a seat's export whose key_withdrawn event is
    malformed: verify fails it, or refuses the file, naming it; nothing raises a KeyError or TypeError."""
    app, _ = keyed
    app.submit("g", "umpire", WITHDRAW)
    rows = [json.loads(line) for line in app.export("g", "umpire")]
    (withdrawal,) = [r for r in rows if r["record"] == "command" and r["body"]["command"]["type"] == "withdraw_key"]
    del withdrawal["body"]["command"]["key"]
    assert signatures_said(read_lines([json.dumps(r) for r in rows]), {}) == (
        "failed", "command 3, the umpire's withdraw_key, lacks the key or the commands it covered, which the server "
                  "fills in: it was made up or altered")
    seat_rows = [json.loads(line) for line in app.export("g", "red")]
    (item,) = [r for r in seat_rows if r["record"] == "item" and r["cmd"] == 3]
    item["events"][0]["event"]["first_cmd"] = "one"
    with pytest.raises(BadFile, match="command 3's key_withdrawn event is malformed"):
        signatures_said(read_lines([json.dumps(r) for r in seat_rows]), {})


def test_an_unsigned_command_racing_its_seats_registration_is_stale_not_appended_after_it(
        app: Arbitro, monkeypatch: pytest.MonkeyPatch) -> None:
    """red's unsigned command is judged while red has no key; red's registration commits before its append. The
    registration is a command of its own and moves the head, so the append refuses the racer as stale (before, a
    registration moved no head and the append needed a check of its own): nothing recorded, the log verifying."""
    app.create("duel", "standard", game_id="g")
    command = red_to_play(app)
    real = app.store.seat_keys
    calls = iter([{}])  # the first read of the keys: the one admission makes before the registration commits

    def racing(game_id: str) -> dict[str, tuple[str, int]]:
        first = next(calls, None)
        if first is not None:
            app.register_key("g", "red", public_key(new_private_key()))
            return first
        return real(game_id)

    monkeypatch.setattr(app.store, "seat_keys", racing)
    head = app.game("g").head_cmd
    with pytest.raises(StaleSequence):
        app.submit("g", "red", command)
    assert app.game("g").head_cmd == head + 1  # the registration only
    assert app.verify("g").passed


def test_a_withdrawal_covers_every_command_before_it_since_the_registration(keyed: tuple[Arbitro, bytes]) -> None:
    """rev-s S5: a withdrawal's `last_cmd` is the command just before its own (the server fills the head in). A host
    editing its record to end the period early (the withdrawal still served, later) could put an unsigned command in
    the seat's name between the two, which verify took as made under no key: now the period must reach the
    withdrawal, in a full log's recorded command and in a seat's served event alike."""
    app, red = keyed
    signed(app, "g", "red", red, "red-2")  # red's second signed command, then the withdrawal
    withdrawn = app.submit("g", "umpire", WITHDRAW).cmd
    rows = [json.loads(line) for line in app.export("g", "umpire")]
    (second,) = [r for r in rows if r.get("record") == "command" and r.get("signature") and r["cmd"] > 2]
    assert signatures_said(read_lines([json.dumps(r) for r in rows]), {})[0] == "passed"
    for r in rows:
        if r.get("record") == "command" and r["cmd"] == withdrawn:
            r["body"]["command"]["last_cmd"] = 2
        if r is second:
            del r["signature"]  # "made up": red's command unsigned, before the withdrawal
    assert signatures_said(read_lines([json.dumps(r) for r in rows]), {}) == (
        "failed", f"red's key {fingerprint(public_key(red))} withdrawn at command {withdrawn} covered commands 2 to 2, "
                  "not every command up to its withdrawal (the server fills them in): a withdrawal was altered "
                  "(arbitro §L.6)")  # the period cut short, not the unsigned command after it (which it hides)


def test_the_umpire_registers_no_key(app: Arbitro) -> None:
    """rev-s S7: a key registered in the umpire's name (a stolen umpire token) would make every umpire command need
    its signature, the withdrawal included, and could never be withdrawn: the umpire registers none (arbitro §L.6: a
    playing seat signs its own commands), and its acts stay unsigned."""
    app.create("duel", "standard", game_id="g")
    with pytest.raises(IllegalCommand, match="the umpire registers no key") as refused:
        app.register_key("g", "umpire", public_key(new_private_key()))
    assert refused.value.rule == "arbitro §L.6" and app.store.seat_keys("g") == {}
    app.register_key("g", "red", public_key(new_private_key()))
    assert app.submit("g", "umpire", WITHDRAW).events  # the umpire's acts unsigned, as before


def test_verify_reads_a_recorded_withdrawal_with_the_engines_builder() -> None:
    """One builder of `key_withdrawn` (signing_keys.key_withdrawn), the engine's and verify's: a recorded key
    written in capitals is the event's lower-case key, as the engine emits it (verify's own copy kept the capitals);
    one without what the server fills in, or out of shape, is no withdrawal (False: verify fails it). A recorded
    register_key is read through the engine's parser too: a key not in hex is none."""
    key = public_key(new_private_key())
    recorded = {**WITHDRAW, "key": key.upper(), "first_cmd": 2, "last_cmd": 4}
    event = recorded_key_event(recorded, "umpire")
    assert isinstance(event, core.KeyWithdrawn) and (event.public_key, event.first_cmd, event.last_cmd) == (key, 2, 4)
    assert recorded_key_event({**WITHDRAW, "key": key}, "umpire") is False
    assert recorded_key_event({**recorded, "first_cmd": "2"}, "umpire") is False
    assert recorded_key_event(recorded, "red") is None  # a seat's withdraw_key made nothing: the engine refuses it
    registration = {"type": "register_key", "public_key": key.upper()}
    assert recorded_key_event(registration, "red") == core.KeyRegistered(seat="red", public_key=key,
                                                                        rule="arbitro §L.6")
    assert recorded_key_event({**registration, "public_key": "z" * 64}, "red") is False
    assert recorded_key_event(registration, "umpire") is None
