"""What a seat is served, field by field (projections/views.py, arbitro §V): the engine's part of a view, each kind of
engine event as a seat sees it, and the envelope around it. Exact dictionaries, so that a field dropped, renamed or
left in where it must go fails here, not only in a distant leak check that searches for strings (and cannot see a
bare die value)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.events import core
from arbitro.events.codec import to_builtins
from arbitro.events.records import EventBody
from arbitro.projections.base import UMPIRE
from arbitro.projections.disputes import WITHHELD
from arbitro.projections.game import CoreState, GameState
from arbitro.projections.views import UMPIRE_ONLY, redact_event, redact_frame, seat_view, serve_event
from tests.foundation.duel import Attack, DuelState, TurnEnded

from .conftest import DUEL

registry.register("duel", DUEL)
DUEL_RULES = registry.get("duel")
RULES = DuelState(hp={"red": 5, "blue": 4}, cards={"red": "ruby", "blue": "jade"}, played={"red": False, "blue": False},
                  attack=Attack(attacker="red", aim="high"))


def state(**core_fields: Any) -> GameState[Any]:
    return GameState(core=CoreState(**core_fields), rules=RULES)


def plain(data: Any) -> Any:
    """As the seat receives it: JSON (tuples become lists)."""
    return json.loads(json.dumps(data))


def served(event: Any, seat: str, **core_fields: Any) -> Any:
    return plain(redact_event(DUEL_RULES, event, seat, state(**core_fields)))


# --- the view ------------------------------------------------------------------------------------------------
def test_a_seats_view_holds_the_engines_public_bookkeeping_and_the_rulesets_view() -> None:
    frame = core.Frame(kind="consent", seats=("blue",), rule="arbitro §U.2", prompt="blue: consent to the undo?",
                       ctx=core.UndoConsent(undo_to=3, requested_by="red"))
    game = state(seq=12, rolls=4, seed="ab" * 32, interpretations={"zeta": "b", "alpha": "a"}, decisions=(frame,))
    view = plain(seat_view(DUEL_RULES, game, "red"))
    assert view == {
        "seat": "red",
        "engine": {"seq": 12, "rolls": 4, "seed_revealed": True, "interpretations": {"alpha": "a", "zeta": "b"},
                   "decisions": [{"kind": "consent", "seats": ["blue"], "rule": "arbitro §U.2",
                                  "prompt": "blue: consent to the undo?"}]},
        "state": plain(DUEL_RULES.view(RULES, "red")),
    }
    assert list(view["engine"]["interpretations"]) == ["alpha", "zeta"]  # sorted, whatever order they were chosen in
    assert "ruby" in json.dumps(view) and "jade" not in json.dumps(view)  # the ruleset's view, not the state


def test_the_umpires_view_is_the_whole_state_and_no_decision_means_no_decisions_entry() -> None:
    view = plain(seat_view(DUEL_RULES, state(seq=3), UMPIRE))
    assert view == {"seat": UMPIRE, "engine": {"seq": 3, "rolls": 0, "seed_revealed": False, "interpretations": {}},
                    "state": {"round": 1, "rounds": 6, "active": "red", "hp": {"red": 5, "blue": 4},
                              "cards": {"red": "ruby", "blue": "jade"}, "played": {"red": False, "blue": False},
                              "bonus": {}, "attack": {"attacker": "red", "aim": "high"}}}


# --- rolls and draws -----------------------------------------------------------------------------------------
ROLL = core.DiceRolled(index=2, count=2, sides=6, values=(3, 5), purpose="duel recovery", visible_to=("red",))
DRAW = core.ItemsDrawn(index=3, population=("a", "b", "c"), drawn=("b",), purpose="a card", visible_to=("red",))


def test_a_hidden_roll_loses_its_values_for_the_seats_it_is_hidden_from_and_says_so() -> None:
    assert served(ROLL, "blue") == {"type": "dice_rolled", "index": 2, "count": 2, "sides": 6, "purpose": "duel recovery",
                                    "detail": {}, "source": "seed", "visible_to": ["red"], "about": [], "hidden": True}
    assert served(ROLL, "red") == served(ROLL, UMPIRE)  # the seat it is visible to: whole
    assert served(ROLL, "red")["values"] == [3, 5] and "hidden" not in served(ROLL, "red")  # type: ignore[index,operator]
    public = core.DiceRolled(index=2, count=2, sides=6, values=(3, 5), purpose="duel recovery")
    assert served(public, "blue")["values"] == [3, 5]  # type: ignore[index]


def test_a_hidden_draw_loses_what_was_drawn_and_from_what() -> None:
    assert served(DRAW, "blue") == {"type": "items_drawn", "index": 3, "purpose": "a card", "source": "seed",
                                    "visible_to": ["red"], "hidden": True}
    # the drawer sees what it drew, never the pool it came from (the rest of a hidden pool is another seat's
    # secret, engine-rules §V.5); the umpire sees both
    assert served(DRAW, "red") == {"type": "items_drawn", "index": 3, "drawn": ["b"], "purpose": "a card",
                                   "source": "seed", "visible_to": ["red"]}
    assert served(DRAW, UMPIRE)["population"] == ["a", "b", "c"]  # type: ignore[index]
    public = core.ItemsDrawn(index=3, population=("a", "b", "c"), drawn=("b",), purpose="a card")
    assert served(public, "blue") == plain(to_builtins(public))  # a public draw: whole, its pool included


# --- a suspended command's roll to enter (transcribed games) ---------------------------------------------------
REQUEST = core.RandomRequested(seat="umpire", command_seat="red", command={"type": "attack", "aim": "high"},
                               kind="draw", count=1, population=("x", "y"), purpose="a card", entered=(("x",),))


def test_a_suspended_command_is_shown_to_the_others_as_its_type_and_what_must_be_entered() -> None:
    assert served(REQUEST, "blue") == {"type": "random_requested", "seat": "umpire", "command_seat": "red",
                                       "command": {"type": "attack"}, "kind": "draw", "count": 1, "sides": 0,
                                       "population": [], "purpose": "a card", "entered": [], "about": []}
    assert served(REQUEST, "red")["command"] == {"type": "attack", "aim": "high"}  # its own: whole  # type: ignore[index]


def test_a_frame_waiting_for_a_roll_to_enter_is_redacted_as_its_request_is() -> None:
    entry = core.RandomEntry(command_seat="red", command='{"aim":"high","type":"attack"}', kind="draw", count=1,
                             population=("x", "y"), purpose="a card", entered=(("x",),))
    frame = core.Frame(kind="random", seats=("umpire",), rule="arbitro §R.4", prompt="enter", ctx=entry)
    blue = plain(redact_frame(DUEL_RULES, frame, "blue", RULES))
    assert blue == {"kind": "random", "seats": ["umpire"], "rule": "arbitro §R.4", "prompt": "enter",
                    "ctx": {"ctx": "random_entry", "command_seat": "red", "command": '{"type":"attack"}',
                            "kind": "draw", "count": 1, "sides": 0, "population": [], "purpose": "a card",
                            "entered": [], "about": []}}
    assert redact_frame(DUEL_RULES, frame, "red", RULES)["ctx"]["command"] == '{"aim":"high","type":"attack"}'


# --- what only the umpire sees ---------------------------------------------------------------------------------
def test_a_checkpoints_state_hash_and_a_private_rulings_patch_are_the_umpires_only() -> None:
    checkpoint = core.Checkpoint(state_hash="f" * 64, reason="round ended")
    assert served(checkpoint, "red") == {"type": "checkpoint", "state_hash": UMPIRE_ONLY, "reason": "round ended"}
    assert served(checkpoint, UMPIRE)["state_hash"] == "f" * 64  # type: ignore[index]
    private = core.RulingMade(reason="a misplaced card", patch=({"op": "replace", "path": "/hp/red", "value": 1},))
    assert served(private, "blue") == {"type": "ruling_made", "reason": "a misplaced card", "patch": UMPIRE_ONLY,
                                       "interpretation": {}, "public_patch": False}
    reading = core.RulingMade(reason="the reading", interpretation={"x": "y"})
    assert served(reading, "blue")["patch"] == []  # nothing withheld: no placeholder  # type: ignore[index]
    public = core.RulingMade(reason="shown", patch=({"op": "replace", "path": "/hp/red", "value": 1},), public_patch=True)
    assert served(public, "blue")["patch"] == [{"op": "replace", "path": "/hp/red", "value": 1}]  # type: ignore[index]


# --- the envelope ----------------------------------------------------------------------------------------------
def body(event: Any) -> EventBody[Any]:
    return EventBody(game="g", seq=9, cmd=4, seat="red", event=event, prev="p" * 64, cmd_hash="c" * 64, salt="s" * 32)


def test_an_event_served_whole_keeps_its_salt_and_a_redacted_one_loses_it() -> None:
    whole = plain(serve_event(DUEL_RULES, body(ROLL), "h" * 64, "red", state()))
    assert whole == {"seq": 9, "cmd": 4, "seat": "red", "type": "dice_rolled", "event": served(ROLL, "red"),
                     "hash": "h" * 64, "prev": "p" * 64, "cmd_hash": "c" * 64, "salt": "s" * 32}
    redacted = plain(serve_event(DUEL_RULES, body(ROLL), "h" * 64, "blue", state()))
    assert redacted == {"seq": 9, "cmd": 4, "seat": "red", "type": "dice_rolled", "event": served(ROLL, "blue"),
                        "hash": "h" * 64, "prev": "p" * 64, "cmd_hash": "c" * 64}
    assert serve_event(DUEL_RULES, body(ROLL), "h" * 64, UMPIRE, state())["salt"] == "s" * 32  # type: ignore[index]


def test_an_event_the_ruleset_hides_is_served_as_a_bare_envelope(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DUEL_RULES, "redact", lambda event, seat, rules: None)
    hidden = plain(serve_event(DUEL_RULES, body(TurnEnded(seat="red", rule="duel §1")), "h" * 64, "blue", state()))
    assert hidden == {"seq": 9, "cmd": 4, "seat": "red", "type": "hidden", "hash": "h" * 64, "prev": "p" * 64}


# --- decisions and the game's creation -------------------------------------------------------------------------
ENTRY = core.RandomEntry(command_seat="red", command='{"aim":"high","type":"attack"}', kind="roll", count=1, sides=6)
WAITING = core.Frame(kind="random", seats=("umpire",), rule="arbitro §R.4", prompt="enter a d6", ctx=ENTRY)
REDACTED_ENTRY = {"ctx": "random_entry", "command_seat": "red", "command": '{"type":"attack"}', "kind": "roll",
                  "count": 1, "sides": 6, "population": [], "purpose": "", "entered": [], "about": []}


def test_an_opened_or_revised_decision_is_served_with_its_frame_redacted() -> None:
    opened = served(core.DecisionOpened(frame=WAITING), "blue")
    assert opened == {"type": "decision_opened", "frame": {"kind": "random", "seats": ["umpire"], "rule": "arbitro §R.4",
                                                           "prompt": "enter a d6", "ctx": REDACTED_ENTRY}}
    revised = served(core.DecisionRevised(kind="random", seats=("umpire",), prompt="enter a d6", ctx=ENTRY), "blue")
    assert revised == {"type": "decision_revised", "kind": "random", "seats": ["umpire"], "prompt": "enter a d6",
                       "ctx": REDACTED_ENTRY}
    assert served(core.DecisionOpened(frame=WAITING), "red")["frame"]["ctx"]["command"] == ENTRY.command  # its own


def test_a_fork_made_while_a_roll_waits_serves_its_creation_as_the_parent_served_the_wait() -> None:
    created = core.GameCreated(ruleset="duel", version="1", scenario="standard", options=(), kind="transcribed",
                               seats=("red", "blue"), seed_commitment="0" * 64, data_hash="1" * 64,
                               origin={"fork": "g", "at": 7, "cmd": 3, "hash": "2" * 64}, initial=plain(to_builtins(RULES)),
                               initial_core={"decisions": [plain(to_builtins(WAITING))]})
    blue = served(created, "blue", decisions=(WAITING,))
    assert blue["initial"] == plain(DUEL_RULES.view(RULES, "blue"))  # the ruleset's view, not the state
    assert "ruby" not in json.dumps(blue) and blue["initial_core"]["decisions"] == [
        {"kind": "random", "seats": ["umpire"], "rule": "arbitro §R.4", "prompt": "enter a d6", "ctx": REDACTED_ENTRY}]
    assert {k: v for k, v in blue.items() if k not in ("initial", "initial_core", "origin")} == \
        {k: v for k, v in served(created, UMPIRE).items() if k not in ("initial", "initial_core", "origin")}
    assert blue["origin"] == {"fork": "g", "at": 3, "hash": "2" * 64}  # the parent's command, not event (§V.6)
    assert served(created, UMPIRE)["initial"]["cards"] == {"red": "ruby", "blue": "jade"}


# --- the ruleset's own redaction, and what the engine makes of it ----------------------------------------------
class Chosen(core.FrameContext, tag="chosen"):
    """A ruleset's own decision context (not one of the engine's)."""

    secret: str


def test_a_rulesets_own_frame_is_served_as_the_ruleset_redacts_it_and_an_engine_frame_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The engine cannot know what a ruleset's context hides (a fog, a hand): the ruleset redacts its own frames,
    given the frame, the seat served and the rules after the event; the engine's own frames are public."""
    asked: list[tuple[Any, str, Any]] = []

    def redact_frame(frame: Any, seat: str, rules: Any) -> dict[str, Any]:
        asked.append((frame, seat, rules))
        return {"kind": frame.kind, "redacted for": seat}

    monkeypatch.setattr(DUEL_RULES, "redact_frame", redact_frame)
    own = core.Frame(kind="choose", seats=("red",), rule="duel §2", prompt="choose", ctx=Chosen(secret="ruby"))
    assert redact_frame_of(own, "blue") == {"kind": "choose", "redacted for": "blue"}
    assert asked == [(own, "blue", RULES)]
    consent = core.Frame(kind="consent", seats=("blue",), rule="arbitro §U.2", prompt="consent?",
                         ctx=core.UndoConsent(undo_to=3, undo_cmd=1, requested_by="red"))
    assert redact_frame_of(consent, "umpire") == plain(to_builtins(consent)) and len(asked) == 1
    # a seat reads the point by the requester's command, never the log's event (engine-rules §V.6)
    whole = plain(to_builtins(consent))
    seat_ctx = {k: v for k, v in whole["ctx"].items() if k != "undo_cmd"}
    assert redact_frame_of(consent, "blue") == {**whole, "ctx": {**seat_ctx, "undo_to": 1}}
    older = core.Frame(kind="consent", seats=("blue",), rule="arbitro §U.2", prompt="consent?",
                       ctx=core.UndoConsent(undo_to=3, requested_by="red"))
    assert redact_frame_of(older, "red")["ctx"]["undo_to"] == "(seen by the umpire only)" and len(asked) == 1


