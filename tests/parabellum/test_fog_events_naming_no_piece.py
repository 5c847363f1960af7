"""The fog redacts an event by the pieces it names (ParaBellumRuleset.hides), so an event type naming no piece is
served whole unless its game says otherwise (rev-m's common cause of M1-M3: a reorganised hex, a direction released,
a march order ended, each made by a hidden fact and served whole). Every such type of both games is classified here
as engine-rules §V.4's audit does, so a new one cannot be served whole unnoticed: a type made by a hidden fact of one
side is its side's alone (`owner`; proved by the non-interference tests named), any other public, with the reason."""

from __future__ import annotations

import typing
from typing import Any

import pytest

from arbitro.adjudicator.arrivano.ruleset import ArrivanoRulesetImpl
from arbitro.adjudicator.caldiero import CaldieroRuleset
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset

# its side's alone under the fog (`owner`), each with the test proving it
OWNED = {
    "caldiero": {"StepRecorded": "tests/caldiero/test_fog_hidden_tests.py, tried_at (§15.3)",
                 "DirectionReleased": "tests/caldiero/test_rev_m_fog_direction_released.py (§19.1)",
                 "DistancesTaken": "tests/caldiero/test_fog_advance.py (§5.1.1)"},
    "arrivano": {"MarchOrderEnded": "tests/arrivano/test_rev_m_fog_march_order.py (§17.1.5)"},
}
# public: what the table shows both players (or the game's end), served whole
PUBLIC = {
    "WeatherChanged": "the weather track (caldiero §17, arrivano §17.2.7)",
    "InitiativeWon": "the initiative's dice (§6)",
    "OrderChanged": "a formation's order marker (§5.1); an independent column's is Arrivano's `hides`",
    "OrderChangeTried": "the general's test for an order (§3.1 B-4), its die public",
    "TurnBegan": "the turn track", "StepBegan": "the sequence of play (§3)",
    "FormationActivated": "the activation (§6); who is out of command is served_command's",
    "ActivationEnded": "the activation's end (§6)", "CombatEnded": "each assault is served (a stub where hidden)",
    "SetupEnded": "the set-up's end (caldiero §21)", "GameEnded": "the result",
    "HeadquartersActivated": "the HQ counter turned (arrivano §17.1.6)",
    "PiecesSighted": "served to its seat alone by the kernel (others_sighting)",
    "ColumnDissolved": "its owner's rejoin (§16.2.1), the order marker taken away at the table "
                       "(tests/arrivano/test_fog_column_events.py)",
}


@pytest.mark.parametrize("ruleset", [CaldieroRuleset, ArrivanoRulesetImpl], ids=lambda r: r.name)
def test_every_event_type_naming_no_piece_is_classified(ruleset: type[ParaBellumRuleset[Any]]) -> None:
    naming_none = {t.__name__ for t in typing.get_args(ruleset.Event) if t not in ruleset.piece_fields}
    owned = set(OWNED[ruleset.name])
    assert sorted(naming_none - owned - set(PUBLIC)) == [], "an event naming no piece not in engine-rules §V.4's audit"
    assert owned <= naming_none and not owned & set(PUBLIC)
