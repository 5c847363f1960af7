"""One roll proven without the seed (arbitro §R.5): the umpire's `prove_roll` records the roll's key K_i and its
Merkle path (`roll_proven`), which verification and `arbitro roll` check against the root the genesis committed to,
the seed staying secret and the game rolling on. Each attack is refused citing the rule: a forged path, another
index's key, a proof replayed into a fork or another game, a proof before the roll, a seat asking for one; and a
roll hidden from a seat is proven to the seats that saw it alone (non-interference)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import cli_dice, served_dice
from arbitro.adjudicator.errors import ArbitroError
from arbitro.adjudicator.reveal import with_proof
from arbitro.adjudicator.seat_numbers import events_of
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.codec import canonical
from arbitro.events.sqlite import SQLiteStore

from . import duel
from .conftest import Cli

SEED, SALT_KEY = "5e" * 32, "a1" * 32
CHAIN = ("hash", "prev", "cmd_hash", "salt")
CARD, DAMAGE = 0, 2  # the random indices of red's hidden card (a private draw) and of the first damage roll (public)


def provable(seed: str = SEED, game: str = "g", *, keys: bool = True) -> Arbitro:
    """A duel whose first exchange is played: red's and blue's hidden cards drawn (indices 0, 1), a damage roll (2)."""
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=lambda: "2026-01-01T00:00:00+00:00")
    app.create("duel", "standard", game_id=game, seed=seed, salt_key=SALT_KEY, provable_rolls=keys)
    app.submit(game, "red", {"type": "attack", "aim": "high"})
    app.submit(game, "blue", {"type": "guard", "stance": "low"})
    return app


def proof(index: int, seed: str = SEED, **changed: Any) -> dict[str, Any]:
    return {"type": "prove_roll", "index": index, "key": rnd.roll_key(seed, index),
            "path": list(rnd.roll_key_path(seed, index)), **changed}


def refused(app: Arbitro, command: dict[str, Any], words: str, seat: str = "umpire", game: str = "g") -> None:
    head = app.game(game).head_seq
    with pytest.raises(ArbitroError, match=words) as e:
        app.submit(game, seat, command)
    assert e.value.rule == "arbitro §R.5" and app.game(game).head_seq == head  # nothing recorded


def proven(app: Arbitro, seat: str, game: str = "g") -> list[dict[str, Any]]:
    return [e["event"] for e in app.log_by_event(game, seat) if e["type"] == "roll_proven"]


def test_the_umpire_proves_a_roll_by_its_key_the_seed_stays_secret_and_the_game_rolls_on() -> None:
    app = provable()
    answer = app.submit("g", "umpire", {"type": "prove_roll", "index": DAMAGE})  # the server fills key and path in
    (event,) = [e["event"] for e in answer.events]
    assert event == {"type": "roll_proven", "index": DAMAGE, "key": rnd.roll_key(SEED, DAMAGE),
                     "path": list(rnd.roll_key_path(SEED, DAMAGE)), "rule": "arbitro §R.5", "visible_to": None}
    assert proven(app, "red") == proven(app, "blue") == [event]  # a public roll: proven to every seat
    assert SEED not in canonical(app.log_by_event("g", "umpire")).decode()  # no reveal
    app.submit("g", "blue", {"type": "attack", "aim": "low"})
    app.submit("g", "red", {"type": "guard", "stance": "low"})  # rolls index 3
    assert app.state_at("g").core.rolls == 4 and app.state_at("g").core.seed is None


def test_verification_judges_a_proof_again_without_the_seed_and_each_seat_checks_it_from_its_export() -> None:
    app = provable()
    app.submit("g", "umpire", {"type": "prove_roll", "index": DAMAGE})
    app.submit("g", "umpire", {"type": "prove_roll", "index": CARD})
    report = app.verify("g")  # the seed is not revealed: re-adjudication replays the stored key and path
    assert report.passed and {c.name: c.status for c in report.checks}["re-adjudication"] == "passed"
    for seat, whole in (("red", 1), ("blue", 1)):  # red's card, a private draw: its pool is not red's (rev-s S1)
        checks = {c.name: c for c in app.verify_lines(list(app.export("g", seat)), "export").checks}
        assert checks["proven rolls"].status == "passed", checks["proven rolls"].detail
        assert checks["proven rolls"].detail.startswith(f"{whole} of 2 proven rolls served whole")


def test_a_served_proof_or_roll_edited_fails_the_seats_check_and_arbitro_roll_says_so() -> None:
    """A seat's own check of a proof from what it was served (served_dice.check_proofs, cli_dice.proof_of): a key
    its path does not prove against the served genesis's root, and values its proven key does not recompute, fail."""
    app = provable()
    app.submit("g", "umpire", {"type": "prove_roll", "index": DAMAGE})
    served = app.log_by_event("g", "red")
    proof = next(e["event"] for e in served if e["type"] == "roll_proven")
    roll = next(e for e in served if e["type"] == "dice_rolled" and e["event"]["index"] == DAMAGE)
    mix = served_dice.mix_before(served, roll["seq"])
    assert served_dice.check_proofs(served)[0] == "passed"
    assert cli_dice.proof_of(served, roll["event"], mix, roll["event"]["values"], dict)["matches"] is True
    proof["key"], key = "0" * 64, proof["key"]
    assert served_dice.check_proofs(served) == ("failed", (
        f"the key given for random index {DAMAGE} is not proven by its path against the root of roll keys the "
        "genesis commits to (arbitro §R.5)"))
    shown = cli_dice.proof_of(served, roll["event"], mix, roll["event"]["values"], dict)
    assert shown["matches"] is False and "NOT proven" in shown["status"]
    proof["key"], values = key, roll["event"]["values"]
    roll["event"]["values"] = [7] * len(values)
    assert served_dice.check_proofs(served) == (
        "failed", f"random index {DAMAGE}: {[7] * len(values)} in the log, {values} from its proven key (arbitro §R.5)")
    assert cli_dice.proof_of(served, roll["event"], mix, roll["event"]["values"], dict)["matches"] is False


