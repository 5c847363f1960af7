"""Movement written once (parabellum/movement.py), run for both variants on a plain map: §8.1 leaving an enemy ZoC,
an order's ZoC permissions, a commander's move (§8.2.2, §8.2.3, §9.1.4) and the Advance and Attack obligations
(§5.1.1, §5.1.2), with each variant's data where the books or their readings differ (D6, D12)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from arbitro.adjudicator.maps.costs import MovementTable, parse_movement_table
from arbitro.adjudicator.maps.hexgrid import Grid, HexId
from arbitro.adjudicator.maps.hexmap import HexMap, parse_map
from arbitro.adjudicator.maps.movement import MoveRules, StopReason
from arbitro.adjudicator.parabellum import commander_move, movement, orders
from arbitro.adjudicator.parabellum.commander_move import CommanderMove
from arbitro.adjudicator.parabellum.weather_track import WeatherBox
from arbitro.adjudicator.parabellum.movement import OrderMove
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.ruleset import Rule
from tests.parabellum.position import Piece, Position

# A 6 x 6 clear map (flat-top, odd columns shifted): 0305's neighbours are 0304, 0306, 0205, 0206, 0405, 0406.
MAP = parse_map({
    "meta": {"title": "plain", "provisional": True, "default_terrain": "clear"},
    "grid": {"orientation": "flat-top", "first_column": 1, "last_column": 6, "first_row": 1, "last_row": 6,
             "shifted_columns": "odd"},
    "terrain_types": ["clear"], "hex_features": [], "hexside_features": [], "road_kinds": [],
}, source="plain")
TABLE: MovementTable = parse_movement_table({
    "title": "plain", "provisional": True, "unit_classes": ["unit"],
    "terrain": {"clear": {"cost": {"default": 2}}}, "hexside": {}, "climb": {"default": 0}, "roads": {},
}, hexmap=MAP, source="plain")


def ezoc_of(hexmap: HexMap, *enemies: str) -> frozenset[HexId]:
    return frozenset(n for e in enemies for n in hexmap.grid.neighbours(e))


# --- §8.1 -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("order", ["advance", "attack", "manoeuvre"])
def test_a_unit_in_an_enemy_zoc_leaves_it_only_under_defence(variant: Variant, order: str) -> None:
    """§8.1 in both: refused with the variant's own citation; Defence may leave; a unit outside any EZoC is free."""
    ezoc = ezoc_of(MAP, "0305")
    problem = movement.leave_ezoc_problem(variant, order, "0304", ezoc)
    assert problem is not None
    rule, message = problem
    assert rule == variant.rules.LEAVE_EZOC and str(rule) == f"{variant.book} §8.1"
    assert "0304" in message and f"{variant.book} §8.1" in message
    assert movement.leave_ezoc_problem(variant, "defence", "0304", ezoc) is None
    assert movement.leave_ezoc_problem(variant, order, "0302", ezoc) is None
    assert movement.leave_ezoc_problem(variant, order, None, ezoc) is None  # entering from off the map


def test_an_order_s_zoc_permissions_drive_the_path_search(variant: Variant) -> None:
    """§8.2.1 entering stops; §5.1.4 Manoeuvre never enters; §5.1.3 Defence only where a friend stands."""
    ezoc = ezoc_of(MAP, "0305")  # 0304, 0306, 0205, 0206, 0405, 0406
    friends = {"0205"}

    def dests(order: str, enter: movement.EzocEntry) -> set[str]:
        zoc = movement.zoc_rules(OrderMove(order, enter, True, None), ezoc, lambda h: h in friends)
        rules = MoveRules(unit_class="unit", budget=4, zoc=zoc,
                                   can_enter=lambda h: h != "0305")
        found = movement.reach(variant, MAP, TABLE, "0303", rules)
        if enter == "yes":
            assert found.stops[HexId("0304")] is StopReason.ENEMY_ZOC
        return set(found.destinations())

    advance, manoeuvre, defence = dests("advance", "yes"), dests("manoeuvre", "no"), dests("defence", "with_friend")
    assert {"0304", "0205"} <= advance
    assert not manoeuvre & ezoc and "0302" in manoeuvre
    assert defence & ezoc == {"0205"}


