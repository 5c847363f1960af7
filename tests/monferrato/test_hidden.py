"""Hidden information (monferrato §2.2, §4, §5): each hand and the chit cup. Proved by non-interference: two games
that differ only in one chit of Pro-Spain's hand (and so in the cup) serve Pro-France the very same bytes (every
event, its view and its legal commands) while Pro-Spain draws, discards at five (§5 2, the chit it discards its own
choice, shown), plays and moves, and whether that chit is a mandatory one (§16.1) until Pro-Spain plays; two games
differing in whether Pro-France's hand holds a response chit serve Pro-Spain the same bytes while the response is
asked and declined (§5.1: asked whatever the hand); and each seat is served its own hand, never the other's, nor the
cup's contents. Every hidden thing of the game and its test: docs/testing.md "Hidden information"."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.monferrato.data import load
from tests.monferrato.harness import FOLD, RULESET, Table, from_state, new_game, state
from arbitro.adjudicator.seat_numbers import events_of
from arbitro.projections import monferrato as monferrato_projection
from bench import nifuzz, nifuzz_hands
from bench.nifuzz import replay
from tests.conformance.leaks import leaked

D = load()
LOGS = Path(__file__).resolve().parents[2] / "logs"


def pair(hidden: str, sequence: list[tuple[str, dict[str, Any]]], kept: tuple[str, ...] = ("chit11", "chit14"),
         ) -> tuple[bytes, bytes, bytes]:
    """Pro-France's bytes in the two games and the umpire's in the first, after the same commands: Pro-Spain's hand
    `kept` and chit02 in one game, `hidden` in the other."""
    return alike({"pro_france": ["chit05", "chit04", "chit06", "chit08"], "pro_spain": ["chit02", *kept]},
                 {"pro_france": ["chit05", "chit04", "chit06", "chit08"], "pro_spain": [hidden, *kept]},
                 sequence, "pro_france")


def alike(hands_a: dict[str, list[str]], hands_b: dict[str, list[str]], sequence: list[tuple[str, dict[str, Any]]],
          seat: str, readings: dict[str, str] | None = None, sequence_b: list[tuple[str, dict[str, Any]]] | None = None,
          **fields: Any) -> tuple[bytes, bytes, bytes]:
    """`seat`'s bytes in two games dealt `hands_a` and `hands_b`, after the same commands (`sequence_b`: the second
    game's own, its sender's choices naming its own hidden chits), under the umpire's `readings`, and the umpire's in
    the first where they differ from the second's (b"": the games do not differ at all)."""
    out = []
    for hands, commands in ((hands_a, sequence), (hands_b, sequence if sequence_b is None else sequence_b)):
        t = Table(state(hands=hands, **fields), readings=readings)
        before = FOLD.copy(t.game)
        for sender, command in commands:
            t.send(sender, command)
        out.append((t.served(before, seat), t.served(before, "umpire")))
    return out[0][0], out[1][0], out[0][1] if out[0][1] != out[1][1] else b""


def test_a_hidden_chit_changes_nothing_served_to_the_other_seat_while_its_owner_draws_and_discards() -> None:
    a, b, umpire = pair("chit16", [("pro_spain", {"type": "draw_chit"})])
    assert a == b
    assert umpire, "the umpire's bytes differ: the hidden chit is really there"


PLAY_AND_MOVE = [("pro_spain", {"type": "play_chit", "chit": "chit11"}),
                 ("pro_spain", {"type": "activate", "zones": ["alessandria"], "commander": None}),
                 ("pro_spain", {"type": "move", "units": ["spa_inf1"], "path": ["tortona"]}),
                 ("pro_spain", {"type": "end_activation"})]


def test_a_hidden_chit_changes_nothing_served_to_the_other_seat_while_its_owner_plays_and_moves() -> None:
    a, b, umpire = pair("chit16", PLAY_AND_MOVE)
    assert a == b and umpire


def test_a_discard_at_five_shows_the_other_seat_the_chit_discarded_alone() -> None:
    """§5 2: with four in hand a draw makes five and its owner discards one of its choice (a decision on the stack);
    the chit discarded goes to the discards, public (§5.1 "la pila degli scarti"), the rest of the hand stays hidden."""
    drawn_and_discarded = [("pro_spain", {"type": "draw_chit"}), ("pro_spain", {"type": "discard", "chit": "chit11"})]
    a, b, umpire = pair("chit16", drawn_and_discarded, ("chit11", "chit14", "chit12"))
    assert a == b and umpire and b"chit11" in a


