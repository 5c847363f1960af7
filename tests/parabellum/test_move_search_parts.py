"""A move to a named hex and the movement step's "anything left?" search only as far as they need (issue 15): their
answers are the whole listing's, on the positions of the shipped logs.

At positions of the movement step in a Caldiero and an Arrivano log, for every group or unit that may move: the
destination a move names gets the order, route and path the whole listing gives it (`move_option`,
`destination`), a hex it does not list gets none; the step's first-option lister finds a command exactly when the
listing has one (`Steps.has_options` after every command). The searches kept across positions are emptied before
each part is asked, so the part is searched by itself and never answered by a whole search kept before it."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.arrivano import movement as arrivano_moves
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.arrivano.world import in_command
from arbitro.adjudicator.caldiero import legal as caldiero_legal
from arbitro.adjudicator.caldiero import system_movement
from arbitro.adjudicator.caldiero import system_moves
from arbitro.adjudicator.exchange import read_lines
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum import movement as kernel_movement
from arbitro.adjudicator.parabellum.commander_move import commander_may_move
from arbitro.adjudicator.parabellum.world import World
from arbitro.projections.fold import Fold

LOGS = Path(__file__).resolve().parents[2] / "logs"


def movement_positions(name: str, wanted: int) -> tuple[Any, list[Any]]:
    """`wanted` positions of the log spread over its movement steps, each right after a command's events."""
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

    found = [i for i, rules in states() if rules.step == "movement" and rules.activation is not None and rules.seat]
    assert len(found) >= wanted
    chosen = {found[k * len(found) // wanted] for k in range(wanted)}
    return ruleset, [copy.deepcopy(rules) for i, rules in states() if i in chosen]


def fresh(ruleset: Any, rules: Any, monkeypatch: pytest.MonkeyPatch) -> World:
    """The position read anew, with no search kept from another (so a part is searched by itself)."""
    monkeypatch.setattr(kernel_movement, "SEARCHES", Memo(1024))
    monkeypatch.setattr(system_movement, "ROUTES", Memo(1024))
    return ruleset.world(rules)  # type: ignore[no-any-return]


def asked_hexes(w: World, listed: dict[str, Any], start: str | None) -> list[str]:
    """Some listed destinations and some hexes near the start that are not listed (refused, or out of reach)."""
    near = sorted(w.grid.within(start, 3)) if start else []
    return sorted(listed)[::3] + [h for h in near if h not in listed][::4]


def test_caldiero_moves_and_anything_left_answer_as_the_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset, positions = movement_positions("caldiero-tempo-regge.jsonl", 10)
    compared = 0
    for rules in positions:
        seat = rules.seat
        whole = ruleset.world(rules)
        listed_any = next(iter(caldiero_legal._movement(whole, seat)), None) is not None
        assert (next(iter(caldiero_legal._first_movement(fresh(ruleset, rules, monkeypatch), seat)), None)
                is not None) == listed_any
        for g in caldiero_legal._mover_groups(whole, seat):
            for column in (False, True):
                options = system_moves.move_options(whole, g, column)
                first = system_moves.any_move(fresh(ruleset, rules, monkeypatch), g, column)
                assert (first in options) if options else first is None, (g, column)
                for h in asked_hexes(whole, options, whole.state.units[g[0]].hex):
                    assert system_moves.move_option(fresh(ruleset, rules, monkeypatch), g, column, h) == options.get(h)
                    compared += 1
    assert compared > 100


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
                    listed = arrivano_moves.destinations(whole, uid, column, ic, chosen)
                    for h in asked_hexes(whole, listed, rules.units[uid].hex):
                        w = fresh(ruleset, rules, monkeypatch)
                        assert arrivano_moves.destination(w, uid, column, in_command(w, rules.activation.formation),
                                                          chosen, h) == listed.get(h), (uid, column, chosen, h)
                        compared += 1
        for lid in sorted(l for l in rules.leaders if commander_may_move(ARRIVANO_VARIANT, whole, l, rules.seat)):
            listed = arrivano_moves.leader_destinations(whole, lid)
            for h in asked_hexes(whole, listed, rules.leaders[lid].hex):
                assert arrivano_moves.leader_destinations(fresh(ruleset, rules, monkeypatch), lid, h) == \
                    ({h: listed[h]} if h in listed else {})
                compared += 1
    assert compared > 100