def test_the_path_search_leaves_an_enemy_zoc_only_under_defence(variant: Variant) -> None:
    """§8.1 in both, in the order's ZoC rules: from 0304, next to the enemy in 0305, no step under Advance, Attack or
    Manoeuvre; Defence steps out (one hex: §5.1.3)."""
    ezoc = ezoc_of(MAP, "0305")

    def dests(order: str, enter: movement.EzocEntry) -> set[str]:
        zoc = movement.zoc_rules(OrderMove(order, enter, True, None), ezoc, lambda h: False)
        rules = MoveRules(unit_class="unit", budget=4, zoc=zoc, can_enter=lambda h: h != "0305",
                          may_step=(lambda a, b: a == "0304") if order == "defence" else None)
        return set(movement.reach(variant, MAP, TABLE, "0304", rules).destinations())

    assert dests("advance", "yes") == dests("attack", "yes") == dests("manoeuvre", "no") == set()
    assert dests("defence", "with_friend") == {"0303", "0204", "0404"}


@dataclass
class OnPlainMap(Position):
    """A position on the plain 6 x 6 map, with what a move reads besides the pieces: no closed hex, no forbidden
    hexside, no weather track (no multiplier of the costs)."""

    @property
    def grid(self) -> Grid:
        return MAP.grid

    @property
    def hexmap(self) -> HexMap:
        return MAP

    def closed_to(self, side: str, h: str) -> tuple[Rule, str] | None:
        return None

    def crossing_prohibited(self, a: str, b: str) -> bool:
        return False

    def weather_box(self) -> None:
        return None

    def side_units_at(self, h: str, side: str) -> list[str]:
        return [u for u in self.units_at(h) if self.units[u].side == side]

    def enemy_units_at(self, h: str, side: str) -> list[str]:
        return self.side_units_at(h, self.enemy(side))


# --- commanders ---------------------------------------------------------------------------------------------
def commander(origin: str = "0303", **kw: object) -> CommanderMove:
    return CommanderMove("france", MAP, TABLE, origin, **{"on_map": True, "unit_class": "unit", "budget": 6, **kw})  # type: ignore[arg-type]


def test_a_commander_enters_an_enemy_zoc_only_where_friends_stand_and_goes_on(variant: Variant) -> None:
    """§8.2.2 in both: never into enemy units, into an EZoC only with friendly combat units there, no stop there
    (he goes on beyond it), from one EZoC hex to another only when both hold friends: his move is the units' search
    (`movement.unit_rules`) under `COMMANDER_MOVE`."""
    pos = OnPlainMap(units={"e": Piece("austria", "0305"), "f": Piece("france", "0304")})
    found = commander_move.commander_moves(variant, pos, commander())  # type: ignore[arg-type]
    assert "0305" not in found and "0304" in found and "0206" not in found and "0406" not in found
    beyond = commander_move.commander_moves(variant, pos, commander("0304", budget=2))  # type: ignore[arg-type]
    assert "0303" in beyond  # he leaves the EZoC he stands in, whatever his orders (§9.1.4)
    walk = lambda *hexes: commander_move.commander_path_problem(variant, pos, commander(hexes[0]), hexes)  # type: ignore[arg-type]  # noqa: E731
    pos.units["g"] = Piece("france", "0205")  # a friend in the EZoC hex next to 0304: he still needs one in 0304
    alone = OnPlainMap(units={"e": Piece("austria", "0305"), "g": Piece("france", "0205")})
    refused = commander_move.commander_path_problem(variant, alone, commander("0304"), ("0304", "0205"))  # type: ignore[arg-type]
    rule = variant.rules.LEADER_EZOC  # the units' ezoc_to_ezoc_problem under COMMANDER_MOVE (twentieth session: "0304-0205: ...")
    assert refused == (rule, f"0304 to 0205: a commander goes from one enemy ZoC hex to another only when both hold "
                             f"friendly units ({rule})")
    assert walk("0304", "0205") is None  # friends in both
    assert walk("0303", "0304", "0404") is None  # through the EZoC without stopping there