FACE_DOWN = {"discard_pile": "face_down"}  # the umpire's ruling that lays the discards face down (monferrato §5.1)


def discarding(chit: str) -> list[tuple[str, dict[str, Any]]]:
    return [("pro_spain", {"type": "draw_chit"}), ("pro_spain", {"type": "discard", "chit": chit})]


@pytest.mark.parametrize("readings", [None, FACE_DOWN])
def test_the_chit_discarded_at_five_is_served_to_the_other_seat_only_while_the_pile_lies_face_up(
        readings: dict[str, str] | None) -> None:
    """§5 2, §5.1 "la pila degli scarti": two games differing only in the chit Pro-Spain discards at five (chit11 or
    chit16, the other in the cup). Public by default (the book lays face down only what it calls "coperti" or puts in
    the "contenitore opaco"): Pro-France is served the chit discarded. Under the umpire's ruling `discard_pile:
    face_down`, Pro-France is served the same bytes in both (the pile's size, not its chits)."""
    kept = {"pro_france": ["chit05", "chit04", "chit06", "chit08"]}
    a, b, umpire = alike({**kept, "pro_spain": ["chit11", "chit14", "chit12", "chit02"]},
                         {**kept, "pro_spain": ["chit16", "chit14", "chit12", "chit02"]},
                         discarding("chit11"), "pro_france", readings, discarding("chit16"))
    assert umpire, "the umpire's bytes are alike: the discarded chit is not what differs"
    assert (a == b) == (readings == FACE_DOWN)
    assert (b"chit11" in a) == (readings is None)
    view = json.loads(a)[-2]["state"]
    assert ("discards_size" in view) == ("discards" not in view) == (readings == FACE_DOWN)


@pytest.mark.parametrize("readings", [None, FACE_DOWN])
def test_the_blue_chits_the_cup_sheds_at_march_1629_are_served_only_while_the_pile_lies_face_up(
        readings: dict[str, str] | None) -> None:
    """§16.4: at the start of March 1629 the blue chits left in the cup go to the discards. Two games differing only
    in whether Pro-Spain's hand or the cup holds chit16 (chit11 the other way): public by default, the chits shed are
    served, and so each seat knows the other's blue chits by complement; under `discard_pile: face_down` Pro-France
    is served the same bytes in both (how many were shed, not which)."""
    kept = {"pro_france": ["chit05", "chit04", "chit06", "chit08"]}
    end = [("pro_spain", {"type": "end_activation"})]
    a, b, umpire = alike({**kept, "pro_spain": ["chit11", "chit14"]}, {**kept, "pro_spain": ["chit16", "chit14"]},
                         end, "pro_france", readings, cup=[], turn=D.turn_index["1629-01"])
    assert umpire and b"chits_recycled" in a
    assert (a == b) == (readings == FACE_DOWN)


def test_an_umpire_s_ruling_lays_the_discards_face_down_for_both_seats() -> None:
    """The reading `discard_pile` switched by the umpire's ruling in a game under way (monferrato §5.1): from then
    on each seat is served the discards' size, the umpire the pile."""
    g = new_game()
    assert "discards" in g.view("pro_france") and "discards_size" not in g.view("pro_france")
    g.send("umpire", type="ruling", reason="the discards lie face down", interpretation=FACE_DOWN)
    for seat in ("pro_france", "pro_spain"):
        assert "discards" not in g.view(seat) and g.view(seat)["discards_size"] == 0
    assert "discards" in g.view("umpire")


