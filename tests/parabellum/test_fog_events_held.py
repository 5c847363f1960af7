"""The fog serves an event naming a piece hidden from a seat as a stub (ParaBellumRuleset.hides, stub), which tells the
seat that such an event was made. Where an event is made only under a fact of its piece the seat may not examine (a
status, a marker under the stack, a hidden test's result), the stub's presence tells that fact (rev-m's note: a
recovery's pass, K2; a spent V marker, arrivano §16.3.4), so those types are served nothing (`withheld`). Every event type
naming pieces in either game is classified here (engine-rules §V.4's audit, with the events naming no piece in
test_fog_events_naming_no_piece.py): held, with the test proving it; its side's alone (`owner`); listed without the
hidden pieces (`listed_fields`); or stubbed, made whatever the hidden facts, with the reason. A new type fails until
classified; a type moved in or out of `withheld` fails until its reason here moves with it."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.arrivano.ruleset import ArrivanoRulesetImpl
from arbitro.adjudicator.caldiero import CaldieroRuleset
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset

# made only under a hidden fact of the piece named: served nothing where the piece is hidden (`withheld`)
HELD = {
    "both": {"StatusChanged": "a recovery's pass (§15.3.1), a rout or disorder whose cause lies under the stack: "
                              "tests/arrivano/test_fog_hidden_tests.py, tests/caldiero/test_fog_hidden_tests.py",
             "UnitPlaced": "its type told a unit from a commander placed out of sight (caldiero §21 set-up; "
                           "nifuzz F2: tests/caldiero/test_nifuzz_fog_setup_placed.py)",
             "LeaderPlaced": "the same: a commander's placing, or a unit's",
             "ChargeEnded": "a Charge marker taken off (caldiero §20.2.3, arrivano §14.2.2), with the disorder of a "
                            "charger in good order: belt and braces, no position found where the charger is hidden "
                            "from the defender at the assault's end (it stands next to its target; rev-o)"},
    "arrivano": {"OpenOrderMarked": "a spent V taken off (§16.3.4): tests/arrivano/test_fog_spent_markers.py"},
}
# served to one side alone under the fog (`owner`), never stubbed
OWNED = {"both": {"UnitOrderSet": "a unit's own order (caldiero §4.3.1/§5.3.1, arrivano §4.4): "
                                  "tests/caldiero/test_rev_l_fog_chief_range.py"}}
# served without the pieces hidden from the seat, nothing when none is left (`listed_fields`)
LISTED = {"arrivano": {"ArtilleryTurned": "guns turned each for itself (§11, §3.1 C): test_rev_m_fog_guns_turned.py"}}
# made whatever the hidden facts, so its stub tells only what the table shows: a command's (the owner's choice,
# its marker seen to move), an assault's (its pieces adjacent, so examined), a public roll's or the turn track's
STUBBED = {
    "both": {
        "LeaderMoved": "a command (`own`); not his own move (with a retreat, after a loss, an escape) is withheld "
                       "(`withholds`): tests/arrivano/test_fog_retreat_commander.py",
        "LeaderLost": "a commander's test after a combat or an escape, its die public (§4.4.3/§4.5.3)",
        "UnitRetreated": "an assault's result or a rout, both told by the assault or the rout's wait",
        "UnitsMoved": "a move command (the marker moves), a charge, a rout move (its wait public)",
        "UnitEliminated": "a loss, on the turn track (served_loss)",
        "ArtilleryFired": "a bombardment, its die public and its guns within the fog's reach",
        "AssaultDeclared": "a declaration (its pieces adjacent)", "AssaultResolved": "an assault's result",
        "UnitsAdvanced": "the attacker's choice after an assault",
    },
    "caldiero": {
        "AttackersWithdrawn": "the assault's attackers dropped (§12.2.2, §15.1, §16.1): adjacent to their target",
        "ElanSpent": "made pass or fail (§16.1), after a public die",
        "OrderTestTaken": "the owner's command to test (§5.3.1), after a public die; the Fuori Comando marker of a "
                          "stack the enemy may examine is the table's (§3 B-2, §20.4)",
    },
    "arrivano": {
        "GroupEntered": "the reinforcement schedule (§15.4)", "ColumnFormed": "the owner's column (§16.2, §17.2.9)",
        "OfficerOrderTried": "made pass or fail (§3.1 B-4), after a public die",
        "UnitExited": "off the map (§12.6, the flags' count)", "RoutStopped": "the end of a rout move, its wait public",
        "CounterChargeDeclared": "the asked seat's answer (§14.2.4)", "FlagCaptured": "the victory track (§17)",
        "InfantryFired": "open-order fire at a hex in the firer's sight (§16.3)",
        "OpenOrderTested": "made pass or fail (§16.3.3-§16.3.5), after a public die",
    },
}
RULESETS = {"caldiero": CaldieroRuleset, "arrivano": ArrivanoRulesetImpl}


def of(table: dict[str, dict[str, str]], game: str) -> set[str]:
    return {*table.get("both", {}), *table.get(game, {})}


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_every_event_type_naming_pieces_is_classified(game: str) -> None:
    ruleset: type[ParaBellumRuleset[Any]] = RULESETS[game]
    naming = {t.__name__ for t in ruleset.piece_fields}
    classes = [of(t, game) for t in (HELD, OWNED, LISTED, STUBBED)]
    assert sorted(naming - set().union(*classes)) == [], "an event naming pieces not in engine-rules §V.4's audit"
    assert sum(len(c) for c in classes) == len(set().union(*classes)), "a type classified twice"
    assert {t.__name__ for t in ruleset.withheld} == of(HELD, game), "the ruleset's `withheld` is not the audit's"
    assert {t.__name__ for t in ruleset.listed_fields} == of(LISTED, game)