def test_a_fleeing_commander_goes_through_enemy_zocs_as_the_variant_reads_8_2_3(variant: Variant) -> None:
    """D12: caldiero §8.2.3 captures him only when enemy units surround him; arrivano §8.2.3 counts EZoC too."""
    pos = OnPlainMap(units={"e": Piece("austria", "0305")})
    fleeing = commander_move.commander_moves(variant, pos, commander(fleeing=True))  # type: ignore[arg-type]
    assert "0305" not in fleeing and ("0304" in fleeing) is variant.escape_through_ezoc
    assert "0304" not in commander_move.commander_moves(variant, pos, commander())  # type: ignore[arg-type]


def test_a_weather_keeping_a_commander_to_one_hex_lists_one_hex(variant: Variant) -> None:
    """arrivano §17.2.7 (Tormenta: "Unità da combattimento e Comandanti muovono di un solo esagono"): his search, the
    units' under his `one_hex`, ends one hex away however many points he has (e09de3c1 dropped the test of
    leader_rules' one_hex_from)."""
    storm = commander(budget=12, one_hex=Rule(variant.book, "17.2.7"))
    found = commander_move.commander_moves(variant, OnPlainMap(units={}), storm)  # type: ignore[arg-type]
    assert set(found) == set(MAP.grid.neighbours("0303"))
    assert len(commander_move.commander_moves(variant, OnPlainMap(units={}), commander(budget=12))) > len(found)  # type: ignore[arg-type]


def test_a_commander_s_move_is_searched_on_the_position_and_kept(variant: Variant) -> None:
    """`commander_moves` (§8.2.2, §9.1.4, §15.4 in both): his destinations in hex order with their paths from his
    hex, never into enemy units nor into an EZoC without friends; the same search kept while nothing it reads
    changes (issue 15), searched again when a friend moves into the enemy's ZoC; entering from off the map he may
    stay on his entry hex; a closed hex (caldiero §9.2.1) and a storm's one hex (arrivano §17.2.7) hold."""
    pos = OnPlainMap(units={"e": Piece("austria", "0305"), "f": Piece("france", "0303")})

    def moves(p: Position, origin: str = "0303", **kw: object) -> dict[str, tuple[HexId, ...]]:
        move = CommanderMove("france", MAP, TABLE, origin, **{"on_map": True, "unit_class": "unit", "budget": 6, **kw})  # type: ignore[arg-type]
        return commander_move.commander_moves(variant, p, move)  # type: ignore[arg-type]

    found = moves(pos)
    assert list(found) == sorted(found) and "0303" not in found and "0305" not in found
    assert not found.keys() & ezoc_of(MAP, "0305") and all(path[0] == "0303" for path in found.values())
    path = found["0103"]  # two hexes away, 1 MP each of his 3
    assert len(path) == 3 and all(MAP.grid.is_adjacent(a, b) for a, b in zip(path, path[1:]))
    assert "0606" not in found  # four hexes away
    assert moves(OnPlainMap(units=dict(pos.units))) == found  # another position asking the same
    with_friend = OnPlainMap(units={**pos.units, "g": Piece("france", "0304")})
    assert "0304" in moves(with_friend) and "0304" not in found
    entering = moves(pos, "0101", on_map=False, budget=2)
    assert entering["0101"] == ("0101",) and set(entering) == {"0101", *MAP.grid.neighbours("0101")}
    assert "0302" not in moves(pos, closed=lambda h: h == "0302")
    assert set(moves(pos, one_hex=Rule(variant.book, "17.2.7"))) == set(MAP.grid.neighbours("0303")) - ezoc_of(MAP, "0305")


