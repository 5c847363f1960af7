"""A hidden event's stub cites a rule fixed by the event's type (ParaBellumRuleset.stub, `stub_rules`), never the
event's own: under the fog of war (caldiero §20.4, arrivano §11.3.2) the rule an event cites can be a hidden fact
(a unit eliminated as artillery alone, §11.1.1, or by the table, §12.8; a move in march column, §9.3, or not; a
commander's flight, arrivano §4.5.6, or his move, §9.1.4; a rout's retreat, §15.2.2, or an assault's, §12.6; a unit's
own order, caldiero §4.3.1 or §5.3.1, is served the enemy not at all: tests/caldiero/test_rev_l_fog_chief_range.py).
Non-interference: events that differ only in what they cite serve a seat that may not see them the same bytes, in both
games; the umpire is served each whole. The game-level pair: a unit out of Austria's sight moves in march column or not (arrivano §9.3)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.arrivano.ruleset import ArrivanoRulesetImpl
from arbitro.adjudicator.caldiero import CaldieroRuleset
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset
from arbitro.adjudicator.seat_numbers import held, is_stub
from arbitro.events import arrivano as AE
from arbitro.events import caldiero as CE
from arbitro.events import parabellum as pb
from arbitro.events.codec import canonical
from tests.arrivano import harness as A
from tests.arrivano.test_fog_served import play
from tests.caldiero import harness as C

CALDIERO_FOG = ("fog_of_war",)


def arrivano_hidden() -> tuple[Any, str, str]:
    """An Arrivano position, a French unit (6e-legere-i) Austria may not examine, and its hex."""
    x = A.open_ground()
    state = A.position({"6e-legere-i": x, "ir18-i": "3914"}, leaders={"watrin": x})
    assert "6e-legere-i" in A.RULESET.hidden_units(state, "austria")
    return state, "6e-legere-i", x


def caldiero_hidden() -> tuple[Any, str, str]:
    """A Caldiero position under its fog option, a French unit (fr-40-ligne) Austria may not examine, and its hex."""
    state = C.position({"fr-18-ligne": "1417", "fr-40-ligne": "2518", "au-colloredo": "1917"},
                       leaders={"massena": "2518"}, options=CALDIERO_FOG)
    assert "fr-40-ligne" in C.RULESET.hidden_units(state, "austria")
    return state, "fr-40-ligne", "2518"


def pairs(game: str, unit: str, at: str, leader: str) -> list[tuple[Any, Any]]:
    """Events of one type about the hidden `unit` (at `at`, with its commander `leader`), each pair differing only in
    the rules the game cites for them (and the fields that follow the rule: the cause, whether fire is defensive)."""
    def r(section: str) -> str:
        return f"{game} §{section}"
    return [
        (pb.UnitEliminated(unit=unit, permanent=False, return_turn=3, rule=r("11.1.1")),
         pb.UnitEliminated(unit=unit, permanent=False, return_turn=3, rule=r("12.8"), cause=f"{r('12.5.4')} EX")),
        (pb.UnitEliminated(unit=unit, permanent=True, return_turn=0, rule=r("11.1")),
         pb.UnitEliminated(unit=unit, permanent=True, return_turn=0, rule=r("12.8.1"))),
        (pb.StatusChanged(unit=unit, status="disordered", rule=r("12.5.4")),
         pb.StatusChanged(unit=unit, status="disordered", rule=r("11.4.3"))),
        (pb.UnitsMoved(units=(unit,), path=(at,), rule=r("9.3"), column=True), pb.UnitsMoved(units=(unit,), path=(at,), rule=r("9"))),
        (pb.UnitRetreated(unit=unit, path=(at,), rule=r("15.2.2")), pb.UnitRetreated(unit=unit, path=(at,), rule=r("14.1"))),
        (pb.LeaderMoved(leader=leader, path=(at,), rule=r("4.5.6"), own=False),  # not his own: withheld
         pb.LeaderMoved(leader=leader, path=(at,), rule=r("12.6"), own=False)),
        (pb.LeaderMoved(leader=leader, path=(at,), rule=r("4.1.4"), own=True),
         pb.LeaderMoved(leader=leader, path=(at,), rule=r("9.1.4"), own=True)),
        (pb.ArtilleryFired(artillery=(unit,), target=at, result="-", rule=r("11.4.4"), column=1, roll=3, drm=0, row=3, defensive=True),
         pb.ArtilleryFired(artillery=(unit,), target=at, result="-", rule=r("11.4"), column=1, roll=3, drm=0, row=3)),
        (pb.AssaultResolved(result="cancelled", rule=r("14.1"), attackers=(unit,)),
         pb.AssaultResolved(result="cancelled", rule=r("12.2"), attackers=(unit,))),
        (pb.UnitsAdvanced(units=(unit,), leaders=(leader,), to=at, rule=r("12.7.3")),
         pb.UnitsAdvanced(units=(unit,), leaders=(), to=at, rule=r("12.7"))),
    ]


def own_pairs(game: str, unit: str, at: str) -> list[tuple[Any, Any]]:
    """The same for events of the game's own whose rule the shipped logs show varying: Arrivano's guns turned by a
    move (§11) or back at the end phase (§3.1 C; served without the hidden guns, here nothing), its open order tested (§16.3.3 / §16.3.4), its columns (§16.2 /
    §17.2.9); Caldiero's attackers withdrawn by disorder (§15.1), a failed "Attack?" test (§12.2.2) or Elan (§16.1)."""
    if game == "arrivano":
        return [(AE.ArtilleryTurned(units=[unit], moved=True, rule="arrivano §11"),
                 AE.ArtilleryTurned(units=[unit], moved=True, rule="arrivano §3.1 C")),
                (AE.OpenOrderTested(unit=unit, test="retreat", passed=True, rule="arrivano §16.3.3"),
                 AE.OpenOrderTested(unit=unit, test="retreat", passed=True, rule="arrivano §16.3.4")),
                (AE.ColumnFormed(officer="o", units=[unit], order="attack", rule="arrivano §16.2"),
                 AE.ColumnFormed(officer="o", units=[unit], order="attack", rule="arrivano §17.2.9"))]
    withdrawn = [CE.AttackersWithdrawn(units=(unit,), rule=f"caldiero §{s}") for s in ("15.1", "12.2.2", "16.1")]
    return [(withdrawn[0], withdrawn[1]), (withdrawn[2], withdrawn[0])]


