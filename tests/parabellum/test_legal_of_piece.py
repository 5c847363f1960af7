"""legal(seat, piece=...) (issue 15, python-chess's lazy listing): the commands of the whole listing that name one
piece, in its order, worked out for that piece alone where the step can (a movement step's searches for that unit's
groups only, a leader's for him only). On real positions of both games: every piece's listing is the whole listing's
filtered, so the listings of all pieces and the commands naming none make up the whole one."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from arbitro.adjudicator.arrivano import movement as arrivano_movement
from arbitro.adjudicator.caldiero import legal as caldiero_legal
from arbitro.adjudicator.ruleset import naming, pieces_named
from tests.parabellum.test_move_search_parts import fresh, movement_positions

CASES = [("caldiero-tempo-regge.jsonl", "movement"), ("caldiero-tempo-regge.jsonl", "leaders"),
         ("arrivano-montebello.jsonl", "movement"), ("arrivano-montebello.jsonl", "combat")]


def pieces(rules: Any) -> list[str]:
    return sorted({*rules.units, *rules.leaders}) + ["no-such-piece"]


@pytest.mark.parametrize(("log", "step"), CASES)
def test_each_piece_s_listing_is_the_whole_listing_s_commands_naming_it(log: str, step: str) -> None:
    ruleset, positions = movement_positions(log, 3, step)
    named = 0
    for rules in positions:
        seat = rules.seat
        whole = ruleset.legal(copy.deepcopy(rules), seat)
        by_piece = {p: ruleset.legal_of(copy.deepcopy(rules), seat, p) for p in pieces(rules)}
        for p, listed in by_piece.items():
            assert listed == naming(whole, p), f"{log} {step}: {p}"
        # the union, in the whole listing's order: each command naming a piece is in that piece's listing
        union = [c for c in whole if any(c in by_piece[p] for p in pieces_named(c))]
        assert union == [c for c in whole if pieces_named(c)]
        assert ruleset.legal_of(copy.deepcopy(rules), "nobody", rules.units and sorted(rules.units)[0]) == []
        named += len(union)
    assert named > 0  # the positions list moves, leader moves or assaults


def test_a_caldiero_unit_s_listing_searches_only_its_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset, positions = movement_positions("caldiero-tempo-regge.jsonl", 3)
    asked: list[tuple[str, ...]] = []
    options = caldiero_legal.move_options
    monkeypatch.setattr(caldiero_legal, "move_options", lambda w, g, column: asked.append(g) or options(w, g, column))
    for rules in positions:
        w = fresh(ruleset, copy.deepcopy(rules), monkeypatch)
        whole = ruleset.legal(copy.deepcopy(rules), rules.seat)  # a unit the whole listing moves (one may have none)
        movers = sorted(u for u in w.state.activation.units if u not in w.state.activation.moved
                        and any(c["type"] == "move" and u in c["units"] for c in whole))
        asked.clear()
        listed = ruleset.legal_of(w.state, w.state.seat, movers[0])
        assert asked and all(movers[0] in g for g in asked), asked
        assert listed and all(movers[0] in c["units"] for c in listed)


def test_an_arrivano_unit_s_listing_searches_only_its_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset, positions = movement_positions("arrivano-montebello.jsonl", 3)
    asked: list[str] = []
    destinations = arrivano_movement.destinations
    monkeypatch.setattr(arrivano_movement, "destinations", lambda w, uid, *a: asked.append(uid) or destinations(w, uid, *a))
    checked = 0
    for rules in positions:
        seat = rules.seat
        whole = ruleset.legal(copy.deepcopy(rules), seat)
        movers = sorted({c["unit"] for c in whole if c["type"] == "move"})
        if not movers:
            continue
        asked.clear()
        listed = ruleset.legal_of(copy.deepcopy(rules), seat, movers[-1])
        assert asked and set(asked) == {movers[-1]}, asked
        assert listed == naming(whole, movers[-1]) and listed
        checked += 1
    assert checked > 0
