"""A commander's move to a hex, written once (parabellum/commander_move.commander_ends, any_commander_end,
commander_walk), run for both variants: the hexes his event records (from the hex after his), a path he is given
walked if he may (caldiero §9.1), a commander in chief's limit (caldiero §4.2.2, `chief_limits.ChiefLimit`: Arrivano
prints none, so its games give none) deciding where he may end and worded first in the refusals."""

from __future__ import annotations

from arbitro.adjudicator.maps.hexgrid import HexId
from arbitro.adjudicator.parabellum.chief_limits import ChiefLimit
from arbitro.adjudicator.parabellum.commander_move import (
    CommanderMove, any_commander_end, commander_destination_problem, commander_ends, commander_walk,
)
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.ruleset import Rule
from tests.parabellum.position import Piece
from tests.parabellum.test_move_problems import Moving
from tests.parabellum.test_movement import MAP, TABLE, ezoc_of


def position() -> Moving:
    return Moving(units={"e": Piece("austria", "0305"), "f": Piece("france", "0303")})


def move(limit: ChiefLimit | None = None, origin: str = "0303") -> CommanderMove:
    return CommanderMove("france", MAP, TABLE, origin, True, "unit", 6, limit=limit)


def test_the_hexes_he_enters_and_a_path_he_is_given(variant: Variant) -> None:
    pos, r = position(), variant.rules
    ends = commander_ends(variant, pos, move())  # type: ignore[arg-type]
    assert "0303" not in ends and all(path[-1] == h and "0303" not in path for h, path in ends.items())
    assert commander_ends(variant, pos, move(), "0103") == {"0103": ends["0103"]}  # type: ignore[arg-type]
    assert commander_walk(variant, pos, move(), "0103") == ends["0103"]  # type: ignore[arg-type]
    grid = MAP.grid
    other = next((n, "0103") for n in sorted(grid.neighbours("0303")) if grid.is_adjacent(n, "0103")
                 and (n, "0103") != ends["0103"])
    assert commander_walk(variant, pos, move(), "0103", other) == other  # type: ignore[arg-type]
    assert commander_walk(variant, pos, move(), "0103", other[:1]) == (  # type: ignore[arg-type]
        r.MOVEMENT, f"the path ends at {other[0]}, not at 0103 ({r.MOVEMENT})")
    into = next(h for h in sorted(MAP.grid.neighbours("0303")) if h in ezoc_of(MAP, "0305"))
    refused = commander_walk(variant, pos, move(), into)  # type: ignore[arg-type]
    assert isinstance(refused[0], Rule) and refused[0] == r.LEADER_EZOC
    assert any_commander_end(variant, pos, move()) in ends  # type: ignore[arg-type]


def test_a_commander_in_chief_within_his_limit(variant: Variant) -> None:
    """Within one hex of 0303: he ends there; a hex beyond is refused citing the limit's rule, first; from beyond it
    he ends as near it as he can get."""
    pos = position()
    rule = Rule(variant.book, "4.2.2")
    limit = ChiefLimit(("c", "0303", 1), lambda h: max(0, MAP.grid.distance(h, "0303") - 1), False, "within one hex",
                       rule, "c")
    ends = commander_ends(variant, pos, move(limit))  # type: ignore[arg-type]
    assert ends and all(MAP.grid.distance(h, "0303") <= 1 for h in ends)
    assert commander_ends(variant, pos, move(limit), "0103") == {}  # type: ignore[arg-type]
    refused = commander_destination_problem(variant, pos, move(limit), "0103")  # type: ignore[arg-type]
    assert refused[0] == rule and "c may not end his move in 0103: within one hex" in refused[1]
    assert any_commander_end(variant, pos, move(limit)) in ends  # type: ignore[arg-type]
    far = ChiefLimit(("c", "0606", 0), lambda h: MAP.grid.distance(h, HexId("0606")), False, "at 0606", rule, "c")
    nearest = commander_ends(variant, pos, move(far, "0101"))  # type: ignore[arg-type]
    best = min(far.beyond(h) for h in nearest)
    assert nearest and {far.beyond(h) for h in nearest} == {best} and best < far.beyond("0101")


def test_two_limits_on_one_position_are_two_searches(variant: Variant) -> None:
    """The search kept across positions (issue 15) names the limit it was made under (`ChiefLimit.key`): a chief
    asked under another limit on the same position is searched again, never answered by the first; and his game's
    closed hexes hold within the limit as well."""
    pos, rule = position(), Rule(variant.book, "4.2.2")
    near = ChiefLimit(("c", "0303", 1), lambda h: max(0, MAP.grid.distance(h, "0303") - 1), True, "within one hex",
                      rule, "c")
    far = ChiefLimit(("c", "0303", 2), lambda h: max(0, MAP.grid.distance(h, "0303") - 2), True, "within two hexes",
                     rule, "c")
    one, two = (commander_ends(variant, pos, move(limit)) for limit in (near, far))  # type: ignore[arg-type]
    assert "0103" in two and "0103" not in one and set(one) < set(two)
    closed = CommanderMove("france", MAP, TABLE, "0303", True, "unit", 6, limit=near, closed=lambda h: h == "0302")
    assert "0302" in one and "0302" not in commander_ends(variant, pos, closed)  # type: ignore[arg-type]


def test_an_entering_commander_s_path_starts_at_his_entry_hex(variant: Variant) -> None:
    """§15.4 in both: entering from off the map (`on_map` False, his entry hex his origin) a path he is given begins
    with his entry hex, which it counts as entered (the units' path_problem from the entry hex, the variant's
    `entry_hex_is_first_step`); a path beginning elsewhere is refused naming where he enters."""
    pos, r = position(), variant.rules
    entering = CommanderMove("france", MAP, TABLE, "0101", False, "unit", 4)
    ends = commander_ends(variant, pos, entering)  # type: ignore[arg-type]
    assert ends["0102"] == ("0101", "0102")
    other = ("0101", "0201", "0102") if MAP.grid.is_adjacent("0201", "0102") else ("0101", "0202", "0102")
    assert commander_walk(variant, pos, entering, "0102", other) == other  # type: ignore[arg-type]
    assert commander_walk(variant, pos, entering, "0102", ("0201", "0102")) == (  # type: ignore[arg-type]
        r.MOVEMENT, f"a commander's path goes on from 0101, where he enters ({r.MOVEMENT})")


def test_a_hex_beyond_his_allowance_is_refused_in_full_words(variant: Variant) -> None:
    """§9.1.4 with §9.2, §8.2.2 (no limit, no fog): the one sentence of `commander_destination_problem`, nothing
    added for a limit he has not."""
    r = variant.rules
    refused = commander_destination_problem(variant, position(), move(), "0606")  # type: ignore[arg-type]
    assert refused == (r.LEADER_MOVE, f"0606 is beyond his 3 MP, or in or reached only through enemy ZoC hexes without "
                                      f"friendly units ({r.LEADER_MOVE}, {r.TERRAIN_MOVE}, {r.LEADER_EZOC})")


def test_a_commanders_search_asks_of_closed_hexes_only_where_his_game_closes_some(variant: Variant) -> None:
    """`Variant.closes_hexes` (D30: caldiero §9.2.1's row; arrivano §9.2 has none) says whether `closed_to` may close
    a hex: a commander's move passes his search no closed hexes where it says no (issue 15: Arrivano's commander
    searches asked it of every step), so a variant whose `closed_to` may answer must say yes."""
    overrides = type(variant).closed_to is not Variant.closed_to
    assert variant.closes_hexes == overrides == (variant.book == "caldiero")