def put_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A leak re-introduced: every seat's view served the discards whatever the pile's reading."""
    view = monferrato_projection.view
    monkeypatch.setattr(monferrato_projection, "view", lambda s, seat: {**view(s, seat), "discards": list(s.discards)})


@pytest.mark.parametrize("readings", [None, FACE_DOWN])
def test_a_chit_discarded_face_down_is_the_other_seat_s_secret_and_the_leak_scan_finds_it_put_back_in_a_view(
        readings: dict[str, str] | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """§5 2, §5.1 under `discard_pile: face_down`: the chit Pro-Spain discards at five is among Pro-France's
    secrets (the strings the leak scans search what it is served for), not Pro-Spain's (it laid it), so nothing
    served names it; put back into the view, the scan finds it. Under the public pile it is no one's secret."""
    t = Table(state(hands={"pro_france": ["chit05", "chit04", "chit06", "chit08"],
                           "pro_spain": ["chit11", "chit14", "chit12", "chit02"]}), readings=readings)
    before = FOLD.copy(t.game)
    for sender, command in discarding("chit11"):
        t.send(sender, command)
    face_down = readings == FACE_DOWN
    assert t.game.rules.laid_face_down == ({"pro_spain": ["chit11"]} if face_down else {})
    assert ("chit11" in RULESET.secrets(t.game.rules, "pro_france")) == face_down
    assert "chit11" not in RULESET.secrets(t.game.rules, "pro_spain") | RULESET.secrets(t.game.rules, "umpire")
    assert leaked(t.served(before, "pro_france").decode(), RULESET.secrets(t.game.rules, "pro_france")) == []
    put_back(monkeypatch)
    found = leaked(t.served(before, "pro_france").decode(), RULESET.secrets(t.game.rules, "pro_france"))
    assert found == (["chit11"] if face_down else [])


def test_the_blue_chits_the_cup_sheds_face_down_are_both_seats_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    """§16.4 under `discard_pile: face_down`: the blue chits the cup sheds at March 1629 lie face down, laid by no
    seat: a secret of both, found by the leak scan once put back into either seat's view."""
    t = Table(state(hands={"pro_france": ["chit05", "chit04"], "pro_spain": ["chit11", "chit14"]},
                    cup=[], turn=D.turn_index["1629-01"]), readings=FACE_DOWN)
    shed = sorted(t.game.rules.chit_cup)
    before = FOLD.copy(t.game)
    t.send("pro_spain", {"type": "end_activation"})
    assert shed and t.game.rules.laid_face_down == {monferrato_projection.CUP: shed}
    for seat in ("pro_france", "pro_spain"):
        assert set(shed) <= RULESET.secrets(t.game.rules, seat)
        assert leaked(t.served(before, seat).decode(), shed) == []
    put_back(monkeypatch)
    for seat in ("pro_france", "pro_spain"):
        assert leaked(t.served(before, seat).decode(), RULESET.secrets(t.game.rules, seat)) == shed


def test_a_face_down_discard_is_no_longer_one_back_in_the_cup_or_once_the_pile_is_turned_face_up() -> None:
    """§5.1: the discards go back into the cup when it is empty (the cup's secret from then on, no discard); the
    umpire's ruling turning the pile face up shows what lay in it (no longer anyone's secret)."""
    s = state()
    s.discards, s.chit_cup = s.discards + s.chit_cup, []
    s.laid_face_down = {"pro_france": [s.discards[0]], monferrato_projection.CUP: s.discards[1:3]}
    t = Table(s, readings=FACE_DOWN)
    t.send("pro_spain", {"type": "draw_chit"})
    assert t.game.rules.laid_face_down == {}
    s = state()
    s.discards, s.chit_cup = s.chit_cup[:2], s.chit_cup[2:]
    s.laid_face_down = {"pro_france": s.discards[:1]}
    assert RULESET.validate_position(RULESET.note_interpretations(s, FACE_DOWN)) == []
    assert s.discards[0] in RULESET.secrets(s, "pro_spain")
    assert RULESET.note_interpretations(s, {}).laid_face_down == {}
    s.laid_face_down = {"pro_france": ["chit99"], "nobody": s.discards[:1]}
    assert RULESET.validate_position(s) == ["laid_face_down.nobody: neither a seat nor 'cup'",
                                            "laid_face_down.pro_france: chit 'chit99' is not in discards"]


def test_a_mandatory_chit_in_hand_changes_nothing_served_before_its_owner_must_play_it() -> None:
    """§16.1: a yellow-striped chit must be played first in its owner's activation once it may be played (§16.2, its
    date), and that play shows it; until then, Pro-France is served the same whether Pro-Spain's hidden chit is a
    mandatory one or an optional one: chit01 before Pro-Spain acts; chit09 (mandatory under its condition from
    1628-11) while Pro-Spain plays another chit, activates and moves before that date."""
    a, b, umpire = pair("chit01", [])
    assert a == b and umpire
    a, b, umpire = pair("chit09", PLAY_AND_MOVE)
    assert a == b and umpire