def test_a_commander_s_given_path_is_judged_step_by_step_as_his_search_reads_it(variant: Variant) -> None:
    """`commander_path_problem` (§8.2.2, §9.1.2, §9.1.4 in both), the units' `path_problem` since the twentieth
    session: a path he may walk gives None; into an enemy ZoC without friends there the variant's §8.2.2 (the units'
    words, `presence_problem`); into enemy units its §9.1.2; a path not starting where he is, a hex off the map its
    §9.1; a walk beyond his allowance his §9.1.4 with §9.2 (it cited §9.1 alone), naming the hex."""
    pos = OnPlainMap(units={"e": Piece("austria", "0305"), "f": Piece("france", "0303")})
    r = variant.rules

    def problem(*walked: str, budget: int = 6) -> tuple[object, str] | None:
        move = CommanderMove("france", MAP, TABLE, "0303", True, "unit", budget)
        return commander_move.commander_path_problem(variant, pos, move, walked)  # type: ignore[arg-type]

    assert problem("0303", "0302", "0301") is None
    into = next(h for h in MAP.grid.neighbours("0303") if h in ezoc_of(MAP, "0305"))
    found = problem("0303", into)
    assert found == (r.LEADER_EZOC, f"{into} is in an enemy ZoC: a commander enters it only where a friendly unit "
                                    f"already is ({r.LEADER_EZOC})")
    pos.units["g"] = Piece("france", "0304")  # a friend in the enemy's ZoC: he may enter it, not the enemy's hex
    assert problem("0303", "0304") is None
    assert problem("0303", "0304", "0305") == (r.ENEMY_HEX, f"0305 holds enemy combat units ({r.ENEMY_HEX})")
    assert problem("0302", "0301") == (r.MOVEMENT, f"a commander's path goes on from 0303, where he is ({r.MOVEMENT})")
    assert problem("0303", "9999")[0] == r.MOVEMENT  # type: ignore[index]
    too_far = problem("0303", "0302", "0301", budget=2)
    assert too_far == (r.LEADER_MOVE, f"0301 costs more than the movement points left after 1 of 1 MP along "
                                      f"0303-0302-0301 ({r.LEADER_MOVE}, {r.TERRAIN_MOVE})")


# --- §5.1.1, §5.1.2 -------------------------------------------------------------------------------------------
def test_the_nearest_enemy_is_counted_in_hexes_whatever_the_terrain(variant: Variant) -> None:
    """§5.1.1, §5.1.2 in both: the distance to the nearest enemy unit on the map; None with no enemy on it."""
    pos = OnPlainMap(units={"e1": Piece("austria", "0305"), "e2": Piece("austria", "0601"), "f": Piece("france", "0101"),
                            "gone": Piece("austria", None)})
    assert movement.nearest_enemy_distance(pos, "0303", "france") == 2  # type: ignore[arg-type]
    assert movement.nearest_enemy_distance(pos, "0501", "france") == 1  # type: ignore[arg-type]
    assert movement.nearest_enemy_distance(pos, "0305", "austria") == 5  # type: ignore[arg-type]
    alone = OnPlainMap(units={"f": Piece("france", "0101"), "gone": Piece("austria", None)})
    assert movement.nearest_enemy_distance(alone, "0303", "france") is None  # type: ignore[arg-type]


def test_nearer_is_one_hex_closer_to_the_nearest_enemy_and_never_without_one(variant: Variant) -> None:
    """§5.1.1 "almeno un esagono più vicino al nemico" in both: strictly fewer hexes than `than`; never while no
    enemy is on the map or the distance to beat is unknown (the old callers' `or 0` / `or 99`)."""
    pos = OnPlainMap(units={"e": Piece("austria", "0305"), "f": Piece("france", "0101")})
    assert movement.nearer(pos, "france", "0303", 3)  # type: ignore[arg-type]
    assert not movement.nearer(pos, "france", "0303", 2)  # type: ignore[arg-type]  # as near, not nearer
    assert not movement.nearer(pos, "france", "0303", None)  # type: ignore[arg-type]
    alone = OnPlainMap(units={"f": Piece("france", "0101")})
    assert not movement.nearer(alone, "france", "0303", 99)  # type: ignore[arg-type]


