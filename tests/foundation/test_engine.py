"""The foundation through the library: adjudication is pure, dice are auditable, views do not leak,
replay and snapshots agree, verification re-adjudicates engine commands and detects what changed."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Annotated, Any, Union

import msgspec
import pytest
from pydantic import Field

from arbitro.adjudicator import registry, settling
from tests.foundation import duel
from arbitro.adjudicator.engine import Adjudicator, GameContext
from arbitro.adjudicator.errors import IllegalCommand, NotYourDecision, Rejected
from arbitro.adjudicator.randomness import SeededSupply
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.codec import canonical
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import StaleSequence
from arbitro.projections.fold import Replayer
from arbitro.projections.game import state_bytes, state_hash

from .conftest import BLUE_CARD, RED_CARD, db_execute, position_file

Json = dict[str, Any]


def served_events(result: Json, kind: str) -> list[Json]:
    return [e["event"] for e in result.events if e["type"] == kind]


def attack_and_guard(app: Arbitro, game: str, attacker: str = "red", aim: str = "high", stance: str = "low") -> Json:
    defender = "blue" if attacker == "red" else "red"
    app.submit(game, attacker, {"type": "attack", "aim": aim})
    return app.submit(game, defender, {"type": "guard", "stance": stance})


@pytest.fixture
def positioned(app: Arbitro, tmp_path: Path) -> str:
    """A duel from a position: red holds RED_CARD, blue BLUE_CARD."""
    position = json.loads(position_file(tmp_path).read_text())
    return app.create("duel", position=position, game_id="p")


# --- adjudication is pure -------------------------------------------------------------------------
def test_decide_does_not_mutate_the_state_and_repeats_exactly(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    game = app.game("g")
    adj = Adjudicator(registry.get("duel"))
    replayer = Replayer(adj.fold, app.store, "g")
    state = replayer.state_at()
    before = state_bytes(state)
    context = GameContext(seats=game.seats, kind=game.kind, options=(), seed=game.seed)
    one = adj.decide(state, "blue", {"type": "guard", "stance": "low"}, context, replayer, SeededSupply(game.seed))
    two = adj.decide(state, "blue", {"type": "guard", "stance": "low"}, context, replayer, SeededSupply(game.seed))
    assert state_bytes(state) == before
    assert canonical(one.events) == canonical(two.events)
    assert [type(e).__name__ for e in one.events] == ["GuardChosen", "DiceRolled", "DamageDealt", "TurnEnded"]
    assert app.game("g").head_seq == 6  # deciding appends nothing


def test_a_consumed_state_is_worked_on_in_place_and_gives_the_same_command(app: Arbitro) -> None:
    """`consume` (issue 15): a caller that gives its state up (re-adjudication, the service's private head copy)
    spares the engine a copy of it; the command gives the same events and the same state as on a copy. The
    engine's own commands read the state while they emit, so they still work on a copy of it."""
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    game = app.game("g")
    adj = Adjudicator(registry.get("duel"))
    replayer = Replayer(adj.fold, app.store, "g")
    context = GameContext(seats=game.seats, kind=game.kind, options=(), seed=game.seed)
    guard = {"type": "guard", "stance": "low"}
    copied = adj.decide(replayer.state_at(), "blue", guard, context, replayer, SeededSupply(game.seed))
    given = replayer.state_at()
    consumed = adj.decide(given, "blue", guard, context, replayer, SeededSupply(game.seed), consume=True)
    assert consumed.state is given
    assert canonical(consumed.events) == canonical(copied.events)
    assert state_bytes(consumed.state) == state_bytes(copied.state)
    given = replayer.state_at()
    before = state_bytes(given)
    engine_command = adj.decide(given, "umpire", {"type": "reveal_seed", "reason": "audit", "expose_hidden": True}, context, replayer,
                                SeededSupply(game.seed), consume=True)
    assert engine_command.state is not given and state_bytes(given) == before


def test_a_rejection_appends_nothing(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "play_card"})
    before = list(app.store.events("g"))
    with pytest.raises(IllegalCommand) as rejected:
        app.submit("g", "red", {"type": "play_card"})
    assert rejected.value.rule == "duel §3"
    assert list(app.store.events("g")) == before


