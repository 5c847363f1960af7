"""Dice nobody can preview, choose or steer (arbitro §R), tried as an attacker would: a seat (or a host)
forks the game to read the next roll, grinds the seed against the seats' entropy, or hides a re-roll."""

from __future__ import annotations

from collections import Counter

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from arbitro.adjudicator import served_dice
from arbitro.adjudicator.errors import IllegalCommand, NotUmpire, NotYourDecision, Rejected
from arbitro.adjudicator.randomness import audit_dice
from arbitro.adjudicator.selfplay import SelfPlay, pick, weighted_pick
from arbitro.adjudicator.service import Arbitro
from arbitro.events import core
from arbitro.events import random as rnd

from arbitro.events.sqlite import SQLiteStore
from arbitro.events.store import StaleSequence
from arbitro.projections.base import UMPIRE

from .conftest import Cli, db_execute, exchange, head
from arbitro.adjudicator.seat_numbers import events_of

Json = dict[str, Any]


def rolls_of(app: Arbitro, game: str, first: int = 1) -> list[tuple[int, ...]]:
    return [tuple(e["event"]["values"]) for e in app.log(game, "umpire", first) if e["type"] == "dice_rolled"]


def play_exchanges(app: Arbitro, game: str, n: int, entropy: str | None = None) -> None:
    """`n` attacks and guards (one 2d6 roll each), first mixing in `entropy` as red if given."""
    if entropy is not None:
        app.submit(game, "red", {"type": "add_entropy", "entropy": entropy})
    for i in range(n):
        attacker = "red" if app.state_at(game).rules.active == "red" else "blue"
        app.submit(game, attacker, {"type": "attack", "aim": "high"})
        app.submit(game, "blue" if attacker == "red" else "red", {"type": "guard", "stance": "low"})


# --- 1. no fork previews the parent's dice ----------------------------------------------------------
def test_no_fork_of_an_unrevealed_game_shows_the_rolls_the_parent_then_makes(app: Arbitro) -> None:
    """The attack: fork at the head, play the fork to its next rolls (with or without entropy added there),
    then see whether the real game rolls the same. Every way of forking is tried."""
    app.create("duel", "long", game_id="g")
    play_exchanges(app, "g", 1)
    at = app.game("g").head_seq
    # keep_dice at the head of an unrevealed game: refused, by the library and in the engine, nothing made
    with pytest.raises(IllegalCommand, match="seed is not revealed") as refused:
        app.fork("g", at, keep_dice=True)
    assert refused.value.rule == "arbitro §R.3"
    assert app.game("g").head_seq == at and [g.id for g in app.store.games()] == ["g"]
    # a seat cannot fork at all
    for seat in ("red", "blue"):  # the library refuses (arbitro §A.1), and so would the engine on a direct submit
        with pytest.raises(NotUmpire, match=f"only the umpire may do this, not '{seat}': a fork"):
            app.fork("g", at, by=seat)
        with pytest.raises(IllegalCommand, match=f"only the umpire forks a game, not {seat}"):
            app.submit("g", seat, {"type": "fork", "child": "x", "at": at, "hash": "0" * 64})
    # every fork that can be made draws from a seed the parent never uses
    previews = []
    for entropy in (None, "chosen-in-the-fork", "another try"):
        fork = app.fork("g", at)
        play_exchanges(app, fork, 4, entropy)
        previews.append((entropy, rolls_of(app, fork, 2)))
    # the parent plays on: its rolls match no preview (4 rolls of 2d6: a chance match is 1 in 36**4)
    play_exchanges(app, "g", 4, "chosen-in-the-fork")
    real = rolls_of(app, "g", at + 1)
    assert len(real) == 4
    for _entropy, preview in previews:
        assert len(preview) == 4 and preview != real


