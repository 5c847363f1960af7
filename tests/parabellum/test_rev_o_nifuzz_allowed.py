"""rev-o O4 (seventeenth session): bench/nifuzz.py's allow-list was matched against the evidence of EVERY channel of
one comparison together, so where a status perturbation made the game wait for a rout move (the inherent difference,
arrivano §15.2.2) every other difference of that comparison passed with it: a leak riding with an inherent wait was
never shown. Now each finding is judged on its own parts alone (the events, or view keys, it holds), and the wait is
answered in the game that waits before the two are compared (tests/parabellum/test_nifuzz.py finds a leak riding with
it at montebello #1441)."""

from __future__ import annotations

from dataclasses import replace

from bench.nifuzz import Finding, event_key, explain

ROUT_MOVE = "decision_opened[rout_move] decision_resolved[end_phase] unit_retreated[arrivano §12.6]"


def finding(channel: str, what: str) -> Finding:
    return Finding("arrivano-montebello", 1441, "france", "austria", "status", "ir28-i disordered->routed", channel,
                   what, '{"type": "end_step"}', "")


def test_a_log_difference_is_not_allowed_by_a_rout_move_wait_seen_in_another_channel() -> None:
    eliminated = finding("log", "unit_eliminated[arrivano §15.2.1]")
    assert explain(eliminated) == "", "an elimination is no part of a rout move's wait"
    assert explain(replace(eliminated, what=f"{ROUT_MOVE} unit_eliminated[arrivano §15.2.1]")) == "", \
        "an event beside the rout move's own is judged on its own"
    assert explain(finding("status", "awaiting/notices")) == "", "the wait is answered: status must agree after it"


def test_the_rout_move_s_own_events_and_marker_are_allowed_but_not_naming_the_unit() -> None:
    assert explain(finding("log", ROUT_MOVE)) != ""
    assert explain(finding("view", "hidden_stacks")) != ""
    assert explain(finding("view", "hidden_stacks units")) == ""
    assert explain(finding("log", f"{ROUT_MOVE} names:ir28-i")) == "", "a served event naming the unseen unit"


def test_a_decision_s_key_is_its_kind_and_a_roll_s_its_purpose() -> None:
    opened = {"type": "decision_opened", "event": {"type": "decision_opened", "frame": {"kind": "rout_move"}}}
    assert event_key(opened) == "decision_opened[rout_move]"
    cut = {"type": "dice_rolled", "event": {"type": "dice_rolled", "purpose": "arrivano §13.1"}}
    told = {"type": "dice_rolled", "event": {"type": "dice_rolled", "purpose": "arrivano §16.3.4 fatigue test in 3014"}}
    marker = replace(finding("log", f"{event_key(cut)} open_order_tested[arrivano §11.3.2]"), kind="marker")
    assert explain(marker) != ""
    assert explain(replace(marker, what=event_key(told))) == "", "a fatigue die naming the unseen stack's hex"