def test_an_attack_order_move_tends_toward_the_nearest_enemy_or_into_its_zoc(variant: Variant) -> None:
    """§5.1.2 in both ("il movimento deve tendere verso l'unità nemica più vicina"): a move ending farther or as far
    from the nearest enemy is refused with the variant's citation, naming the hex and both distances; one ending
    nearer, or in an enemy ZoC, is not; nothing binds while no enemy is on the map."""
    pos = OnPlainMap(units={"e": Piece("austria", "0305"), "f": Piece("france", "0302")})
    ezoc = ezoc_of(MAP, "0305")
    problem = movement.toward_enemy(variant, pos, "france", "0302", ezoc)("0301")  # type: ignore[arg-type]
    assert problem is not None
    rule, message = problem
    assert rule == variant.rules.ATTACK and str(rule) == f"{variant.book} §5.1.2"
    assert "0301" in message and "(3 hexes now, 4 at 0301)" in message and message.endswith(f"({rule})")
    assert movement.toward_enemy(variant, pos, "france", "0302", ezoc)("0202") is not None  # type: ignore[arg-type]  # as far
    assert movement.toward_enemy(variant, pos, "france", "0302", ezoc)("0303") is None  # type: ignore[arg-type]
    assert movement.toward_enemy(variant, pos, "france", "0302", ezoc)("0304") is None  # type: ignore[arg-type]
    alone = OnPlainMap(units={"f": Piece("france", "0302")})
    assert movement.toward_enemy(variant, alone, "france", "0302", frozenset())("0301") is None  # type: ignore[arg-type]


def test_advance_asks_half_rounded_up_while_it_binds(variant: Variant) -> None:
    """§5.1.1 in both: at least half of the counted units (5 -> 3) end nearer; D6: the obligation binds while
    enough could still close (caldiero) or while any one could (arrivano)."""
    assert movement.advance_short(variant, 5, 3, iter(["a"])) is None  # half made
    assert movement.advance_short(variant, 5, 2, iter([])) is None  # nobody could
    assert movement.advance_short(variant, 5, 2, iter(["a"])) == (3, ["a"])
    one_short = movement.advance_short(variant, 5, 1, iter(["a"]))  # the half is out of reach
    assert one_short == ((3, ["a"]) if variant.advance_binds_while == "any" else None)


def test_advance_reads_the_units_that_could_close_only_as_far_as_it_needs(variant: Variant) -> None:
    def could() -> Iterator[str]:
        yield "a"
        yield "b"
        if variant.advance_binds_while == "any":
            raise AssertionError("read past the first unit that could close")

    assert movement.advance_short(variant, 4, 0, could()) == (2, ["a"] if variant.advance_binds_while == "any"
                                                                    else ["a", "b"])


def test_the_obligations_bind_the_counted_units_that_still_could_move(variant: Variant) -> None:
    """§5.1.2 and §5.1.1 in both, written once (`orders.obligation_problem`): an Attack-order unit that has not moved,
    outside an enemy ZoC, with a move it may make, is named; one that moved, one the enemy's ZoC holds (§8.1), one
    with no move are not; Advance asks half of its counted units to end nearer, naming those that still could; no
    obligation while no enemy is on the map."""
    units = {"e": Piece("austria", "0305"), "a": Piece("france", "0301"), "b": Piece("france", "0202"),
             "c": Piece("france", "0304"), "d": Piece("france", "0101")}
    pos = OnPlainMap(units=dict(units))
    moves = {"a": ("0302",), "b": ("0203",), "c": ("0303",), "d": ()}

    def counted(order: str, moved: frozenset[str] = frozenset()) -> list[orders.Counted]:
        return [orders.Counted(u, order, units[u].hex or "", movement.nearest_enemy_distance(pos, units[u].hex or "",  # type: ignore[arg-type]
                                                                                         "france"), u in moved)
                for u in "abcd"]  # where each began, and its distance then

    def problem(rows: list[orders.Counted], p: Position = pos) -> tuple[object, str] | None:
        return orders.obligation_problem(variant, p, "france", rows, lambda u: moves[u])  # type: ignore[arg-type]

    found = problem(counted("attack", frozenset({"b"})))
    assert found is not None and found[0] == variant.rules.ATTACK and found[1].split(": ")[1].startswith("a (")
    assert problem(counted("attack", frozenset({"a", "b"}))) is None  # c is held by the ZoC, d has no move
    alone = OnPlainMap(units={u: p for u, p in units.items() if u != "e"})
    assert problem(counted("attack"), alone) is None and problem(counted("advance"), alone) is None
    short = problem(counted("advance"))  # none of four nearer; a and b could (0302, 0203 are nearer)
    assert short is not None and short[0] == variant.rules.ADVANCE and "at least 2 of 4" in short[1]
    assert "a, b still could" in short[1] or (variant.advance_binds_while == "any" and "a still could" in short[1])
    pos.units["b"] = Piece("france", "0203")  # b moved nearer: one of the two
    assert problem(counted("advance", frozenset({"b"}))) is not None  # a could still make the half
    pos.units["a"] = Piece("france", "0302")
    assert problem(counted("advance", frozenset({"a", "b"}))) is None


