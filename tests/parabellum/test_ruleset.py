"""One ruleset class for the system (issue 18): the Ruleset protocol's methods both books answer alike are written
once in adjudicator/parabellum/ruleset.py; each game's ruleset names its variant and data folder and reads its
position, and answers only what its own book settles its own way."""

from __future__ import annotations

from arbitro.adjudicator.arrivano import ArrivanoRuleset
from arbitro.adjudicator.caldiero import CaldieroRuleset
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events.parabellum import GameEnded, PiecesSighted, TurnBegan
from arbitro.projections.base import Outcome

RULESETS: dict[str, type[ParaBellumRuleset]] = {"caldiero": CaldieroRuleset, "arrivano": ArrivanoRuleset}
SCENARIOS = {"caldiero": "historical", "arrivano": "montebello"}
WRITTEN_ONCE = ("apply", "note_interpretations", "notices", "is_irreversible", "outcome", "data_files")


def test_each_game_s_ruleset_is_the_system_s_with_its_variant(variant: Variant) -> None:
    cls = RULESETS[variant.book]
    assert issubclass(cls, ParaBellumRuleset) and cls.variant is variant
    assert [name for name in WRITTEN_ONCE if name in vars(cls)] == []


def test_the_shared_answers_read_each_game_s_state(variant: Variant) -> None:
    """The readings kept in the state, sorted; the recorded end as the outcome; a sighting irreversible, any other
    event not; the shipped data folder's files (hashed into every game)."""
    ruleset = RULESETS[variant.book]()
    state = ruleset.new_state(SCENARIOS[variant.book], ())
    assert ruleset.outcome(state) is None
    state = ruleset.note_interpretations(state, {"zz": "b", "aa": "a"})
    assert list(state.interpretations.items()) == [("aa", "a"), ("zz", "b")]
    ended = GameEnded(winner=ruleset.seats(state)[0], reason="objectives held", rule=f"{variant.book} §18")
    assert ruleset.outcome(ruleset.apply(state, ended)) == Outcome(winner=ended.winner, reason="objectives held",
                                                                   rule=ended.rule)
    assert ruleset.is_irreversible(PiecesSighted(seat="france", pieces=(), rule="r"))
    assert not ruleset.is_irreversible(TurnBegan(turn=2, rule="r"))
    assert ruleset.data_files() == ruleset.folder.files() and all(p.suffix == ".json" for p in ruleset.data_files())