def test_a_response_asked_serves_the_attacker_the_same_whatever_the_defender_holds() -> None:
    """§5.1: before a field battle the defender is asked for a response chit whether its hand holds one or not
    (always with "none"), and declines: Pro-Spain, attacking, is served the same bytes whether Pro-France holds chit07
    (a response chit) or chit16 (none)."""
    moves = [("pro_spain", {"type": "activate", "zones": ["alessandria"], "commander": None}),
             ("pro_spain", {"type": "move", "units": ["spa_inf1", "spa_inf2"], "path": ["valenza"]}),
             ("pro_france", {"type": "respond", "chit": None})]
    a, b, umpire = alike({"pro_france": ["chit07", "chit04", "chit06", "chit05"], "pro_spain": ["chit03", "chit12"]},
                         {"pro_france": ["chit16", "chit04", "chit06", "chit05"], "pro_spain": ["chit03", "chit12"]},
                         moves, "pro_spain", placed={"gon_inf2": "valenza"})
    assert a == b and umpire and b"battle_began" in a


def test_each_seat_sees_its_own_hand_only_and_never_the_cup() -> None:
    g = new_game()
    for seat, rival in (("pro_france", "pro_spain"), ("pro_spain", "pro_france")):
        text = str(g.view(seat)) + str(g.served(seat)) + str(g.legal(seat))
        hidden = RULESET.secrets(g.state, seat)
        assert hidden and not leaked(text, hidden)
        assert all(c in text for c in g.state.hands[seat])
    served = [e["event"] for e in g.served("pro_spain")]
    dealt = [e for e in served if e["type"] == "chits_dealt" and e["seat"] == "pro_france"][0]
    assert dealt["chits"] == ["chit05"]  # only the chit the scenario deals openly
    drawn = [e for e in served if e["type"] == "items_drawn" and "chit" in e["purpose"]]
    assert drawn and all("population" not in e for e in drawn)  # the cup's contents: no one's (engine fix)
    assert [e.get("hidden", False) for e in drawn] == [True, False]  # Pro-France's deal hidden, its own shown
    own = [e for e in served if e["type"] == "items_drawn" and "pro_spain" in e["purpose"]][0]
    assert sorted(own["drawn"]) == sorted(g.state.hands["pro_spain"])


def test_a_draw_serves_the_drawer_the_same_bytes_whatever_else_the_cup_holds() -> None:
    """Non-interference for the cup (§4, §5 2): two games whose cups differ only in chits Pro-Spain does not draw
    serve Pro-Spain the same bytes while it draws one (the chit it draws is its to see)."""
    served = []
    for swap in (("chit16", "chit15"), ("chit15", "chit16")):
        s = state(hands={"pro_france": ["chit05", "chit04", "chit06", swap[0]],
                         "pro_spain": ["chit03", "chit12", "chit14"]})
        t = Table(s)
        before = FOLD.copy(t.game)
        t.send("pro_spain", {"type": "draw_chit"})
        drawn = t.game.rules.hands["pro_spain"][-1]
        served.append((drawn, t.served(before, "pro_spain"), swap[1] in t.game.rules.chit_cup))
    (drawn_a, a, in_cup_a), (drawn_b, b, in_cup_b) = served
    assert in_cup_a and in_cup_b and drawn_a == drawn_b not in ("chit15", "chit16")
    assert a == b and drawn_a.encode() in a


def test_a_refusal_never_names_a_chit_the_sender_may_not_know() -> None:
    g = from_state(state())
    rival = g.state.hands["pro_france"][0]
    rejected = g.reject("pro_spain", "monferrato §5.1", "not in your hand", type="play_chit", chit=rival)
    assert rival not in str(rejected)
    cup = g.state.chit_cup[0]
    assert cup not in str(g.reject("pro_spain", "monferrato §5.1", "not in your hand", type="play_chit", chit=cup))