# --- the rules a step breaks, with the variant's citations (§9.1.2, §9.3.2, §5.1.3, §5.1.4) ---------------------
ORDERS = {"advance": OrderMove("advance", "yes", True, None), "manoeuvre": OrderMove("manoeuvre", "no", True, None),
          "defence": OrderMove("defence", "with_friend", False, 1)}


def test_enemy_units_are_never_entered(variant: Variant) -> None:
    """§9.1.2 in both."""
    assert movement.enemy_problem(variant, "0305", False) is None
    rule, message = movement.enemy_problem(variant, "0305", True) or (None, "")
    assert str(rule) == f"{variant.book} §9.1.2" and "0305" in message and str(rule) in message


def test_presence_of_friends_and_enemy_zocs(variant: Variant) -> None:
    """§9.3.2 a column passes through no friends and enters no EZoC; §5.1.3 Defence only where a friend stands;
    §5.1.4 Manoeuvre never; Advance enters (and stops: the engine's)."""
    ezoc = ezoc_of(MAP, "0305")

    def cited(order: str, b: str, friends: bool, column: bool = False) -> str | None:
        problem = movement.presence_problem(variant, ORDERS[order], b, ezoc, friends, column)
        return None if problem is None else str(problem[0])

    assert cited("advance", "0302", True, column=True) == cited("advance", "0304", False, column=True) \
        == str(variant.rules.COLUMN_LIMITS) == f"{variant.book} §9.3.2"
    assert cited("advance", "0304", False) is None and cited("advance", "0302", True) is None
    assert cited("defence", "0304", False) == str(variant.rules.DEFENCE) and cited("defence", "0304", True) is None
    assert cited("manoeuvre", "0304", True) == str(variant.rules.MANOEUVRE)


def test_straight_from_one_ezoc_hex_to_another_as_the_order_says(variant: Variant) -> None:
    """D7, §5.1.3 in both: an order without `ezoc_to_ezoc` (caldiero's Defence) may not; entering from outside may."""
    ezoc = ezoc_of(MAP, "0305")
    problem = movement.ezoc_to_ezoc_problem(variant, ORDERS["defence"], "0304", "0405", ezoc)
    assert problem is not None and problem[0] == variant.rules.DEFENCE
    assert movement.ezoc_to_ezoc_problem(variant, ORDERS["defence"], "0303", "0304", ezoc) is None
    assert movement.ezoc_to_ezoc_problem(variant, ORDERS["advance"], "0304", "0405", ezoc) is None


def test_entering_the_map_costs_the_entry_hex_s_terrain(variant: Variant) -> None:
    """§15.4 in both: the terrain's cost for the class, by road where the table prices it so, times the weather's
    multiplier (caldiero §17.1.2); all points or prohibited is more than any allowance."""
    table = parse_movement_table({
        "title": "entry", "provisional": True, "unit_classes": ["inf", "art"],
        "terrain": {"clear": {"cost": {"default": 2}}, "hill": {"cost": {"default": 4, "art": "all"}, "on_road": {"default": 2}},
                    "marsh": {"cost": {"default": "prohibited"}}},
        "hexside": {}, "climb": {"default": 0}, "roads": {},
    }, source="entry")
    assert movement.entry_cost(table, "clear", "inf") == 2 and movement.entry_cost(table, "clear", "inf", multiplier=2) == 4
    assert movement.entry_cost(table, "hill", "inf") == 4 and movement.entry_cost(table, "hill", "inf", on_road=True) == 2
    assert movement.entry_cost(table, "hill", "art") == movement.entry_cost(table, "marsh", "inf") == movement.OFF_THE_SCALE