def served(ruleset: Any, event: Any, seat: str, state: Any) -> bytes:
    return canonical(ruleset.redact(event, seat, state))


def test_a_hidden_events_stub_cites_its_types_rule_in_both_games() -> None:
    for game, ruleset, (state, unit, at), leader in (("arrivano", A.RULESET, arrivano_hidden(), "watrin"),
                                                     ("caldiero", C.RULESET, caldiero_hidden(), "massena")):
        for one, two in [*pairs(game, unit, at, leader), *own_pairs(game, unit, at)]:
            kind = type(one).__name__
            assert served(ruleset, one, "umpire", state) != served(ruleset, two, "umpire", state), kind
            assert served(ruleset, one, "austria", state) == served(ruleset, two, "austria", state), \
                f"{game}: a hidden {kind} tells Austria the rule it was made under"
            stub = ruleset.redact(one, "austria", state)
            if type(one) in ruleset.listed_fields or ruleset.withholds(one):  # a list of pieces without the
                # hidden ones (here none is left), or made only under a hidden fact of its piece: served nothing
                assert stub is None, stub
                continue
            assert set(stub) == {"type", "rule", "hidden"} and stub["rule"].startswith(f"{game} §"), stub


def test_each_kind_of_stub_names_the_rule_of_its_kind() -> None:
    """The rule a stub cites is its type's (the Rulebook's concept: unit_eliminated §12.8, units_moved the movement
    rule, ...); a type without one cites the fog rule itself."""
    state, unit, at = arrivano_hidden()
    cited = {msgspec.to_builtins(one)["type"]: A.RULESET.redact(one, "austria", state)["rule"]
             for one, _ in pairs("arrivano", unit, at, "watrin") if not A.RULESET.withholds(one)}
    assert cited == {"unit_eliminated": "arrivano §12.8",
                     "units_moved": "arrivano §9", "unit_retreated": "arrivano §12.6",
                     "leader_moved": "arrivano §9.1.4", "artillery_fired": "arrivano §11.4",
                     "assault_resolved": "arrivano §12", "units_advanced": "arrivano §12.7"}


def march_column_out_of_sight(column: bool) -> tuple[bytes, bytes]:
    """Austria's bytes and the umpire's when 6e-legere-i, on a main road far out of Austria's sight, moves one hex
    along it in march column (arrivano §9.3) or not, the same path either way."""
    s = A.RULESET.data.scenarios["montebello"]
    road = next(h for h in sorted(s.map.hexes()) if "strada" in s.map.roads_at(h) and not s.map.hex(h).other_terrain
                and len([n for n in s.map.grid.neighbours(h) if s.map.roads_between(h, n)]) == 2)
    to = min(n for n in s.map.grid.neighbours(road) if s.map.roads_between(road, n))
    state = A.position({"6e-legere-i": road, "ir18-i": "0801"}, leaders={"watrin": road}, orders={"W": "manoeuvre"})
    assert A.RULESET.unexaminable(state, "austria", [road, to]) == {road, to}, "the road must be out of Austria's sight"
    t = A.at_step(state, "W", "movement")
    austria, umpire = play(t, [({"type": "move", "unit": "6e-legere-i", "to": to, "column": column}, [])])
    assert t.of(pb.UnitsMoved)[-1].column is column
    return austria, umpire


def test_a_march_column_out_of_sight_changes_nothing_served() -> None:
    column, plain = march_column_out_of_sight(True), march_column_out_of_sight(False)
    assert column[1] != plain[1] and b"9.3" in column[1], "the umpire is served the column's §9.3"
    assert column[0] == plain[0], "Austria is told by the rule cited that an unseen unit marched in column"


def test_how_many_hidden_events_and_where_is_not_served_in_either_game() -> None:
    """A seat's item holds each kind of stub once, after the events it may see (seat_numbers.held, engine-rules
    §V.6): so for Caldiero's stubs too, whose fog marker is its rule's words rather than `true` (a Caldiero stub was
    not found a stub, and was served in place, once per hidden event)."""
    for ruleset, (state, unit, at) in ((A.RULESET, arrivano_hidden()), (C.RULESET, caldiero_hidden())):
        stub = ruleset.redact(pb.UnitRetreated(unit=unit, path=(at,), rule="r"), "austria", state)
        seen = {"type": "step_began", "phase": "action", "step": "combat", "seat": "france", "rule": "r"}
        assert is_stub(stub)
        assert canonical(held([stub, seen])) == canonical(held([seen, stub, stub])) == canonical([seen, stub])


@pytest.mark.parametrize("ruleset", [CaldieroRuleset, ArrivanoRulesetImpl], ids=lambda r: r.variant.book)
def test_every_stub_rule_names_a_rule_of_its_book(ruleset: type[ParaBellumRuleset[Any]]) -> None:
    """`stub` looks its rule up by name while a seat's view is projected: a name its variant's rules lack would
    raise there, in the middle of serving a seat, not here."""
    names = {*ruleset.stub_rules.values(), "FOG"}
    assert sorted(n for n in names if not hasattr(ruleset.variant.rules, n)) == []