def test_the_chit_drawn_is_served_to_its_owner_only() -> None:
    g = from_state(state(hands={"pro_france": ["chit05", "chit04", "chit06", "chit08"],
                                "pro_spain": ["chit03", "chit12", "chit14"]}))
    g.send("pro_spain", type="draw_chit")
    mine = [e["event"] for e in g.served("pro_spain") if e["event"]["type"] == "chit_drawn"][0]
    theirs = [e["event"] for e in g.served("pro_france") if e["event"]["type"] == "chit_drawn"][0]
    assert mine["chit"] in g.state.hands["pro_spain"] and theirs["chit"] == ""


def test_a_transcribed_draw_serves_no_seat_the_cup_it_is_made_from() -> None:
    """A table game: the umpire enters the chit drawn; the request served to the drawer (and its frame, and a fork's
    creation) names the command but not the cup, whose contents would give away the other hand by complement."""
    g = from_state(state(), transcribed=True)
    g.send("pro_spain", type="draw_chit")
    umpire = [e["event"] for e in g.served("umpire") if e["type"] == "random_requested"][-1]
    assert sorted(umpire["population"]) == sorted(g.state.chit_cup)
    for seat in ("pro_spain", "pro_france"):
        served = g.served(seat)
        request = [e["event"] for e in served if e["type"] == "random_requested"][-1]
        frame = [e["event"]["frame"] for e in served if e["type"] == "decision_opened"][-1]
        assert request["population"] == [] and frame["ctx"]["population"] == []
        fork = g.app.fork(g.id, g.app.game(g.id).head_seq)
        created = events_of(g.app.log(fork, seat))[0]["event"]
        assert created["initial_core"]["decisions"][-1]["ctx"]["population"] == []
        assert not leaked(str(served) + str(created), RULESET.secrets(g.state, seat))


def test_the_hands_fuzzer_under_the_face_down_pile_swaps_its_chits_and_finds_the_pile_served(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/nifuzz_hands.py `--reading discard_pile=face_down` (the log folded under the ruling from its genesis, its
    events unchanged): from March 1629 (§16.4) the cup's blue chits lie face down (`laid_face_down`), hidden from both
    seats, and the fuzzer swaps them with the cup's chits as it swaps a hand's; every 10th command serves the other
    seat the same bytes (a seat's own draw compared by its listing alone: it draws from the cup the swap changed,
    §5 2), and the pile put back into the view is found."""
    game = nifuzz.replayed_as(LOGS / "monferrato-full.jsonl", "monferrato", {"discard_pile": "face_down"})
    assert any(s.rules.laid_face_down for *_, s in game.positions), "the premise: chits lie face down"
    games, found = nifuzz_hands.fuzz(game, every=10, seed=1)
    assert games > 100 and found == []
    drawing = dataclasses.replace(game, positions=[p for p in game.positions if p[0] == 237])  # Pro-France draws
    assert drawing.positions[0][2] == {"type": "draw_chit"} and nifuzz_hands.fuzz(drawing, count=3) == (6, [])
    view = monferrato_projection.view
    monkeypatch.setattr(monferrato_projection, "view", lambda s, seat: {**view(s, seat), "discards": list(s.discards)})
    games, found = nifuzz_hands.fuzz(game, every=10, seed=1)
    assert {(d.channel, d.what) for d in found} == {("view", "discards")}


def test_the_hands_fuzzer_finds_nothing_in_the_shipped_game_and_finds_a_hand_served(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/nifuzz_hands.py over every 10th command of logs/monferrato-full.jsonl: a chit of one hand swapped with
    one of the cup serves the other seat the same bytes, walked past the decisions each command leaves (a response
    asked, a hit taken); the check bites: the other hand served in the view is found (in every game compared but
    where the owner's own command is refused with the chit swapped in, a mandatory one: §16.1, not compared)."""
    game = replay(LOGS / "monferrato-full.jsonl")
    games, found = nifuzz_hands.fuzz(game, every=10)
    assert games > 50 and found == []
    view = monferrato_projection.view
    monkeypatch.setattr(monferrato_projection, "view", lambda s, seat: {**view(s, seat), "hands": dict(s.hands)})
    games, found = nifuzz_hands.fuzz(game, every=10, count=1)
    assert {(d.channel, d.what) for d in found} == {("view", "hands")} and len(found) > games * 3 // 4
