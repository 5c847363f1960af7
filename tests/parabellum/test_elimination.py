"""Elimination (parabellum/elimination.py), written once, for both variants: gone for good or to the turn track
(caldiero §12.8, arrivano §12.8), the event's cause and citation, the return turn by the command range as the
variant measures it (D35), and the commanders a loss leaves alone (caldiero §4.4.4, arrivano §4.5.4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from arbitro.adjudicator.parabellum import elimination
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events.parabellum import LeaderLost, UnitEliminated
from tests.parabellum.position import GRID, Piece, Position


@dataclass
class Board(Position):
    """A Position with what an elimination reads: each unit's reduced side and whether it shows it, the turn,
    and command lines that enemy-held `blocked` hexes stop (the traced range)."""

    reduced_side: dict[str, bool] = field(default_factory=dict)  # unit -> it has a reduced side (True unless given)
    showing_reduced: frozenset[str] = frozenset()
    blocked: frozenset[str] = frozenset()
    turn: int = 3

    @property
    def state(self) -> Any:
        units = {u: SimpleNamespace(side=p.side, reduced=u in self.showing_reduced) for u, p in self.units.items()}
        return SimpleNamespace(units=units, turn=self.turn)

    @property
    def counters(self) -> Any:
        class Counters:
            def unit(_, u: str) -> Any:  # noqa: N805
                return SimpleNamespace(reduced=1 if self.reduced_side.get(u, True) else None)

            def leader(_, leader: str) -> Any:  # noqa: N805
                return SimpleNamespace(command_range=self.ranges[leader])
        return Counters()

    def side_units_at(self, h: str, side: str) -> list[str]:
        return [u for u in self.units_at(h) if self.units[u].side == side]

    def leaders_at(self, h: str, side: str | None = None) -> list[str]:
        return sorted(x for x, at in self.leaders.items() if at == h and (side is None or self.leader_side(x) == side))

    def officers_of(self, u: str) -> list[str]:
        return []

    def command_reach(self, leader: str) -> frozenset[str]:
        """Within range, by steps that never enter a blocked hex."""
        reach, frontier = {self.leaders[leader]}, {self.leaders[leader]}
        for _ in range(self.ranges[leader]):
            frontier = {n for h in frontier for n in GRID.neighbours(h) if n not in self.blocked} - reach
            reach |= frontier
        return frozenset(reach)


class Game:
    """An elimination's game: the dice given in order, the events emitted, the commanders sent to their friends."""

    def __init__(self, board: Board, *dice: int) -> None:
        self.board, self.dice = board, list(dice)
        self.events: list[Any] = []
        self.refuge: list[tuple[str, str]] = []

    def world(self) -> Board:
        return self.board

    def emit(self, event: Any) -> None:
        self.events.append(event)
        if isinstance(event, UnitEliminated):  # off the map now
            piece = self.board.units[event.unit]
            self.board.units[event.unit] = Piece(piece.side, None, piece.status, piece.arm, piece.formation)
        if isinstance(event, LeaderLost):
            del self.board.leaders[event.leader]

    def leader_die(self, leader: str, cause: str) -> int:
        return self.dice.pop(0)

    def after_leader_lost(self, leader: str) -> None:
        pass

    def to_nearest_friends(self, leader: str, h: str) -> None:
        self.refuge.append((leader, h))


GENERAL = {"g": ("general", "france", "f1", 3)}


def board(**kw: Any) -> Board:
    units = {"a": Piece("france", "1112"), "b": Piece("france", "1112"), "far": Piece("france", "1412"),
             "foe": Piece("austria", "1312")}
    return Board(units, leaders={"g": "1112"}, generals={"f1": "g"}, ranges={"g": 3}, leader_info=GENERAL, **kw)


def test_a_full_unit_with_a_reduced_side_goes_to_the_turn_track(variant: Variant) -> None:
    """§12.8 in both: flipped and back next turn within its general's range; the event names the cause (the
    forcing rule first) and cites §12.8 after it."""
    game = Game(board())
    elimination.eliminate(game, variant, "a", variant.rules.RESULTS, because="a DR", result="Ae")
    cause = f"a DR; {variant.rules.RESULTS} (Ae result)"
    assert game.events == [UnitEliminated(unit="a", permanent=False, return_turn=4, cause=cause,
                                          rule=f"{cause}; {variant.rules.ELIMINATED}")]


@pytest.mark.parametrize("why", ["forced", "showing reduced", "no reduced side"])
def test_gone_for_good(variant: Variant, why: str) -> None:
    """§12.8 in both: for good when a rule says so, when it shows its reduced side, or has none; the event cites the
    rule applied."""
    game = Game(board(showing_reduced=frozenset({"a"}) if why == "showing reduced" else frozenset(),
                      reduced_side={"a": why != "no reduced side"}))
    elimination.eliminate(game, variant, "a", variant.rules.OFF_MAP, permanent=why == "forced")
    assert game.events == [UnitEliminated(unit="a", permanent=True, return_turn=0, rule=str(variant.rules.OFF_MAP),
                                          cause=str(variant.rules.OFF_MAP))]