def test_a_kept_search_is_the_search_under_its_key_and_ends_where_the_mover_may(variant: Variant) -> None:
    """`kept_reach` (issue 15): the search is made once per key and data, whatever position asks again; where the
    mover may end is applied after (`ends`), so the same kept search serves movers that may end in different hexes;
    another key, or other data objects of equal content, make their own search."""
    rules = MoveRules(unit_class="unit", budget=4, can_end=lambda h: h != "0304")

    def counted(key: tuple[object, ...], table: MovementTable = TABLE) -> movement.Reach:
        return movement.kept_reach(variant, MAP, table, "0303", rules, key)

    key = ("test mover", variant.book, "0303", 4)
    found = counted(key)
    assert counted(key) is found
    fresh = movement.reach(variant, MAP, TABLE, "0303", MoveRules(unit_class="unit", budget=4))
    assert found.costs == fresh.costs and all(found.path(h) == fresh.path(h) for h in fresh.costs)
    assert movement.ends(found, rules.can_end) == [h for h in fresh.destinations() if h != "0304"]
    assert movement.ends(found, None) == list(fresh.destinations())
    other = counted((*key, "another position"))
    assert other is not found and other.costs == found.costs
    copy = parse_movement_table({
        "title": "plain", "provisional": True, "unit_classes": ["unit"],
        "terrain": {"clear": {"cost": {"default": 2}}}, "hexside": {}, "climb": {"default": 0}, "roads": {},
    }, hexmap=MAP, source="plain")
    assert counted(key, copy) is not found  # kept by the identity of its data, never by an id reused


def test_the_obligations_refusals_cite_the_variant_and_name_the_units(variant: Variant) -> None:
    """§5.1.2 and §5.1.1 in both: the refusal names every unit still bound (Attack) or that still could close
    (Advance), with the variant's citation; none when no unit is bound or the half is made."""
    assert movement.attack_order_problem(variant, iter([])) is None
    rule, message = movement.attack_order_problem(variant, iter(["a", "c"]))  # type: ignore[misc]
    assert rule == variant.rules.ATTACK and message.endswith(f"a, c ({variant.book} §5.1.2)")
    assert movement.advance_order_problem(variant, 4, 2, iter(["a"])) is None
    rule, message = movement.advance_order_problem(variant, 4, 1, iter(["a", "b"]))  # type: ignore[misc]
    assert rule == variant.rules.ADVANCE and message.startswith("with an Advance order at least 2 of 4 units")
    assert message.endswith(f"still could ({variant.book} §5.1.1)")
    assert ("a still could" if variant.advance_binds_while == "any" else "a, b still could") in message


class _Weather:
    """A World as `off_road_half_less` reads it: the weather box in force."""

    def __init__(self, box: object) -> None:
        self.box = box

    def weather_box(self) -> object:
        return self.box


def test_the_off_road_loss_is_the_weather_boxs_data() -> None:
    """caldiero §17.1.1 as data (WeatherBox.off_road_mp_less): the MP a move not wholly along roads loses, in half
    points; none in a box that says none, nor without a weather track."""
    box = WeatherBox(box=1, name="Nubifragio", english="Cloudburst", rule="caldiero §17.1.1", off_road_mp_less=1)
    assert movement.off_road_half_less(_Weather(box)) == 2  # type: ignore[arg-type]
    assert movement.off_road_half_less(_Weather(box.model_copy(update={"off_road_mp_less": 2}))) == 4  # type: ignore[arg-type]
    assert movement.off_road_half_less(_Weather(WeatherBox(box=0, name="n", english="e", rule="r"))) == 0  # type: ignore[arg-type]
    assert movement.off_road_half_less(_Weather(None)) == 0  # type: ignore[arg-type]