def test_a_forged_path_is_refused() -> None:
    path = list(rnd.roll_key_path(SEED, DAMAGE))
    path[3] = rnd.roll_key(SEED, 99)  # any other hash
    refused(provable(), proof(DAMAGE, path=path), r"do not prove random index 2 against the root")
    refused(provable(), proof(DAMAGE, path=path[:-1]), r"do not prove random index 2")  # a level short


def test_a_key_for_another_index_is_refused() -> None:
    refused(provable(), proof(DAMAGE, key=rnd.roll_key(SEED, 1), path=list(rnd.roll_key_path(SEED, 1))),
            r"do not prove random index 2")
    refused(provable(), proof(DAMAGE, key=rnd.roll_key(SEED, 3)), r"do not prove random index 2")


def test_a_proof_replayed_into_a_fork_or_another_game_is_refused() -> None:
    app = provable()
    made = app.submit("g", "umpire", {"type": "prove_roll", "index": CARD}).events[0]["event"]
    replayed = {"type": "prove_roll", "index": CARD, "key": made["key"], "path": made["path"]}
    child = app.fork("g", app.game("g").head_seq, new_id="child")  # a new seed, new keys, its indices from 0
    app.submit(child, "blue", {"type": "attack", "aim": "low"})
    app.submit(child, "red", {"type": "guard", "stance": "low"})  # the fork's own index 0
    refused(app, replayed, r"do not prove random index 0 against the root", game=child)
    other = provable("77" * 32, "other")
    refused(other, replayed, r"do not prove random index 0 against the root", game="other")


def test_a_proof_before_the_roll_is_refused_and_the_server_computes_no_key_for_it() -> None:
    app = provable()
    refused(app, {"type": "prove_roll", "index": 3}, r"random index 3 has not been rolled yet .*next is 3")
    refused(app, proof(3), r"random index 3 has not been rolled yet")
    command = {"type": "prove_roll", "index": 3}
    assert with_proof(command, "umpire", SEED, 4096, rolls=3) == command  # not filled: no key of a roll to come
    assert "key" in with_proof(command, "umpire", SEED, 4096, rolls=4)
    assert with_proof(command, "blue", SEED, 4096, rolls=4) == command  # nor for a seat


def test_a_seat_cannot_have_the_server_prove_a_roll_hidden_from_it() -> None:
    app = provable()
    refused(app, {"type": "prove_roll", "index": CARD}, r"only the umpire proves a roll, not blue", seat="blue")
    refused(app, proof(CARD), r"only the umpire proves a roll, not blue", seat="blue")
    assert proven(app, "umpire") == []


def test_a_game_rolling_by_arbitro_random_1_has_no_single_roll_to_prove() -> None:
    refused(provable(keys=False), {"type": "prove_roll", "index": DAMAGE}, r"arbitro-random/1.*only a reveal")


def test_a_roll_is_proven_once_and_an_index_no_roll_of_the_log_holds_is_refused() -> None:
    app = provable()
    app.submit("g", "umpire", {"type": "prove_roll", "index": DAMAGE})
    refused(app, {"type": "prove_roll", "index": DAMAGE}, r"random index 2 is proven already, at #11")


