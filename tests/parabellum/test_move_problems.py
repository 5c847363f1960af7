"""Why a move is refused, worded once (parabellum/move_problems.py, a commander's in commander_move.py), run for both
variants on the plain 6 x 6 map: each rule a destination or a given path breaks, cited from the variant's own book
(§5.1.3, §5.1.4, §7.1, §8.1, §8.2.2, §9.1.1, §9.1.2, §9.2), a game's own step veto asked where a step is judged."""

from __future__ import annotations

from dataclasses import dataclass

from arbitro.adjudicator.parabellum import move_problems as mp
from arbitro.adjudicator.parabellum.commander_move import (
    CommanderMove, commander_destination_problem, commander_path_problem,
)
from arbitro.adjudicator.parabellum.movement import COMMANDER_MOVE, Mover, Problem, one_hex_rule, unit_rules
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.ruleset import Rule
from tests.parabellum.position import Piece
from tests.parabellum.test_movement import MAP, ORDERS, TABLE, OnPlainMap


@dataclass
class Moving(OnPlainMap):
    """The plain map with what a refusal reads besides the pieces (`OnPlainMap`'s): no closed hex, no forbidden
    hexside."""


def position() -> Moving:
    """A French unit in 0302, the enemy in 0305 (its ZoC: 0304, 0306, 0205, 0206, 0405, 0406)."""
    return Moving(units={"f": Piece("france", "0302"), "e": Piece("austria", "0305")})


def mover(origin: str = "0302", order: str = "advance", budget: int = 4, one_hex: Rule | None = None) -> Mover:
    """`one_hex`: the rule keeping the mover to one hex (a Defence order's, as its game passes it)."""
    return Mover("france", origin, True, budget, "unit", False, ORDERS[order], one_hex=one_hex)


def cited(problem: Problem | None) -> str | None:
    """The problem's citation, checked to be the one its message gives."""
    if problem is None:
        return None
    assert f"({problem[0]})" in problem[1] or f"({problem[0]}," in problem[1], problem
    return str(problem[0])


def test_a_destination_is_refused_by_the_first_rule_it_breaks(variant: Variant) -> None:
    """The hex itself (off the map, enemy units: §9.1.2), the start (§8.1 leaving an EZoC, §5.1.3 one hex under
    Defence), the step into a hex next to the origin (§5.1.4 Manoeuvre into an EZoC), stacking (§7.1); nothing
    said of a hex only the allowance keeps out of reach, which `unreachable` words (§9.1.1, §9.2)."""
    pos, book = position(), variant.book

    def problem(to: str, m: Mover | None = None, movers: tuple[str, ...] = ("f",)) -> str | None:
        return cited(mp.destination_problem(variant, pos, m or mover(), movers, to))

    assert problem("0305") == f"{book} §9.1.2"
    assert problem("9999") == str(variant.rules.MOVEMENT)
    assert problem("0203", mover("0304")) == f"{book} §8.1"  # in the enemy's ZoC under Advance
    assert problem("0304", mover("0302", "defence", one_hex=variant.rules.DEFENCE)) == f"{book} §5.1.3"  # two hexes under Defence
    storm = Rule(variant.book, "17.2.7")  # a weather keeping units to one hex (arrivano §17.2.7), as its game cites it
    assert mp.destination_problem(variant, pos, mover(one_hex=storm), ("f",), "0304") == (
        storm, f"in this weather a unit moves at most one hex ({storm})")
    # the words follow the rule the game gives, not the order: the storm's for a Defence unit the storm keeps there
    assert mp.destination_problem(variant, pos, mover("0302", "defence", one_hex=storm), ("f",), "0304") == (
        storm, f"in this weather a unit moves at most one hex ({storm})")
    assert "with a Defence order" in mp.destination_problem(
        variant, pos, mover("0302", "defence", one_hex=variant.rules.DEFENCE), ("f",), "0304")[1]
    assert problem("0303", mover("0302", "manoeuvre")) is None
    assert problem("0304", mover("0303", "manoeuvre")) == f"{book} §5.1.4"
    pos.units.update(a=Piece("france", "0303"), b=Piece("france", "0303", arm="cavalry"))
    assert problem("0303") == f"{book} §7.1"
    assert problem("0102") is None
    rule, message = mp.unreachable(variant, "0106", ("f",), ("advance",))
    assert rule == variant.rules.ALLOWANCE and str(rule) == f"{book} §9.1.1" and "0106" in message and "advance" in message


def test_a_game_s_own_veto_is_asked_of_the_step_next_to_the_origin(variant: Variant) -> None:
    """`StepVeto`: a game's own reason a step is refused (caldiero §10.3, §17.1.3, §19.1) is given when nothing the
    books share forbids the step first."""
    pos = position()
    said = (Rule(variant.book, "99.9"), "vetoed (99.9)")
    veto = lambda a, b: said if b == "0303" else None  # noqa: E731
    assert mp.destination_problem(variant, pos, mover(), ("f",), "0303", veto) == said
    assert mp.destination_problem(variant, pos, mover(), ("f",), "0301", veto) is None
    assert mp.step_problem(variant, pos, mover(), ("f",), None, "0303", veto) == said  # entering the map there


