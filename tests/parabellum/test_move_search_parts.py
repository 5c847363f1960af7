"""A move to a named hex and the movement step's "anything left?" search only as far as they need (issue 15): their
answers are the whole listing's, on the positions of the shipped logs.

At positions of the movement step in a Caldiero and an Arrivano log, for every group or unit that may move: the
destination a move names gets the order, route and path the whole listing gives it (`move_option`,
`destination`), a hex it does not list gets none; the step's first-option lister finds a command exactly when the
listing has one (`Steps.has_options` after every command). The searches kept across positions are emptied before
each part is asked, so the part is searched by itself and never answered by a whole search kept before it."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.arrivano import movement as arrivano_moves
from arbitro.adjudicator.arrivano.world import in_command
from arbitro.adjudicator.caldiero import legal as caldiero_legal
from arbitro.adjudicator.caldiero import system_moves
from arbitro.adjudicator.exchange import read_lines
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum import movement as kernel_movement
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum.commander_move import (
    any_commander_end, commander_may_move, commander_move, leader_entry, leader_ends,
)
from arbitro.adjudicator.parabellum.world import World
from arbitro.projections.fold import Fold

LOGS = Path(__file__).resolve().parents[2] / "logs"


def movement_positions(name: str, wanted: int, step: str = "movement") -> tuple[Any, list[Any]]:
    """`wanted` positions of the log spread over its `step` steps, each right after a command's events."""
    loaded = read_lines((LOGS / name).read_text(encoding="utf-8").splitlines(), name)
    ruleset = registry.get(loaded.game.ruleset)
    fold = Fold(ruleset)
    bodies = [fold.decode_checked(e.body) for e in loaded.events]
    def states() -> Iterator[tuple[int, Any]]:
        state = None
        for i, body in enumerate(bodies):
            state = fold.apply(state, body, lambda seq: fold.fold(bodies[:seq]))  # may change `state` in place
            if i + 1 == len(bodies) or bodies[i + 1].cmd != body.cmd:
                yield i, state.rules

    found = [i for i, rules in states() if rules.step == step and rules.activation is not None and rules.seat]
    assert len(found) >= wanted
    chosen = {found[k * len(found) // wanted] for k in range(wanted)}
    return ruleset, [copy.deepcopy(rules) for i, rules in states() if i in chosen]


def fresh(ruleset: Any, rules: Any, monkeypatch: pytest.MonkeyPatch) -> World:
    """The position read anew, with no search kept from another (so a part is searched by itself)."""
    monkeypatch.setattr(kernel_movement, "SEARCHES", Memo(1024))
    return ruleset.world(rules)  # type: ignore[no-any-return]


def asked_hexes(w: World, listed: dict[str, Any], start: str | None) -> list[str]:
    """Some listed destinations and some hexes near the start that are not listed (refused, or out of reach)."""
    near = sorted(w.grid.within(start, 3)) if start else []
    return sorted(listed)[::3] + [h for h in near if h not in listed][::4]


def parts_agree(whole: World, options: dict[str, Any], start: str | None, part: Callable[[str], Any]) -> int:
    """Each asked hex's part, searched by itself, is the listing's answer for that hex; how many were asked."""
    asked = asked_hexes(whole, options, start)
    for h in asked:
        assert part(h) == options.get(h), h
    return len(asked)


def first_agrees(lister: Any, first: Any, whole: World, alone: World, seat: str) -> None:
    """A step's `first` lister, asked by itself, finds a command exactly when the whole listing has one."""
    assert (next(iter(first(alone, seat)), None) is not None) == (next(iter(lister(whole, seat)), None) is not None)


def any_agrees(found: str | None, options: dict[str, Any]) -> None:
    """An "anything left?" answer is one of the listed options, or None when none is listed."""
    assert (found in options) if options else found is None, (found, sorted(options))


def caldiero_positions(step: str, wanted: int, lister: Any, first: Any,
                       monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, World, Callable[[], World]]]:
    """Positions of tempo-regge's `step`: (its state, the position read once, a maker of it read anew with no kept
    search), the step's `first` lister checked against its `lister` at each."""
    ruleset, positions = movement_positions("caldiero-tempo-regge.jsonl", wanted, step)
    for rules in positions:
        whole = ruleset.world(rules)
        alone = lambda rules=rules: fresh(ruleset, rules, monkeypatch)  # noqa: E731
        first_agrees(lister, first, whole, alone(), rules.seat)
        yield rules, whole, alone


def recorded(option: tuple[str, Any] | None) -> tuple[str, tuple[str, ...], int] | None:
    """A Caldiero move option as its event records it: the order, the path and its cost."""
    return None if option is None else (option[0], tuple(option[1].path), option[1].cost_half)


def test_caldiero_moves_and_anything_left_answer_as_the_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    compared = 0
    for rules, whole, alone in caldiero_positions("movement", 10, caldiero_legal._movement,
                                                  caldiero_legal._first_movement, monkeypatch):
        for g in caldiero_legal._mover_groups(whole, rules.seat):
            for column in (False, True):
                options = {h: recorded(o) for h, o in system_moves.move_options(whole, g, column).items()}
                any_agrees(system_moves.any_move(alone(), g, column), options)
                compared += parts_agree(whole, options, whole.state.units[g[0]].hex,
                                        lambda h: recorded(system_moves.move_option(alone(), g, column, h)))
    assert compared > 100


def test_caldiero_leaders_moves_and_anything_left_answer_as_the_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The leaders' step (caldiero §4.1.4, §4.2): a commander in chief ends within his limit or as near it as he can
    get (§4.2.2), so his part is searched only where the limit lets him end there whatever else he reaches."""
    compared = 0
    for rules, whole, alone in caldiero_positions("leaders", 12, caldiero_legal._leader_moves,
                                                  caldiero_legal.CALDIERO_STEPS.rows["leaders"].first, monkeypatch):
        for leader in system_moves.movable_leaders(whole, rules.seat):
            options = leader_ends(CALDIERO_VARIANT, whole, leader)
            fresh = alone()
            any_agrees(any_commander_end(CALDIERO_VARIANT, fresh, commander_move(CALDIERO_VARIANT, fresh, leader)), options)
            entry = leader_entry(whole, leader)
            compared += parts_agree(whole, options, rules.leaders[leader].hex or entry,
                                    lambda h: leader_ends(CALDIERO_VARIANT, alone(), leader, to=h).get(h))
    assert compared > 30


def test_arrivano_moves_answer_as_the_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset, positions = movement_positions("arrivano-montebello.jsonl", 10)
    compared = 0
    for rules in positions:
        whole = ruleset.world(rules)
        ic = in_command(whole, rules.activation.formation)
        for uid in sorted(u for u, s in rules.units.items() if s.side == rules.seat):
            if arrivano_moves.may_move(whole, uid) is not None:
                continue
            for column in (False, True):
                for chosen in arrivano_moves.artillery_orders(whole, uid, ic) if rules.units[uid].arm == "artillery" \
                        else [None]:
                    def part(h: str) -> tuple[str, ...] | None:
                        w = fresh(ruleset, rules, monkeypatch)
                        return arrivano_moves.destination(w, uid, column, in_command(w, rules.activation.formation),
                                                          chosen, h)

                    listed = arrivano_moves.destinations(whole, uid, column, ic, chosen)
                    compared += parts_agree(whole, listed, rules.units[uid].hex, part)
        for lid in sorted(l for l in rules.leaders if commander_may_move(whole, l, rules.seat)):
            compared += parts_agree(whole, leader_ends(ARRIVANO_VARIANT, whole, lid), rules.leaders[lid].hex,
                                    lambda h: leader_ends(ARRIVANO_VARIANT, fresh(ruleset, rules, monkeypatch), lid,
                                                                to=h).get(h))
    assert compared > 100
