"""Who is in command, asked of a position through the kernel's World (caldiero §4.3-§4.3.2, §4.4.5; arrivano
§3.2, §4.2, §4.4-§4.4.2, §4.5.5), run for both variants: the same rule, officers and their joining by contiguity
(D3, D4) from the World and the variant."""

from __future__ import annotations

from arbitro.adjudicator.parabellum import command
from arbitro.adjudicator.parabellum.variant import Variant
from tests.parabellum.position import Piece, Position


def line(**extra: object) -> Position:
    """Formation f1 along row 12 and beyond: a general at 1012 with range 1; units at 1112, 1212 (adjacent chain),
    1512 (a gap) and 1712; an officer of f1 at 1612 with range 1."""
    units = {"a": Piece("france", "1112"), "b": Piece("france", "1212"), "c": Piece("france", "1512"),
             "d": Piece("france", "1712"), "x": Piece("france", "2012", formation="f2"), "o": Piece("france", None)}
    given: dict[str, object] = {"leaders": {"g": "1012", "off": "1612"}, "generals": {"f1": "g"},
                                "ranges": {"g": 1, "off": 1}}
    return Position(units, **(given | extra))  # type: ignore[arg-type]


def test_range_then_the_line_of_battle(variant: Variant) -> None:
    """caldiero §4.3-§4.3.2, arrivano §4.4-§4.4.2: in range, then every unit next to one in command; a gap breaks it."""
    assert command.in_command(variant, line(), "f1") == {"a", "b"}
    assert command.in_command(variant, line(), "f1", ["a", "c"]) == {"a"}  # only the members asked about


def test_a_reinforcement_coming_onto_the_map_is_in_command_where_its_book_says(variant: Variant) -> None:
    """D22, arrivano §15.4.1 "I rinforzi entrano sulla mappa in comando": a unit coming onto the map in this
    activation (the World's `entering`), on it out of range (d) or still off it at its entry (o), is in command,
    without a general on the map too (arrivano §4.5.5 binds the others); caldiero §15.4.2 gives it only an order: in
    command as any unit (neutral)."""
    entered = {"a", "b", "d", "o"} if variant.reinforcements_in_command else {"a", "b"}
    assert command.in_command(variant, line(arriving={"d", "o"}), "f1") == entered
    alone = {"d", "o"} if variant.reinforcements_in_command else set()
    assert command.in_command(variant, line(generals={}, arriving={"d", "o"}), "f1") == alone
    assert variant.reinforcements_in_command is (variant.book == "arrivano")


def test_units_in_command_anyway_stay_so_beside_those_in_range(variant: Variant) -> None:
    """D2 (arrivano §3.2): a unit the position puts in command whatever the range (d, out of range and of the line)
    is in command with those his general's range and the line of battle reach, not instead of them."""
    assert command.in_command(variant, line(anyway={"d"}), "f1") == {"a", "b", "d"}


def test_no_general_on_the_map_no_command(variant: Variant) -> None:
    """caldiero §4.4.5, arrivano §4.5.5: without a general only the units in command anyway (arrivano §3.2)."""
    assert command.in_command(variant, line(generals={}), "f1") == frozenset()
    assert command.in_command(variant, line(generals={}, anyway={"c"}), "f1") == {"c"}
    assert command.in_command(variant, line(anyway={"a", "b", "c", "d"}), "f1") == {"a", "b", "c", "d"}


def test_an_officer_in_range_relays_and_anchors_the_line(variant: Variant) -> None:
    """D3, arrivano §4.2, §4.4.2: an officer in his general's range relays his own range and anchors contiguity;
    the same kernel with no officers (caldiero §4) is the plain rule."""
    near = line(leaders={"g": "1012", "off": "1112"}, ranges={"g": 1, "off": 4}, officers={"f1": ["off"]})
    assert command.in_command(variant, near, "f1") == {"a", "b", "c"}  # c at 1512 by the officer; d too far
    far = line(officers={"f1": ["off"]})
    assert command.in_command(variant, far, "f1") == {"a", "b"}  # 1612 is out of the general's range


def test_a_relaying_officer_anchors_the_line_beyond_his_own_range(variant: Variant) -> None:
    """arrivano §4.4.2 with §4.2: a unit next to a relaying officer is in command by contiguity, even one his own
    range (0 here) does not reach: e at 1010 is next to the officer at 1011 alone (the general at 1012, range 1)."""
    anchored = line(leaders={"g": "1012", "off": "1011"}, ranges={"g": 1, "off": 0}, officers={"f1": ["off"]})
    anchored.units["e"] = Piece("france", "1010")
    assert command.in_command(variant, anchored, "f1") == {"a", "b", "e"}


def test_officers_join_by_contiguity_where_the_variant_says(variant: Variant) -> None:
    """D4: arrivano's reading officer_in_command any_in_command lets an officer next to a unit in command relay."""
    chained = line(leaders={"g": "1012", "off": "1312"}, officers={"f1": ["off"]},
                   readings={"officer_in_command": "any_in_command"})
    chained.ranges["off"] = 3
    joins = variant.relays_join_by_contiguity(chained.reading)
    assert joins is (variant.book == "arrivano")
    assert command.in_command(variant, chained, "f1") == ({"a", "b", "c"} if joins else {"a", "b"})  # 1712 is four hexes from him
    chained.readings["officer_in_command"] = "general_range"
    assert command.in_command(variant, chained, "f1") == {"a", "b"}
    chained.readings["officer_in_command"] = "any_in_command"
    chained.leaders["off"] = "1912"  # next to no unit in command nor relaying officer: he never joins
    assert command.in_command(variant, chained, "f1") == {"a", "b"}


def test_out_of_command_says_why(variant: Variant) -> None:
    """Issue 19 item 16: why a unit is out of command and what it means, in the variant's citations."""
    r = variant.rules
    assert command.out_of_command_note(variant, line(), "f1", ["c", "d"]) == (
        f"c, d are out of command: not within 1 hex of its general g nor next to a unit in command "
        f"({r.COMMAND_RANGE}), so under a Defence order ({r.OUT_OF_COMMAND})")
    assert command.out_of_command_why(variant, line(officers={"f1": ["off"]}), "f1") == (
        f"out of command: not within 1 hex of its general g or of a relaying officer nor next to a unit in command "
        f"({r.COMMAND_RANGE}), so under a Defence order ({r.OUT_OF_COMMAND})")
    assert command.out_of_command_note(variant, line(generals={}), "f1", ["c"]) == (
        f"c is out of command: f1 has no general on the map ({r.LEADER_LOSS}), so under a Defence order "
        f"({r.OUT_OF_COMMAND})")