def test_a_given_path_is_judged_step_by_step_as_the_search_reads_it(variant: Variant) -> None:
    """`path_problem`: a path the search allows gives None; the first step that breaks a rule names it: not adjacent
    (§9.1), going on after entering an enemy ZoC (§9.1.2), beyond the allowance (§9.1.1), the game's veto (which
    words what its search's step veto refuses), a revisit, ending where the stack does not fit (§7.1)."""
    pos, book = position(), variant.book

    def problem(*walked: str, budget: int = 4, veto: mp.StepVeto | None = None) -> Problem | None:
        m = mover(budget=budget)  # the veto is the search's own step veto, as a game makes it
        step = None if veto is None else (lambda a, b: veto(a, b) is None)
        return mp.path_problem(variant, pos, m, ("f",), walked, MAP, TABLE, unit_rules(variant, pos, m, step=step), veto)

    assert problem("0302", "0303") is None and problem("0302", "0303", "0304") is None
    assert cited(problem("0302", "0304")) == str(variant.rules.MOVEMENT)  # not adjacent
    assert cited(problem("0302", "0303", "0304", "0404")) == f"{book} §9.1.2"  # went on from the enemy's ZoC
    too_far = problem("0302", "0303", "0203", budget=2)
    assert cited(too_far) == f"{book} §9.1.1" and "0203" in too_far[1]  # type: ignore[index]
    assert cited(problem("0302", "0303", "0302")) == str(variant.rules.MOVEMENT)  # back where it began
    said = (Rule(variant.book, "99.9"), "vetoed (99.9)")
    assert problem("0302", "0303", veto=lambda a, b: said if b == "0303" else None) == said
    pos.units.update(a=Piece("france", "0303"), b=Piece("france", "0303", arm="cavalry"))
    assert cited(problem("0302", "0303")) == f"{book} §7.1"


def test_a_commander_s_refused_hex_names_the_rule(variant: Variant) -> None:
    """`commander_destination_problem` (§8.2.2, §9.1.2, §9.1.4 in both): a hex off the map, enemy units there, an
    enemy ZoC without friends there; else his allowance (§9.1.4), which a friend in the enemy's ZoC leaves."""
    pos, book = position(), variant.book
    move = CommanderMove("france", MAP, TABLE, "0302", True, "unit", 6)

    def problem(to: str) -> str | None:
        return cited(commander_destination_problem(variant, pos, move, to))

    assert problem("9999") == str(variant.rules.MOVEMENT)
    assert problem("0305") == f"{book} §9.1.2"
    assert problem("0304") == f"{book} §8.2.2"
    assert problem("0106") == f"{book} §9.1.4"
    pos.units["g"] = Piece("france", "0304")
    assert problem("0304") == f"{book} §9.1.4"
    storm = Rule(variant.book, "17.2.7")  # a weather keeping him to one hex (arrivano §17.2.7), as his game cites it
    held = CommanderMove("france", MAP, TABLE, "0302", True, "unit", 6, one_hex=storm)
    assert commander_destination_problem(variant, pos, held, "0102") == (
        storm, f"in this weather a commander moves at most one hex ({storm})")
    assert commander_path_problem(variant, pos, held, ("0302", "0202", "0102"))[0] == storm  # type: ignore[index]
    assert commander_path_problem(variant, pos, held, ("0302", "0202")) is None


def test_one_hex_rule_is_the_order_s_else_the_weather_s(variant: Variant) -> None:
    """`one_hex_rule` (§5.1.3 in both, arrivano §17.2.7): an order allowing one hex (Defence) keeps its unit there
    whatever the weather; any other is kept to one hex only by a weather rule it is given."""
    storm = Rule(variant.book, "17.2.7")
    assert one_hex_rule(variant, ORDERS["defence"], storm) == variant.rules.DEFENCE
    assert one_hex_rule(variant, ORDERS["defence"]) == variant.rules.DEFENCE
    assert one_hex_rule(variant, ORDERS["advance"], storm) == storm
    assert one_hex_rule(variant, ORDERS["advance"]) is None


def test_a_commander_is_refused_by_the_units_rules_as_his_move_reads_them(variant: Variant) -> None:
    """The units' refusals for a commander's `Mover` (`COMMANDER_MOVE`, the twentieth session; commander_move had its
    own): he may leave an enemy ZoC whatever his orders (§9.1.4, not §8.1), enters one only where friends stand
    (§8.2.2, not Defence's §5.1.3), and stacks with anyone (no §7.1: no unit moves with him)."""
    pos, book, r = position(), variant.book, variant.rules
    leader = Mover("france", "0304", True, 12, "unit", False, COMMANDER_MOVE, None)
    assert mp.destination_problem(variant, pos, leader, (), "0203") is None
    assert mp.destination_problem(variant, pos, leader, (), "0206") == (
        r.LEADER_EZOC, f"0206 is in an enemy ZoC: a commander enters it only where a friendly unit already is ({book} §8.2.2)")
    pos.units.update(a=Piece("france", "0303"), b=Piece("france", "0303", arm="cavalry"), c=Piece("france", "0303"))
    assert mp.destination_problem(variant, pos, leader, (), "0303") is None
    rules = unit_rules(variant, pos, leader)
    assert mp.path_problem(variant, pos, leader, (), ("0304", "0303", "0302"), MAP, TABLE, rules) is None