# --- dice anyone can audit -------------------------------------------------------------------------
def test_every_roll_is_recomputable_from_the_revealed_seed(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "add_entropy", "entropy": "red's coin flips"})
    attack_and_guard(app, "g")
    app.submit("g", "blue", {"type": "add_entropy", "entropy": "blue too"})
    attack_and_guard(app, "g", attacker="blue")
    app.reveal("g", "audit", seat="umpire", expose_hidden=True)
    log = app.log("g")
    created = log[0]["event"]
    seed = next(e["event"]["seed"] for e in log if e["type"] == "seed_revealed")
    assert rnd.commitment(seed) == created["seed_commitment"]
    mix, rolls, draws = "", 0, 0
    for served in log:
        event = served["event"]
        if served["type"] == "entropy_added":
            mix = rnd.mix_entropy(mix, event["seat"], event["entropy"])
            assert event["mix"] == mix
        elif served["type"] == "dice_rolled":
            assert list(rnd.roll(seed, mix, event["index"], event["count"], event["sides"])) == list(event["values"])
            rolls += 1
        elif served["type"] == "items_drawn":
            assert list(rnd.draw(seed, mix, event["index"], event["population"], 1)) == list(event["drawn"])
            draws += 1
    assert (rolls, draws) == (2, 2)
    indexes = [e["event"]["index"] for e in log if e["type"] in ("dice_rolled", "items_drawn")]
    assert indexes == sorted(set(indexes))  # each random index is consumed once


def test_entropy_changes_the_rolls_that_follow() -> None:
    seed = "ab" * 32
    plain = [rnd.roll(seed, "", i, 2, 6) for i in range(20)]
    mixed = rnd.mix_entropy("", "red", "x")
    assert [rnd.roll(seed, mixed, i, 2, 6) for i in range(20)] != plain
    assert [rnd.roll(seed, "", i, 2, 6) for i in range(20)] == plain  # a pure function
    assert all(1 <= v <= 6 for roll in plain for v in roll)
    drawn = rnd.draw(seed, "", 0, ["a", "b", "c", "d"], 4)
    assert sorted(drawn) == ["a", "b", "c", "d"]


def test_after_a_mid_game_reveal_no_roll_is_made_from_the_public_seed(app: Arbitro) -> None:
    """Anyone holding the revealed seed could compute the next roll: the command that needs it is refused
    under arbitro §R.3, pointing to a fork, and nothing of it is recorded."""
    app.create("duel", "standard", game_id="g")
    attack_and_guard(app, "g")
    app.reveal("g", "dispute over the first guard", seat="umpire", expose_hidden=True)
    app.submit("g", "blue", {"type": "attack", "aim": "high"})  # rolls nothing: accepted
    head_before = app.game("g").head_seq
    with pytest.raises(IllegalCommand, match=r"seed was revealed, so further rolls would be predictable: "
                                             r"continue in a fork, which draws a new seed") as refused:
        app.submit("g", "red", {"type": "guard", "stance": "low"})
    # the fork it names goes on from the game's last event, which exists (not an event of the refused command)
    assert f": arbitro fork g --at {head_before} [arbitro §R.3]" in str(refused.value)
    assert refused.value.rule == "arbitro §R.3"
    assert app.game("g").head_seq == head_before
    assert not [e for e in app.log("g") if e["type"] == "dice_rolled" and e["seq"] > head_before - 1]
    app.fork("g", head_before, by="umpire")  # the fork the refusal names can be made