def test_a_fork_is_recorded_in_the_parents_log(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    play_exchanges(app, "g", 1)
    at = app.game("g").head_seq
    fork = app.fork("g", at, new_id="f")
    (recorded,) = [e for e in events_of(app.log("g", "red")) if e["type"] == "game_forked"]
    stored_hash = next(iter(app.store.events("g", at, at))).hash
    told = app.numbers(app.game("g")).command_of(at)  # red is told the command it forked after (§V.6)
    assert told < at and recorded["event"] == {"type": "game_forked", "child": "f", "at": told, "hash": stored_hash,
                                 "keep_dice": False, "rule": "arbitro §R.3"}
    assert recorded["seat"] == "umpire" and fork == "f"
    assert app.status("f").origin["hash"] == stored_hash
    assert app.verify("g").passed  # the record is re-adjudicated like any engine command


def test_keep_dice_replays_the_parents_rolls_only_after_its_reveal(app: Arbitro) -> None:
    app.create("duel", "long", game_id="g")
    play_exchanges(app, "g", 1)
    at = app.game("g").head_seq
    play_exchanges(app, "g", 2)
    real = rolls_of(app, "g", at + 1)
    app.reveal("g", "post-mortem", seat="umpire", expose_hidden=True)
    with pytest.raises(IllegalCommand, match="revealed"):  # the parent rolls no more: nothing left to preview
        play_exchanges(app, "g", 1)
    replay = app.fork("g", at, keep_dice=True)
    play_exchanges(app, replay, 2)
    assert rolls_of(app, replay, 2) == real  # the analysis the option exists for
    assert app.status(replay).dice.protection == "public"  # and status says anyone can predict them
    app.reveal(replay, "the fork's seed is the parent's, already public", seat="umpire", expose_hidden=True)
    assert app.verify(replay).passed


def test_fork_through_the_cli_is_the_umpires_and_refuses_kept_dice_before_the_reveal(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    at = head(run, "g")
    refused = run.json("fork", "g", "--at", str(at), "--as", "red", code=1)
    assert refused["error"] == "authority/umpire-only" and "only the umpire" in refused["message"]
    refused = run.json("fork", "g", "--at", str(at), "--keep-dice", code=1)
    assert refused["rule"] == "arbitro §R.3" and "reveal the seed first" in refused["message"]
    assert head(run, "g") == at
    fork = run.json("fork", "g", "--at", str(at), "--id", "f")["game"]
    assert fork == "f" and head(run, "g") == at + 1
    assert run.json("log", "g", "--from", str(at + 1))[0]["event"]["child"] == "f"
    # what the fork stored: it starts from the parent's event `at` (named by its hash) with the parent's
    # position there, and a new secret seed (its own commitment, no kept dice, no random index carried over)
    parent_at = run.json("log", "g", "--from", str(at), "--to", str(at))[0]
    (created,) = [e for e in run.json("log", "f") if e["type"] == "game_created"]
    assert created["event"]["origin"] == {"fork": "g", "at": at, "cmd": parent_at["cmd"], "hash": parent_at["hash"],
                                          "keep_dice": False}
    assert created["event"]["seed_commitment"] != run.json("log", "g", "--to", "1")[0]["event"]["seed_commitment"]
    parent_view, fork_view = run.json("replay", "g", "--to", str(at))["view"], run.json("replay", "f")["view"]
    assert fork_view["state"] == parent_view["state"] and parent_view["engine"]["rolls"] > 0
    assert fork_view["engine"]["rolls"] == 0 and not fork_view["engine"]["seed_revealed"]
    assert run.json("status", "f")["parent"] == "g" and run.json("verify", "f")["passed"]


# --- 2. the seats' commit-reveal entropy: nothing rolls before it, nobody steers it -------------------
SEATS_ENTROPY = {"austria": "austria's 128 bits: 5b1e0c7d", "france": "france's own: 9a44e2f0"}


def commit(app: Arbitro, game: str, seat: str, entropy: str) -> Json:
    return app.submit(game, seat, {"type": "commit_entropy", "commitment": rnd.entropy_commitment(entropy)})


def reveal(app: Arbitro, game: str, seat: str, entropy: str) -> Json:
    return app.submit(game, seat, {"type": "reveal_entropy", "entropy": entropy})


def random_events(app: Arbitro, game: str) -> list[Json]:
    return [e for e in app.log(game) if e["type"] in ("dice_rolled", "items_drawn")]


def test_marengos_at_start_draw_waits_for_every_seats_reveal_and_no_host_move_changes_it(app: Arbitro) -> None:
    game = app.create("marengo", "marengo", seat_entropy=True, game_id="m")
    assert [e["type"] for e in app.log(game)] == ["game_created", "entropy_requested", "decision_opened"]
    assert app.status(game).awaiting.kind == "entropy"
    # the legal listing names the commit to each seat awaited, the proceed ruling to the umpire
    assert app.legal(game, "austria") == [{"type": "commit_entropy", "commitment": "<SHA-256 hex of your entropy's UTF-8 bytes>"}]
    assert app.legal(game, "umpire")[0]["type"] == "proceed_without_entropy"
    commit(app, game, "austria", SEATS_ENTROPY["austria"])
    # What a host (who holds the seed and sees the commitment) or a seat might try once austria has committed:
    with pytest.raises(NotYourDecision):  # austria changes its mind after seeing nothing: not awaited any more
        commit(app, game, "austria", "a better one")
    for seat in ("austria", "france", "umpire"):  # entropy in the open, which the host could drop: refused
        with pytest.raises(Rejected):
            app.submit(game, seat, {"type": "add_entropy", "entropy": "steer"})
    with pytest.raises(NotYourDecision):  # a reveal before every seat has committed
        reveal(app, game, "austria", SEATS_ENTROPY["austria"])
    with pytest.raises(IllegalCommand, match="only without seats that have not answered"):
        app.submit(game, "umpire", {"type": "proceed_without_entropy", "seats": ["austria"], "reason": "drop it"})
    twin = app.create("marengo", "marengo", game_id="twin")  # what the first move would be, once set up
    mover = app.awaiting(twin).seats[0]
    with pytest.raises(NotYourDecision):  # a game command: nothing happens before the reveals
        app.submit(game, mover, app.legal(twin, mover)[0])
    commit(app, game, "france", SEATS_ENTROPY["france"])
    assert app.legal(game, "france") == [{"type": "reveal_entropy", "entropy": "<the entropy you committed to>"}]
    with pytest.raises(IllegalCommand, match="does not match austria's commitment"):
        reveal(app, game, "austria", "another entropy, to choose the draw")
    reveal(app, game, "austria", SEATS_ENTROPY["austria"])
    assert random_events(app, game) == []  # france has not revealed: still nothing drawn
    last = reveal(app, game, "france", SEATS_ENTROPY["france"])
    kinds = [e["type"] for e in last.events]
    assert kinds[:2] == ["entropy_revealed", "entropy_mixed"] and "items_drawn" in kinds[2:]
    # the draw is fixed by the seed (committed at creation) and the committed entropy alone
    seed = app.game(game).seed
    assert seed is not None
    mix = rnd.mix_round("", [("austria", SEATS_ENTROPY["austria"]), ("france", SEATS_ENTROPY["france"])])
    draws = random_events(app, game)
    first = draws[0]["event"]
    assert first["index"] == 0 and tuple(first["drawn"]) == rnd.draw(seed, mix, 0, first["population"], len(first["drawn"]))
    assert app.status(game).dice.protection == "seats"
    with pytest.raises(IllegalCommand, match="protected by the seats' committed entropy"):  # nor after the round
        app.submit(game, "france", {"type": "add_entropy", "entropy": "steer"})
    report = app.verify(game)
    assert report.passed and {c.name: c.status for c in report.checks}["dice protection"] == "passed"


def test_an_unanswered_seat_is_left_out_only_by_the_umpires_ruling_which_status_and_verify_show(app: Arbitro) -> None:
    app.create("duel", "standard", seat_entropy=True, game_id="g")
    commit(app, "g", "red", "red's entropy")
    with pytest.raises(IllegalCommand, match="only the umpire"):
        app.submit("g", "red", {"type": "proceed_without_entropy", "seats": ["blue"], "reason": "blue is asleep"})
    app.submit("g", "umpire", {"type": "proceed_without_entropy", "seats": ["blue"], "reason": "blue never answered"})
    assert app.awaiting("g").seats == ["red"]  # the round goes on: red reveals
    result = reveal(app, "g", "red", "red's entropy")
    (mixed,) = [e["event"] for e in result.events if e["type"] == "entropy_mixed"]
    assert list(mixed["seats"]) == ["red"] and mixed["mix"] == rnd.mix_round("", [("red", "red's entropy")])
    assert [e["type"] for e in result.events].count("items_drawn") == 2  # the opening, after the round
    dice = app.status("g").dice
    assert list(dice.waivers[0].seats) == ["blue"] and "proceed without blue" in dice.summary
    check = {c.name: c for c in app.verify("g").checks}["dice protection"]
    assert check.status == "noted" and "proceed without blue" in check.detail


def test_a_fork_of_a_protected_game_runs_its_own_round_for_its_new_seed(app: Arbitro) -> None:
    app.create("duel", "standard", seat_entropy=True, game_id="g")
    for seat in ("red", "blue"):
        commit(app, "g", seat, seat * 3)
    for seat in ("red", "blue"):
        reveal(app, "g", seat, seat * 3)
    at = app.game("g").head_seq
    play_exchanges(app, "g", 1)
    fork = app.fork("g", at)
    assert app.awaiting(fork).kind == "entropy" and app.status(fork).dice.protection == "seats"
    with pytest.raises(NotYourDecision):
        play_exchanges(app, fork, 1)


def test_the_cli_creates_protected_games_unless_told_not_to(db: Path) -> None:
    run = Cli(db, env={"ARBITRO_SEAT_ENTROPY": None})  # the user's default, not the suite's hot-seat one
    run("new", "duel", "standard", "--id", "g")
    assert run.json("status", "g")["awaiting"]["kind"] == "entropy"
    assert "protected by the seats' committed entropy" in run("status", "g").stdout
    entropy = "red's private text"
    run.submit("g", "red", {"type": "commit_entropy", "commitment": rnd.entropy_commitment(entropy)})
    run("new", "duel", "standard", "--id", "h", "--no-seat-entropy")
    assert "dice: dice not protected against the host" in run("status", "h").stdout
    assert run.json("status", "h")["dice"]["protection"] == "host"
    run("new", "duel", "standard", "--id", "t", "--transcribed")  # rolls nothing itself: no round to wait for
    assert run.json("status", "t")["dice"]["protection"] == "entered"
    assert run.json("status", "t")["awaiting"]["kind"] != "entropy"
    checks = {c["name"]: c for c in run.json("verify", "h")["checks"]}
    assert checks["dice protection"]["status"] == "unchecked"
    assert checks["dice protection"]["detail"].startswith("dice not protected against the host")


# --- 3. an undo after a roll is a re-roll, and says so ------------------------------------------------
def test_an_undo_that_voids_rolls_says_how_many_and_status_and_verify_show_it(run: Cli, app: Arbitro) -> None:
    app.create("duel", "long", game_id="g")
    start = app.game("g").head_seq
    play_exchanges(app, "g", 2)
    voided = [e["event"]["index"] for e in random_events(app, "g") if e["seq"] > start]
    assert len(voided) == 2
    result = app.undo("g", "umpire", start, "a misclick on the table")
    (undone,) = [e["event"] for e in result.events if e["type"] == "undone"]
    assert undone["voided_rolls"] == 2 and list(undone["voided_indices"]) == voided
    play_exchanges(app, "g", 1)
    # a second undo to the same point voids only the roll made since, not the ones already voided
    again = app.undo("g", "umpire", start, "once more")
    (undone,) = [e["event"] for e in again.events if e["type"] == "undone"]
    assert list(undone["voided_indices"]) == [max(voided) + 1]
    rerolls = run.json("status", "g")["dice"]["rerolls"]
    assert [(r["by"], r["voided_indices"]) for r in rerolls] == [("umpire", voided), ("umpire", [max(voided) + 1])]
    text = run("status", "g").stdout
    assert "re-rolls: 2 undo(s) voided dice" in text and f"random index {', '.join(map(str, voided))}" in text
    check = {c["name"]: c for c in run.json("verify", "g")["checks"]}["re-rolls"]
    assert check["status"] == "noted" and "2 undo(s) voided dice" in check["detail"]
    assert run.json("verify", "g")["passed"] is True


def test_a_consented_take_back_over_a_roll_is_a_re_roll_too(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    play_exchanges(app, "g", 1)
    app.undo("g", "blue", 0)  # blue's numbers are commands: 0, the creation
    result = app.submit("g", "red", {"type": "consent", "accept": True})
    (undone,) = [e["event"] for e in result.events if e["type"] == "undone"]
    assert undone["voided_rolls"] == 1 and undone["by"] == "blue"
    assert app.status("g").dice.rerolls[0].by == "blue"


def test_a_fork_made_mid_round_runs_a_fresh_round_then_the_opening(app: Arbitro) -> None:
    app.create("duel", "standard", seat_entropy=True, game_id="g")
    commit(app, "g", "red", "red's")
    fork = app.fork("g", app.game("g").head_seq)
    assert app.awaiting(fork).seats == ["red", "blue"]  # the parent's commitment is not the fork's
    for seat in ("red", "blue"):
        commit(app, fork, seat, seat)
    reveal(app, fork, "red", "red")
    kinds = [e["type"] for e in reveal(app, fork, "blue", "blue").events]
    assert kinds.count("items_drawn") == 2 and app.awaiting(fork).kind == "turn"
    assert app.verify(fork).passed


def test_a_host_that_swaps_the_seed_after_the_commitments_is_caught_at_the_reveal(app: Arbitro, db: Path) -> None:
    """The host holds the seed and sees the commitments: the one lever left is the seed itself, and it was
    committed in game_created before any seat committed."""
    app.create("duel", "standard", seat_entropy=True, game_id="g")
    for seat in ("red", "blue"):
        commit(app, "g", seat, f"{seat}'s own")
    ground = rnd.new_seed()  # the host's chosen replacement, e.g. one that suits the revealed entropy
    db_execute(db, "UPDATE games SET seed=? WHERE id='g'", ground)
    host = Arbitro(SQLiteStore(db))
    for seat in ("red", "blue"):
        reveal(host, "g", seat, f"{seat}'s own")
    play_exchanges(host, "g", 1)
    host.reveal("g", "end of the evening", seat="umpire", expose_hidden=True)
    report = host.verify("g")
    assert not report.passed
    statuses = {c.name: c.status for c in report.checks}
    # The stored record's seed is checked against the chained commitment first (arbitro §L.1); a file
    # carrying only the revealed seed fails at the reveal's commitment check.
    assert statuses.get("genesis") == "failed" or statuses["seed commitment"] == "failed"


def test_no_undo_crosses_a_reveal_a_waiver_or_the_mixing(app: Arbitro) -> None:
    """Otherwise a seat that has seen another's entropy could commit anew (a choice, for a seat the host tips
    off), or the umpire could waive a seat, look, and take it back; no roll would be voided to show it."""
    app.create("duel", "standard", seat_entropy=True, game_id="g")
    commit(app, "g", "red", "red")
    app.undo("g", "umpire", 3, "before any reveal, a commitment may be taken back: nothing is public yet")
    for seat in ("red", "blue"):
        commit(app, "g", seat, seat)
    committed = app.game("g").head_seq
    reveal(app, "g", "red", "red")
    for to in (3, committed):
        with pytest.raises(IllegalCommand, match="entropy round, which a game does not run twice") as refused:
            app.undo("g", "umpire", to, "start the round again")
        assert refused.value.rule == "arbitro §R.2"
    reveal(app, "g", "blue", "blue")
    after_round = app.game("g").head_seq
    play_exchanges(app, "g", 1)
    app.undo("g", "umpire", after_round, "after the round is an ordinary undo")
    assert app.verify("g").passed


def test_self_play_answers_the_round_and_plays_a_protected_game_to_the_end(app: Arbitro) -> None:
    app.create("duel", "standard", ["short"], seat_entropy=True, game_id="g")
    play = SelfPlay(app, "g", seed="round")
    play.play(200)
    assert app.status("g").outcome is not None  # the whole game, the round first
    kinds = [e["type"] for e in app.log("g")]
    assert kinds.index("entropy_mixed") < kinds.index("items_drawn")
    report = app.verify("g")  # the end of the game revealed the seed: every roll recomputed
    assert report.passed and {c.name: c.status for c in report.checks}["dice protection"] == "passed"


def test_the_entropy_command_commits_keeps_and_reveals_for_each_seat(db: Path, tmp_path: Path) -> None:
    run = Cli(db, env={"ARBITRO_SEAT_ENTROPY": None})
    run("new", "duel", "standard", "--id", "g")
    kept = {seat: tmp_path / f"{seat}.entropy" for seat in ("red", "blue")}
    first = run.json("entropy", "g", "--as", "red", "--file", str(kept["red"]))
    text = kept["red"].read_text()
    assert len(text) == 32 and oct(kept["red"].stat().st_mode & 0o777) == "0o600"
    assert first["events"][0]["event"]["commitment"] == rnd.entropy_commitment(text)  # only the hash is sent
    assert run.json("entropy", "g", "--as", "red", "--file", str(kept["red"]), code=1)["rule"] == "arbitro §R.2"
    kept["blue"].write_text("blue's own words\n")  # a seat may bring its own
    run("entropy", "g", "--as", "blue", "--file", str(kept["blue"]))
    run("entropy", "g", "--as", "red", "--file", str(kept["red"]))
    last = run.json("entropy", "g", "--as", "blue", "--file", str(kept["blue"]))
    (mixed,) = [e["event"] for e in last["events"] if e["type"] == "entropy_mixed"]
    assert mixed["mix"] == rnd.mix_round("", [("red", text), ("blue", "blue's own words")])
    stray = tmp_path / "late.entropy"  # refused: no stray file is left behind
    run("entropy", "g", "--as", "red", "--file", str(stray), code=1)
    assert not stray.exists()


def test_a_kept_dice_fork_made_before_the_parents_reveal_is_reported_as_able_to_preview() -> None:
    """Forks stored by earlier builds (keep_dice without the parent's reveal) are not called public or safe."""
    old = core.GameCreated(ruleset="duel", version="1.0.0", scenario="standard", options=(), kind="generated",
                           seats=("red", "blue"), seed_commitment="0" * 64, data_hash="0" * 64,
                           origin={"fork": "g", "at": 3, "hash": "0" * 64, "keep_dice": True}, initial={})
    audit = audit_dice([SimpleNamespace(seq=1, event=old)])  # type: ignore[list-item]
    assert audit.protection == "host" and "could show that game's rolls in advance" in audit.summary


def test_a_weighted_pick_takes_each_command_as_often_as_its_weight_and_never_one_weighing_nothing() -> None:
    """The log drivers' choice (selfplay.weighted_pick): derived from (seed, step) alone, as `pick` is, so a driver
    writes the same game every run; a command of weight 0 is never taken."""
    legal = [{"type": "a"}, {"type": "b"}, {"type": "c"}]
    taken = Counter(weighted_pick("w", step, legal, [0, 1, 3])["type"] for step in range(4000))
    assert taken["a"] == 0 and 2.5 < taken["c"] / taken["b"] < 3.5
    assert [weighted_pick("w", s, legal, [1, 1, 1]) for s in range(50)] == [legal[pick("w", s, 3)] for s in range(50)]


def test_the_served_dice_check_catches_a_roll_the_seed_does_not_give(app: Arbitro) -> None:
    """A seat's own check (adjudicator/served_dice.py): an umpire who changed a roll before serving it, the chain
    sealed over the changed value, is caught once the seed is revealed; a seed that is not the committed one too."""
    app.create("duel", "standard", game_id="g")
    app.submit("g", "red", {"type": "attack", "aim": "high"})
    app.submit("g", "blue", {"type": "guard", "stance": "low"})
    app.reveal("g", seat=UMPIRE, expose_hidden=True)
    served = events_of(app.log("g", "blue"))
    commitment = served[0]["event"]["seed_commitment"]
    assert served_dice.check(served, commitment)[0] == "passed"
    (roll,) = [e for e in served if e["type"] == "dice_rolled"]
    forged = [{**e, "event": {**e["event"], "values": [7 - v for v in e["event"]["values"]]}} if e is roll else e
              for e in served]
    status, found = served_dice.check(forged, commitment)
    assert status == "failed" and found.startswith(f"#{roll['seq']}: ")
    assert served_dice.check(served, "0" * 64) == ("failed", f"the revealed seed does not hash to the commitment "
                                                            f"{'0' * 64} (arbitro §R.1)")


class Counted(list):  # type: ignore[type-arg]
    """A served log that counts the events read from it (by iterating, indexing or slicing)."""

    reads = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        for item in super().__iter__():
            Counted.reads += 1
            yield item

    def __getitem__(self, key):  # type: ignore[no-untyped-def]
        got = super().__getitem__(key)
        Counted.reads += len(got) if isinstance(key, slice) else 1
        return got


def test_the_served_dice_check_reads_each_event_a_bounded_number_of_times() -> None:
    """A seat's dice check is linear in its log (review leftover): 2,000 rolls under a mix that changes along the way
    are each recomputed under the mix served before them, reading the log a few times over, not once a roll."""
    seed = "ab" * 32
    served, mix = [{"seq": 1, "type": "game_created", "event": {"initial_core": {"mix": ""}}}], ""
    for k in range(2000):
        if k % 500 == 250:
            mix = f"{k:064x}"
            served.append({"seq": len(served) + 1, "type": "entropy_mixed", "event": {"mix": mix}})
        values = list(rnd.roll(seed, mix, k, 1, 6))
        served.append({"seq": len(served) + 1, "type": "dice_rolled",
                       "event": {"type": "dice_rolled", "index": k, "count": 1, "sides": 6, "values": values}})
    served.append({"seq": len(served) + 1, "type": "seed_revealed", "event": {"seed": seed}})
    Counted.reads = 0
    assert served_dice.check(Counted(served), rnd.commitment(seed)) == (
        "passed", "the revealed seed matches the commitment made at creation; 2000 of 2000 rolls and draws were "
                  "served whole to this seat, and each recomputes from it (the others are private or hidden from it)")
    assert Counted.reads <= 3 * len(served), Counted.reads
    assert served_dice.mix_before(served, served[-2]["seq"]) == mix and served_dice.mix_before(served, 2) == ""
    forged = [dict(e) for e in served]
    forged[-2] = {**forged[-2], "event": {**forged[-2]["event"], "values": [7 - forged[-2]["event"]["values"][0]]}}
    assert served_dice.check(forged, rnd.commitment(seed))[1].startswith(f"#{forged[-2]['seq']}: ")


def test_entropy_answers_sent_at_once_cross_and_nothing_else_does(app: Arbitro) -> None:
    """Answers mailed at once (arbitro §L.2, §R.2): each seat's entropy answer sent against the same head is judged
    at the head while only the round's answers came in between; any other command, or any other event since, is
    stale as ever. The record keeps the head its seat saw, and the game verifies."""
    app.create("duel", "standard", game_id="g", seat_entropy=True)
    seen = app.game("g").head_cmd  # a seat's head: its last command (engine-rules §V.6)
    app.submit("g", "red", {"type": "commit_entropy", "commitment": rnd.entropy_commitment("r" * 32)}, expected_seq=seen)
    app.submit("g", "blue", {"type": "commit_entropy", "commitment": rnd.entropy_commitment("b" * 32)}, expected_seq=seen)
    assert app.store.command("g", 2).record.expected_seq == seen < app.store.command("g", 2).first_seq - 1
    seen = app.game("g").head_cmd  # a seat's head: its last command (engine-rules §V.6)
    app.submit("g", "red", {"type": "reveal_entropy", "entropy": "r" * 32}, expected_seq=seen)
    with pytest.raises(StaleSequence):  # not an answer to the round: the position it was sent for has moved
        app.submit("g", "blue", {"type": "attack", "aim": "high"}, expected_seq=seen)
    app.submit("g", "blue", {"type": "reveal_entropy", "entropy": "b" * 32}, expected_seq=seen)
    mixed = app.game("g").head_cmd
    assert "entropy_mixed" in [e["type"] for e in app.log("g")]
    app.submit("g", "red", {"type": "attack", "aim": "high"}, expected_seq=mixed)
    with pytest.raises(StaleSequence):  # the round is over: an answer sent before the attack is stale
        app.submit("g", "blue", {"type": "reveal_entropy", "entropy": "b" * 32}, expected_seq=mixed)
    assert app.verify("g").passed
    elsewhere = Arbitro(SQLiteStore(":memory:"))  # and it moves whole to another database
    elsewhere.import_lines(app.export("g", UMPIRE, with_seed=True), seat=UMPIRE)
    assert elsewhere.verify("g").passed


def test_an_entropy_answer_crosses_only_the_other_seats_answers(app: Arbitro) -> None:
    """§L.2 lets an answer cross the other seats' answers to the round, never the sending seat's own: a reveal sent
    against the head red saw before its own commit is stale (red could not reveal there), though the rest of what
    came in between are blue's answers and the round's revised decision."""
    app.create("duel", "standard", game_id="g", seat_entropy=True)
    seen, seen_event = app.game("g").head_cmd, app.game("g").head_seq  # a seat's head, and the log's
    app.submit("g", "red", {"type": "commit_entropy", "commitment": rnd.entropy_commitment("r" * 32)}, expected_seq=seen)
    app.submit("g", "blue", {"type": "commit_entropy", "commitment": rnd.entropy_commitment("b" * 32)}, expected_seq=seen)
    since = [e["type"] for e in app.log("g", UMPIRE, seen_event + 1)]
    assert set(since) == {"entropy_committed", "decision_revised"}, since
    with pytest.raises(StaleSequence):
        app.submit("g", "red", {"type": "reveal_entropy", "entropy": "r" * 32}, expected_seq=seen)
    app.submit("g", "red", {"type": "reveal_entropy", "entropy": "r" * 32}, expected_seq=app.game("g").head_cmd)