def redact_frame_of(frame: core.Frame[Any], seat: str) -> Any:
    return plain(redact_frame(DUEL_RULES, frame, seat, RULES))


def test_a_roll_to_enter_is_redacted_by_the_ruleset_as_its_request_and_its_command_stays_canonical(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A frame waiting for a suspended command's roll goes through the ruleset's redaction of rolls (its fog) with
    the seat and the rules; what the ruleset leaves of the command is served as canonical JSON (sorted keys, no
    spaces), as a command is stored, and a ruleset that drops the command leaves an empty one."""
    asked: list[tuple[str, Any]] = []

    def keep_a_field(data: dict[str, Any], seat: str, rules: Any) -> dict[str, Any]:
        asked.append((seat, rules))
        return {**data, "command": {"type": "attack", "aim": "high"}}

    monkeypatch.setattr(DUEL_RULES, "redact_random", keep_a_field)
    assert redact_frame_of(WAITING, "blue")["ctx"]["command"] == '{"aim":"high","type":"attack"}'
    assert asked == [("blue", RULES)]
    monkeypatch.setattr(DUEL_RULES, "redact_random", lambda data, seat, rules: {k: v for k, v in data.items()
                                                                                if k != "command"})
    assert redact_frame_of(WAITING, "blue")["ctx"]["command"] == "{}"


def test_the_envelopes_type_is_a_string_even_when_the_redacted_event_names_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DUEL_RULES, "redact", lambda event, seat, rules: {"seat": "red"})
    envelope = serve_event(DUEL_RULES, body(TurnEnded(seat="red", rule="duel §1")), "h" * 64, "blue", state())
    assert envelope is not None and envelope["type"] == "" and envelope["event"] == {"seat": "red"}


def test_a_private_dispute_message_is_its_writers_and_the_umpires_only() -> None:
    """arbitro §D.4: who disputes is every seat's; the words of a private claim, and what it disputes, are not."""
    claim = core.DisputeOpened(dispute=1, rule="arbitro §D.1", by="red", about=(4,), text="blue saw my card",
                               private=True)
    for seat in ("red", UMPIRE):
        assert served(claim, seat) == plain(to_builtins(claim))
    assert served(claim, "blue") == {**plain(to_builtins(claim)), "text": WITHHELD, "about": WITHHELD}


def test_the_engines_other_events_are_served_whole_whatever_the_ruleset_hides(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's events are the engine's to redact: a ruleset that hides its own events does not hide a reveal,
    an undo or an entropy mix (each seat checks the dice and the chain with them)."""
    monkeypatch.setattr(DUEL_RULES, "redact", lambda event, seat, rules: None)
    for event in (core.SeedRevealed(seed="5e" * 32, reason="the end"),
                  core.Undone(to_seq=5, by="red", reason="taken back", rule="arbitro §U.1"),
                  core.EntropyMixed(seats=("red", "blue"), mix="2" * 64, rule="arbitro §R.2")):
        assert served(event, "blue") == plain(to_builtins(event))


def test_every_frame_a_ruleset_opened_reaches_its_redaction_with_the_seat_and_the_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A decision opened or revised, a fork's creation carrying a pending decision, a roll and a request for one: each
    passes through the ruleset's redaction with the seat served and the rules after the event (a revision as the
    frame it makes, without a rule), and is served as the ruleset redacted it."""
    frames: list[tuple[Any, str, Any]] = []
    rolls: list[tuple[str, Any]] = []
    monkeypatch.setattr(DUEL_RULES, "redact_frame", lambda frame, seat, rules: (
        frames.append((frame, seat, rules)), {"kind": frame.kind, "ctx": {"ctx": "chosen", "for": seat}})[1])
    monkeypatch.setattr(DUEL_RULES, "redact_random", lambda data, seat, rules: (
        rolls.append((seat, rules)), {"type": data["type"], "shown": seat})[1])
    own = core.Frame(kind="choose", seats=("red",), rule="duel §2", prompt="choose", ctx=Chosen(secret="ruby"))
    assert served(core.DecisionOpened(frame=own), "blue")["frame"] == {"kind": "choose",
                                                                      "ctx": {"ctx": "chosen", "for": "blue"}}
    revised = served(core.DecisionRevised(kind="choose", seats=("red",), prompt="again", ctx=Chosen(secret="jade")),
                     "blue")
    assert revised["ctx"] == {"ctx": "chosen", "for": "blue"} and "jade" not in json.dumps(revised)
    created = core.GameCreated(ruleset="duel", version="1", scenario="standard", options=(), kind="transcribed",
                               seats=("red", "blue"), seed_commitment="0" * 64, data_hash="1" * 64,
                               origin={"fork": "g", "at": 7, "hash": "2" * 64}, initial=plain(to_builtins(RULES)),
                               initial_core={"decisions": [plain(to_builtins(own))]})
    assert served(created, "blue", decisions=(own,))["initial_core"]["decisions"] == [
        {"kind": "choose", "ctx": {"ctx": "chosen", "for": "blue"}}]
    assert frames == [(own, "blue", RULES),
                      (core.Frame(kind="choose", seats=("red",), rule="", prompt="again", ctx=Chosen(secret="jade")),
                       "blue", RULES),
                      (own, "blue", RULES)]
    assert served(ROLL, "blue") == {"type": "dice_rolled", "shown": "blue"} and rolls == [("blue", RULES)]
    assert served(REQUEST, "blue") == {"type": "random_requested", "shown": "blue"} and rolls[1:] == [("blue", RULES)]