def test_after_a_reveal_no_draw_is_made_from_the_public_seed_either(app: Arbitro) -> None:
    """A hidden draw from a public seed would show every seat the other's hidden card: the umpire reveals the
    seed while the entropy round is open, so the opening's card draw would come from it; the reveal that
    closes the round (and would make the draw) is refused under arbitro §R.3, and no card is drawn."""
    app.create("duel", "standard", seat_entropy=True, game_id="g")
    for seat in ("red", "blue"):
        app.submit("g", seat, {"type": "commit_entropy", "commitment": rnd.entropy_commitment(seat)})
    app.submit("g", "red", {"type": "reveal_entropy", "entropy": "red"})
    app.reveal("g", "dispute before the opening", seat="umpire", expose_hidden=True)
    head_before = app.game("g").head_seq
    with pytest.raises(IllegalCommand, match="seed was revealed, so further rolls would be predictable") as refused:
        app.submit("g", "blue", {"type": "reveal_entropy", "entropy": "blue"})
    assert refused.value.rule == "arbitro §R.3"
    assert app.game("g").head_seq == head_before
    assert "items_drawn" not in [e["type"] for e in app.log("g")]


def test_the_umpire_cannot_add_entropy(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    with pytest.raises(IllegalCommand) as rejected:
        app.submit("g", "umpire", {"type": "add_entropy", "entropy": "steer"})
    assert rejected.value.rule == "arbitro §R.2"


# --- views never leak ---------------------------------------------------------------------------
def everything_served_to(app: Arbitro, game: str, seat: str) -> str:
    parts: list[Any] = [app.view(game, seat), app.log(game, seat), app.legal(game, seat), app.status(game),
                        list(app.export(game, seat)), [msgspec.to_builtins(n) for n in app.annotations(game, seat)]]
    return json.dumps(parts, default=str)


def test_nothing_served_to_blue_holds_reds_hidden_card(app: Arbitro, positioned: str) -> None:
    ruleset = registry.get("duel")
    assert ruleset.secrets(app.state_at("p").rules, "blue") == {RED_CARD}
    served = [everything_served_to(app, "p", "blue")]
    served.append(json.dumps(msgspec.to_builtins(attack_and_guard(app, "p"))))
    served.append(json.dumps(msgspec.to_builtins(app.submit("p", "blue", {"type": "play_card"}))))  # blue's own card: public now
    for illegal in ({"type": "play_card"}, {"type": "guard", "stance": "high"}):  # blue's rejections
        with pytest.raises(Rejected) as rejected:
            app.submit("p", "blue", illegal)
        served.append(json.dumps(rejected.value.to_dict()))
    served.append(json.dumps(msgspec.to_builtins(attack_and_guard(app, "p", attacker="blue"))))
    served.append(everything_served_to(app, "p", "blue"))
    assert RED_CARD not in "".join(served)
    assert BLUE_CARD in served[-1]  # the search does find a card that is there to see
    # Once red plays it, the card is public: blue sees it.
    app.submit("p", "red", {"type": "play_card"})
    assert app.view("p", "blue")["state"]["cards_played"]["red"] == RED_CARD
    assert ruleset.secrets(app.state_at("p").rules, "blue") == set()


def test_a_seats_items_link_as_the_log_does_at_each_commands_end_and_carry_no_salt(app: Arbitro) -> None:
    """A seat is served one item per command (engine-rules §V.6): its `prev` is the hash the command's first event
    follows, its `hash` the command's last event's, so the items chain as the log does and the last is the head. No
    event in it carries a salt: with a salt, the content and the item's link a seat could test how many events lay
    before one it was shown (each event's hash covers its number), so it is served none (checkable once the full log
    is published)."""
    app.create("duel", "standard", game_id="g")
    attack_and_guard(app, "g")
    full = app.log("g")
    items = app.log("g", "blue")
    assert [i["cmd"] for i in items] == list(range(app.game("g").head_cmd + 1))
    for item in items:
        own = [e for e in full if e["cmd"] == item["cmd"]]
        assert (item["prev"], item["hash"], item["cmd_hash"]) == (own[0]["prev"], own[-1]["hash"], own[0]["cmd_hash"])
        assert all(set(e) == {"type", "event"} for e in item["events"])
    assert [i["prev"] for i in items[1:]] == [i["hash"] for i in items[:-1]] and items[-1]["hash"] == app.game("g").head_hash
    assert '"salt"' not in json.dumps(items)  # the key, not the genesis's salt_key_commitment


# --- replay and snapshots -------------------------------------------------------------------------
def test_replay_with_snapshots_equals_a_full_fold_at_every_event(app: Arbitro) -> None:
    app.create("duel", "standard", ["short"], game_id="g")
    for attacker in ("red", "blue", "red"):
        attack_and_guard(app, "g", attacker=attacker)
    replayer = app.replayer("g")
    head = app.game("g").head_seq
    for seq in range(1, head + 1):
        assert state_bytes(replayer.state_at(seq)) == state_bytes(replayer.state_at(seq, use_snapshots=False)), seq
    checkpoints = [e for e in app.log("g") if e["type"] == "checkpoint"]
    assert checkpoints, "a round's end records the state hash"
    for served in checkpoints:  # the hash of the state just before the checkpoint event
        assert state_hash(replayer.state_at(served["seq"] - 1, use_snapshots=False)) == served["event"]["state_hash"]
    snapshot = app.store.snapshot_at_or_before("g", head)
    assert snapshot is not None and snapshot.seq == checkpoints[-1]["seq"] - 1


# --- concurrency -------------------------------------------------------------------------------
def test_two_seats_racing_on_the_same_head_cannot_both_win(db: Path) -> None:
    Arbitro(SQLiteStore(db)).create("duel", "standard", game_id="g")
    apps = [Arbitro(SQLiteStore(db)) for _ in range(2)]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def attack(app: Arbitro, aim: str) -> None:
        barrier.wait()
        try:
            app.submit("g", "red", {"type": "attack", "aim": aim}, expected_seq=0)
            outcomes.append("won")
        except (StaleSequence, NotYourDecision) as e:
            outcomes.append(type(e).__name__)

    threads = [threading.Thread(target=attack, args=(a, aim)) for a, aim in zip(apps, ("high", "low"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(outcomes) == ["StaleSequence", "won"]
    assert apps[0].game("g").head_seq == 6


def test_a_retried_key_from_another_connection_is_not_applied_twice(db: Path) -> None:
    first, second = Arbitro(SQLiteStore(db)), Arbitro(SQLiteStore(db))
    first.create("duel", "standard", game_id="g")
    one = first.submit("g", "red", {"type": "attack", "aim": "high"}, key="retry-me")
    two = second.submit("g", "red", {"type": "attack", "aim": "high"}, key="retry-me")
    assert two.duplicate is True and two.cmd == one.cmd
    assert second.game("g").head_seq == 6


# --- undo rules ---------------------------------------------------------------------------------
def test_undo_points_that_are_refused(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    attack_and_guard(app, "g")  # blue's guard: #7..#10
    with pytest.raises(IllegalCommand) as middle:
        app.undo("g", "umpire", 8, "a point inside the guard")
    assert middle.value.rule == "arbitro §U.3" and "middle of command" in str(middle.value)
    with pytest.raises(IllegalCommand) as creation:
        app.undo("g", "umpire", 2, "start over")
    assert creation.value.rule == "arbitro §U.3"
    with pytest.raises(IllegalCommand, match="#0 is no event") as nothing:
        app.undo("g", "umpire", 0, "before it all")
    assert nothing.value.rule == "arbitro §U.3"
    # a seat names a command, always a command's end (engine-rules §V.6): one not before the last is refused in
    # command numbers, the log's event count untold
    with pytest.raises(IllegalCommand, match=r"#8 is not before the last command \(#2\): nothing to take back") as seat:
        app.undo("g", "blue", 8)
    assert seat.value.rule == "arbitro §U.3"
    with pytest.raises(IllegalCommand, match=r"#2 is not before the last command \(#2\)"):
        app.undo("g", "blue", 2)


def test_a_revealed_card_makes_undo_need_consent(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "play_card"})
    result = app.undo("g", "red", 0)  # the creation: a seat's numbers are commands' (engine-rules §V.6)
    (request,) = served_events(result, "undo_requested")
    assert list(request["consent_from"]) == ["blue"]
    app.submit("g", "blue", {"type": "consent", "accept": True})
    assert app.view("g", "umpire")["state"]["played"]["red"] is False


def test_undo_when_another_seat_acted_needs_consent(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "end_turn"})
    app.submit("g", "blue", {"type": "end_turn"})
    result = app.undo("g", "red", 0)
    assert served_events(result, "undo_requested")[0]["rule"] == "arbitro §U.2"
    with pytest.raises(IllegalCommand) as own:
        app.submit("g", "red", {"type": "consent", "accept": True})  # one cannot consent to oneself
    assert own.value.rule == "arbitro §U.2"


def test_an_amendment_plays_a_seats_undo_again_at_the_same_command(app: Arbitro) -> None:
    """Blue took back to red's attack (its command #1); the umpire amends blue's guard (#2), forking after the attack:
    the fork numbers the attack #0, and blue's undo is played there to #0, the same point (arbitro §D.5, engine-rules
    §V.6: a seat's point is a command, mapped to the fork's numbers as the umpire's event is)."""
    app.create("duel", "standard", game_id="g")
    attack_and_guard(app, "g")
    app.undo("g", "blue", 1)
    app.submit("g", "red", {"type": "consent", "accept": True})
    app.reveal("g", "for the amendment", seat="umpire", expose_hidden=True)
    guard = app.store.command("g", 2)
    assert guard is not None
    amended = settling.amend(app, "g", "umpire", guard.first_seq, {"type": "guard", "stance": "high"})
    assert amended.refused is None or amended.refused.cmd > 4, amended.refused
    (undo,) = [c.record.command for c in app.store.commands(amended.fork) if c.record.command["type"] == "undo"]
    assert undo["to"] == 0
    (undone,) = [e["event"] for e in app.log(amended.fork, "umpire") if e["type"] == "undone"]
    assert undone["to_seq"] == app.numbers(app.game(amended.fork)).last_event(0)


# --- verification -------------------------------------------------------------------------------
def test_verify_re_adjudicates_undo_consent_rulings_and_the_end(app: Arbitro) -> None:
    app.create("duel", "standard", ["short"], game_id="g")
    app.submit("g", "red", {"type": "add_entropy", "entropy": "red"})
    attack_and_guard(app, "g")
    app.undo("g", "blue", 2)  # red's attack, command #2 (event #7)
    app.submit("g", "red", {"type": "consent", "accept": False})
    app.undo("g", "blue", 2)
    app.submit("g", "red", {"type": "consent", "accept": True})
    app.submit("g", "blue", {"type": "guard", "stance": "high"})
    app.submit("g", "umpire", {"type": "ruling", "reason": "house rule", "interpretation": {"miss_bonus": "none"}})
    app.submit("g", "umpire", {"type": "ruling", "reason": "spilt coffee",
                               "patch": [{"op": "replace", "path": "/hp/red", "value": 1}]})
    app.undo("g", "umpire", app.game("g").head_seq - 1, "the coffee was not spilt")
    while app.status("g").outcome is None:
        seat = app.status("g").awaiting.seats[0]
        app.submit("g", seat, {"type": "end_turn"})
    report = app.verify("g")
    statuses = {c.name: c.status for c in report.checks}
    assert report.passed, report
    assert statuses["seed commitment"] == "passed" and statuses["re-adjudication"] == "passed"
    assert app.view("g", "umpire")["state"]["hp"]["red"] == 10  # the coffee ruling was undone


def test_an_imported_game_with_undos_replays_to_the_same_state(app: Arbitro, tmp_path: Path) -> None:
    app.create("duel", "standard", game_id="g")
    attack_and_guard(app, "g")
    app.undo("g", "blue", 1)  # red's attack, command #1
    app.submit("g", "red", {"type": "consent", "accept": True})
    assert app.status("g").awaiting.kind == "guard"  # back to blue's guard
    app.submit("g", "blue", {"type": "guard", "stance": "high"})
    attack_and_guard(app, "g", attacker="blue")  # ends round 1: a checkpoint, a snapshot
    lines = list(app.export("g", "umpire"))
    other = Arbitro(SQLiteStore(tmp_path / "other.db"))
    assert other.import_lines(lines, seat="umpire") == "g"
    assert other.store.snapshot_at_or_before("g", other.game("g").head_seq) is not None  # rebuilt on import
    assert state_hash(other.state_at("g")) == state_hash(app.state_at("g"))
    assert other.verify("g").passed
    again = [msgspec.json.decode(line) for line in other.export("g", "umpire")]
    assert again[0].pop("server_key") == other.server_key() != app.server_key()  # each database signs its own
    assert again == [{k: v for k, v in msgspec.json.decode(line).items() if k != "server_key"} for line in lines]


def test_verify_a_fork_and_a_position_game(app: Arbitro, positioned: str) -> None:
    app.create("duel", "standard", game_id="g")
    attack_and_guard(app, "g")
    for keep in (False, True):
        if keep:  # a fork keeps g's dice only once g's seed is public (arbitro §R.3)
            app.reveal("g", "post-mortem", seat="umpire", expose_hidden=True)
        fork = app.fork("g", 10, keep_dice=keep)
        attack_and_guard(app, fork, attacker="blue")
        app.reveal(fork, "audit the fork", seat="umpire", expose_hidden=True)
        assert app.verify(fork).passed
    attack_and_guard(app, "p")
    assert app.verify("p").passed


def test_verify_names_a_changed_ruleset_version(app: Arbitro, monkeypatch: pytest.MonkeyPatch) -> None:
    app.create("duel", "standard", game_id="g")
    monkeypatch.setattr(registry.get("duel"), "version", "2.0.0")
    report = app.verify("g")
    check = next(c for c in report.checks if c.name == "ruleset version")
    assert check.status == "failed" and "1.0.0" in check.detail and "2.0.0" in check.detail
    assert report.passed is False


def test_verify_names_an_edited_command(app: Arbitro, db: Path) -> None:
    app.create("duel", "standard", game_id="g")
    attack_and_guard(app, "g")
    db_execute(db, "UPDATE commands SET body=replace(body, '\"stance\":\"low\"', '\"stance\":\"high\"') "
                   "WHERE game='g' AND cmd=2")
    report = app.verify("g")
    check = next(c for c in report.checks if c.name == "command log")
    assert check.status == "failed" and "command 2" in check.detail and "edited" in check.detail
    assert report.passed is False


class _GuardWithNote(duel.GuardCmd):
    note: str = ""  # a default: the stored command spells it out, a listed option may not


class _NoteDuel(duel.DuelRuleset):
    name = "noteduel"
    Command = Annotated[Union[duel.AttackCmd, _GuardWithNote, duel.PlayCard, duel.EndTurn], Field(discriminator="type")]


def test_an_answer_matches_a_listed_option_that_leaves_its_defaults_out(app: Arbitro) -> None:
    """Options are compared in the stored form of commands (arbitro §S.3): the listed {"type": "guard",
    "stance": "low"} and the stored {"type": "guard", "stance": "low", "note": ""} are the same answer."""
    registry.register("noteduel", "tests.foundation.test_engine:_NoteDuel")
    game = app.create("noteduel", "standard")
    app.submit(game, "red", {"type": "attack", "aim": "high"})
    assert app.legal(game, "blue") == [{"type": "guard", "stance": "high"}, {"type": "guard", "stance": "low"}]
    with pytest.raises(NotYourDecision):
        app.submit(game, "blue", {"type": "end_turn"})  # only the listed answers while one is pending
    result = app.submit(game, "blue", {"type": "guard", "stance": "low"})
    assert result.events[0]["type"] == "guard_chosen"