def test_a_unit_off_the_map_is_not_eliminated_again(variant: Variant) -> None:
    b = board()
    b.units["a"] = Piece("france", None)
    game = Game(b)
    elimination.eliminate(game, variant, "a", variant.rules.RESULTS)
    assert game.events == []


def test_the_return_range_as_the_variant_measures_it(variant: Variant) -> None:
    """D35: "far" (1412) is three hexes from its general, the range, but no traced line leaves his hex: caldiero
    (traced, neutral) returns it two turns later, arrivano (counted) the next turn."""
    game = Game(board(blocked=frozenset(GRID.within("1112", 2)) - {"1112"}))
    assert GRID.distance("1112", "1412") == 3
    elimination.eliminate(game, variant, "far", variant.rules.RESULTS)
    (event,) = game.events
    assert event.return_turn == (4 if variant.book == "arrivano" else 5)


def test_a_commander_left_alone_tests_and_the_survivor_goes_to_his_friends(variant: Variant) -> None:
    """caldiero §4.4.4, arrivano §4.5.4: not while a unit of his side stays; then his test (a 6 never loses him)
    and, surviving, the game sends him to the nearest friends."""
    game = Game(board(), 6)
    elimination.eliminate(game, variant, "a", variant.rules.RESULTS)
    assert game.refuge == [] and game.dice == [6]
    elimination.eliminate(game, variant, "b", variant.rules.RESULTS)
    assert game.refuge == [("g", "1112")] and game.dice == []


def test_a_commander_lost_in_his_test_cites_the_test(variant: Variant) -> None:
    """A 1 loses a general in both books (D10); the loss cites the test as the book's `leader_loss` gives it
    (shipped: caldiero §4.4.3, arrivano §4.5.3; tests/parabellum/test_leaders.py), not the cause."""
    game = Game(board(), 1)
    elimination.eliminate(game, variant, "a", variant.rules.RESULTS)
    elimination.eliminate(game, variant, "b", variant.rules.RESULTS)
    assert game.events[-1] == LeaderLost(leader="g", rule=board().book_rules.leader_loss.rule) and game.refuge == []


def test_the_guns_a_loss_leaves_alone_are_eliminated_too(variant: Variant) -> None:
    """§11.1 in both: where an assault's result eliminated the combat units ("a" at 1112), the gun left alone there
    goes too, citing the variant's §11.1; a gun still stacked with a unit that survived ("far" at 1412) stays, and a
    hex named twice is looked at once."""
    b = board(reduced_side={"gun": False, "gun2": False})
    b.units.update(gun=Piece("france", "1112", arm="artillery"), gun2=Piece("france", "1412", arm="artillery"))
    del b.units["b"]
    game = Game(b, 6)  # the general left alone at 1112 once the gun is gone survives his test (§4.4.4 / §4.5.4)
    elimination.eliminate(game, variant, "a", variant.rules.RESULTS)
    elimination.guns_left_behind(game, variant, ["1412", "1112", "1112"])
    rule = str(variant.rules.ARTILLERY_STACKED)
    assert rule == f"{variant.book} §11.1"
    assert [e.unit for e in game.events if isinstance(e, UnitEliminated)] == ["a", "gun"]
    assert UnitEliminated(unit="gun", permanent=True, return_turn=0, rule=rule, cause=rule) in game.events
    assert b.units["gun2"].hex == "1412" and game.refuge == [("g", "1112")]


def test_a_result_eliminates_its_units_then_the_guns_they_leave_alone(variant: Variant) -> None:
    """§12.5.4 Ae / Ex in both, with §11.1: the units a result takes ("far" at 1412, then "a" and "b" at 1112) go in
    the order given, each citing the result; only then the guns left alone in their hexes, in hex order (the one
    at 1112 before the one at 1412), each citing §11.1. A unit already off the map names no hex."""
    b = board(reduced_side={"gun": False, "gun2": False})
    b.units.update(gun=Piece("france", "1112", arm="artillery"), gun2=Piece("france", "1412", arm="artillery"),
                   gone=Piece("france", None))
    game = Game(b, 6)  # the general left alone at 1112 survives his test (§4.4.4 / §4.5.4)
    elimination.eliminated_with_guns(game, variant, ["far", "gone", "a", "b"], variant.rules.RESULTS, result="Ex")
    gone = [e for e in game.events if isinstance(e, UnitEliminated)]
    assert [e.unit for e in gone] == ["far", "a", "b", "gun", "gun2"]
    assert [e.cause for e in gone] == [f"{variant.rules.RESULTS} (Ex result)"] * 3 + [str(variant.rules.ARTILLERY_STACKED)] * 2