def test_arbitro_roll_prove_records_and_shows_the_proof(run: Cli, app: Arbitro) -> None:
    game = run.json("new", "duel", "standard", "--provable-rolls")["game"]
    run.submit(game, "red", {"type": "attack", "aim": "high"})
    run.submit(game, "blue", {"type": "guard", "stance": "low"})
    seq = next(e["seq"] for e in app.log_by_event(game, "umpire") if e["type"] == "dice_rolled")
    assert run.json("roll", game, str(seq))["proof"]["status"] == "not proven"
    shown = run.json("roll", game, str(seq), "--prove")["proof"]
    assert shown["matches"] is True and shown["key"] == proven(app, "umpire", game)[0]["key"]
    assert "the key is proven by its path" in run("roll", game, str(seq)).stdout
    assert run.json("roll", game, "2", "--as", "blue")["proof"]["matches"] is True  # blue's command #2: the roll
    # blue asks for red's hidden card (blue's command #0, its first roll): refused, citing the rule
    assert "only the umpire proves a roll" in run("roll", game, "0", "--as", "blue", "--prove", code=1).stderr
    assert "--prove" in run("roll", "--help").stdout


def test_a_retried_proof_gets_the_first_answer_again() -> None:
    """The server filled the first submission's key and path in: a retry under the same idempotency key is the same
    command, not another one refused as a reused key."""
    app = provable()
    first = app.submit("g", "umpire", {"type": "prove_roll", "index": DAMAGE}, key="prove-2")
    again = app.submit("g", "umpire", {"type": "prove_roll", "index": DAMAGE}, key="prove-2")
    assert again.duplicate and again.cmd == first.cmd and again.events == first.events


# --- non-interference: a proof of red's hidden card serves blue nothing of it ------------------------------------
def served_to(seat: str, deck: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> bytes:
    """A fixed-seed provable duel whose red deck is `deck` (so red's hidden card differs with its order), red's
    card proven by the umpire: all that `seat` is served (events without their chain fields, view, status)."""
    monkeypatch.setitem(duel.DECKS, "red", deck)
    app = provable()
    app.submit("g", "umpire", {"type": "prove_roll", "index": CARD})
    log = [{k: v for k, v in e.items() if k not in CHAIN} for e in events_of(app.log("g", seat))]
    return canonical([log, app.view("g", seat), msgspec.to_builtins(app.status("g", seat))])


def test_a_proof_of_a_roll_hidden_from_a_seat_serves_it_the_same_bytes_whatever_the_roll(
        monkeypatch: pytest.MonkeyPatch) -> None:
    deck = duel.DECKS["red"]
    a, b = served_to("blue", deck, monkeypatch), served_to("blue", deck[::-1], monkeypatch)
    assert a == b and rnd.roll_key(SEED, CARD).encode() not in a and b'"hidden":true' in a
    red_a, red_b = served_to("red", deck, monkeypatch), served_to("red", deck[::-1], monkeypatch)
    # red saw its card, not the pool it was drawn from: with the key it could test candidate pools (rev-s S1)
    assert red_a != red_b and rnd.roll_key(SEED, CARD).encode() not in red_a


# --- a public roll a ruleset serves a seat without its faces (fog of war): its proof goes to the others alone -----
def blind_to_damage(monkeypatch: pytest.MonkeyPatch) -> None:
    """The duel serves blue its damage rolls without their faces, as a Para Bellum game serves an efficiency test of a
    stack the seat may not examine (caldiero §20.4, arrivano §11.3.2): a roll public in itself (`visible_to` None)."""
    def redact_random(self: Any, data: dict[str, Any], seat: str, state: Any) -> dict[str, Any]:
        hidden = seat == "blue" and data.get("index") == DAMAGE
        return {k: v for k, v in data.items() if not (hidden and k == "values")}
    monkeypatch.setattr(duel.DuelRuleset, "redact_random", redact_random)


def test_a_proof_of_a_roll_served_to_a_seat_without_its_faces_is_not_served_to_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """rev-r's R5: the proof followed the roll's `visible_to` alone, so a die a ruleset withheld from a seat under fog
    was served it by its key (the index, count, sides and mix are public: the die recomputed). Now the proof goes to
    the seats that were served the roll's values (reveal.served_values)."""
    blind_to_damage(monkeypatch)
    app = provable()
    app.submit("g", "umpire", {"type": "prove_roll", "index": DAMAGE})
    key = rnd.roll_key(SEED, DAMAGE)
    assert proven(app, "red")[0]["key"] == key and proven(app, "umpire")[0]["visible_to"] == ["red"]
    assert proven(app, "blue") == [{"type": "roll_proven", "index": DAMAGE, "rule": "arbitro §R.5",
                                    "visible_to": ["red"], "hidden": True}]
    served = canonical([events_of(app.log("g", "blue")), app.view("g", "blue")])
    assert key.encode() not in served and rnd.roll_key_path(SEED, DAMAGE)[0].encode() not in served
