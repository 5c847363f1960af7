"""One ruleset class for the system (issue 18): the Ruleset protocol's methods both books answer alike are written
once in adjudicator/parabellum/ruleset.py; each game's ruleset names its variant and data folder and reads its
position, and answers only what its own book settles its own way."""

from __future__ import annotations

import typing

import msgspec
import pytest
from arbitro.adjudicator.arrivano import ArrivanoRuleset
from arbitro.adjudicator.caldiero import CaldieroRuleset
from arbitro.adjudicator.errors import BadPosition, Rejected
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset
from arbitro.adjudicator.service import POSITION_FORMAT, Arbitro
from arbitro.adjudicator.parabellum.stacking import stack_problem
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events.sqlite import SQLiteStore
from arbitro.events.parabellum import ActivationEnded, FormationActivated, GameEnded, PiecesSighted, TurnBegan
from arbitro.projections.base import Outcome
from tests.arrivano import harness as arrivano
from tests.caldiero import harness as caldiero

RULESETS: dict[str, type[ParaBellumRuleset]] = {"caldiero": CaldieroRuleset, "arrivano": ArrivanoRuleset}
SCENARIOS = {"caldiero": "historical", "arrivano": "montebello"}
WRITTEN_ONCE = ("apply", "note_interpretations", "notices", "is_irreversible", "outcome", "data_files", "world", "seats",
                "interpretations", "legal", "legal_of", "decide")


def test_each_game_s_ruleset_is_the_system_s_with_its_variant(variant: Variant) -> None:
    cls = RULESETS[variant.book]
    assert issubclass(cls, ParaBellumRuleset) and cls.variant is variant
    assert [name for name in WRITTEN_ONCE if name in vars(cls)] == []


def test_only_a_game_that_does_not_roll_for_its_last_formation_activates_it(variant: Variant) -> None:
    """initiative.next_activation asks `activate_only` only where the variant does not roll for the last formation
    (caldiero §6.2; arrivano §6.1 rolls after every activation): that game's ruleset answers it, the system's has none."""
    assert "activate_only" not in vars(ParaBellumRuleset)
    assert hasattr(RULESETS[variant.book], "activate_only") is (not variant.roll_for_last_formation)


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


SPOILS = [
    ("a commander not of the order of battle", lambda s: s.leaders.pop(sorted(s.leaders)[0]),
     "leaders must be exactly the order of battle's"),
    ("a status of no book", lambda s: setattr(s.units[sorted(s.units)[0]], "status", "shaken"), "status 'shaken'"),
    ("an order of no book", lambda s: setattr(s.formations[sorted(s.formations)[0]], "order", "charge"),
     "order 'charge' is not one of advance, attack, defence, manoeuvre"),
    ("a turn's order of no book", lambda s: setattr(s.units[sorted(s.units)[0]], "turn_order", "charge"),
     "turn_order 'charge' is not one of advance, attack, defence, manoeuvre"),
    ("a seat of neither side", lambda s: setattr(s, "seat", "prussia"), "seat must be"),
    ("a weather box off the track", lambda s: setattr(s, "weather", 7), "weather must be"),
    ("a unit off the grid", lambda s: (setattr(s.units[sorted(s.units)[0]], "hex", "9999"),
                                      setattr(s.units[sorted(s.units)[0]], "where", "map")), "which is not a map hex"),
    ("a unit missing", lambda s: s.units.pop(sorted(s.units)[0]), "units must be exactly the order of battle"),
]


def test_both_books_refuse_the_same_bad_positions(variant: Variant) -> None:
    """parabellum/ruleset.position_problems: what both books ask of any position (a position file, a fork, a
    ruling) is checked once for both games, each problem named (before this, Arrivano accepted a position with a
    commander missing, a status or order of no book, a seat of neither side)."""
    ruleset = RULESETS[variant.book]()
    assert ruleset.validate_position(ruleset.new_state(SCENARIOS[variant.book], ())) == []
    for what, spoil, problem in SPOILS:
        state = ruleset.new_state(SCENARIOS[variant.book], ())
        spoil(state)
        problems = ruleset.validate_position(state)
        assert any(problem in p for p in problems), (what, problems)


def test_a_scenario_its_data_do_not_have_is_refused_in_both_books(variant: Variant) -> None:
    """A position naming a scenario its data do not have is refused in both books, alone and by name, with the ones
    they have (before this only Arrivano refused it, in its own words: a Caldiero position of any name passed, and
    its rules then read the one battle's data under a version no file gives). A position file whose header names a
    scenario its state does not is refused so too."""
    ruleset = RULESETS[variant.book]()
    state = ruleset.new_state(SCENARIOS[variant.book], ())
    state.scenario = "nowhere"
    known = {"caldiero": "historical, il_tempo_regge", "arrivano": "campotenese, montebello"}[variant.book]
    problem = (f"scenario 'nowhere' is not one of {variant.book}'s in the data in force ({known}): the position's "
               "counters, map and rules are that scenario's")
    assert ruleset.validate_position(state) == [problem]
    position = {"format": POSITION_FORMAT, "ruleset": variant.book, "scenario": SCENARIOS[variant.book],
                "state": msgspec.to_builtins(state)}
    with pytest.raises(BadPosition) as refused:
        Arbitro(SQLiteStore(":memory:")).create(variant.book, position=position)
    assert str(refused.value) == f"the position is not legal: {problem}"


OTHER_SCENARIOS = {"caldiero": "il_tempo_regge", "arrivano": "campotenese"}


def test_a_position_whose_header_and_state_name_two_scenarios_is_refused_in_both_books(variant: Variant) -> None:
    """A position file whose header names one of the book's scenarios and whose state another (each known, each
    valid alone) is refused naming both (issue 18: it made a game recorded as the header's scenario, its genesis and
    provisional data that scenario's, played on the state's counters, map and rules); the header alone, or one naming
    the state's scenario, is taken."""
    ruleset = RULESETS[variant.book]()
    state = msgspec.to_builtins(ruleset.new_state(OTHER_SCENARIOS[variant.book], ()))
    header, named = SCENARIOS[variant.book], OTHER_SCENARIOS[variant.book]
    position = {"format": POSITION_FORMAT, "ruleset": variant.book, "scenario": header, "state": state}
    with pytest.raises(BadPosition) as refused:
        Arbitro(SQLiteStore(":memory:")).create(variant.book, position=position)
    assert str(refused.value) == (f"the position is named scenario {header!r} and its state is of {named!r}: a "
                                  "position is of one scenario (name the state's, or none)")
    app = Arbitro(SQLiteStore(":memory:"))
    for heading in (named, None):
        game = app.create(variant.book, position={**position, "scenario": heading})
        assert app.state_at(game).rules.scenario == named


def test_a_hex_of_both_sides_is_refused(variant: Variant) -> None:
    """§9.1.2 in both: no hex ever holds both sides' units."""
    ruleset = RULESETS[variant.book]()
    state = ruleset.new_state(SCENARIOS[variant.book], ())
    mine = next(u for u in sorted(state.units) if state.units[u].where == "map")
    theirs = next(u for u in sorted(state.units) if state.units[u].side != state.units[mine].side)
    state.units[theirs].hex, state.units[theirs].where = state.units[mine].hex, "map"
    assert f"{state.units[mine].hex} holds units of both sides" in ruleset.validate_position(state)


def test_a_unit_routed_in_place_beside_a_friend_is_a_legal_position(variant: Variant) -> None:
    """§7.1.1 in both books forbids a routed unit to stack "volontariamente" with friends not in rout, and "Se questo
    accade devono muovere": one routed in place (a failed test, a result) stands with them until its rout moves it on.
    The shipped games reach such positions (before a command: arrivano-montebello's 40e-i, routed by its §5.1.3
    Defence test on entering 3801 beside 6e-legere-i, 4 positions; -options' 22e-ii beside 22e-iii in 3209, 34;
    caldiero-tempo-regge's 2015, 2018, 2114 and 2210, 5), where an umpire's ruling was refused whatever it changed.
    A move's end still obeys §7.1.1, and any position §7.1's limits: a third unit is refused."""
    ruleset = RULESETS[variant.book]()
    state = ruleset.new_state(SCENARIOS[variant.book], ())
    state.phase = "action"  # caldiero §21: the set-up is over, the limits hold
    w = ruleset.world(state)
    alone = [us[0] for us in w.by_hex().values() if len(us) == 1 and w.arm(us[0]) == "infantry"]
    a = next(u for u in alone if any(v != u and w.arm(v) == "infantry" and w.formation_of(v) == w.formation_of(u)
                                     for v in w.units_of(w.side_of(u))))
    b = next(v for v in w.units_of(w.side_of(a)) if v != a and w.arm(v) == "infantry"
             and w.formation_of(v) == w.formation_of(a))
    h = state.units[a].hex
    state.units[b].hex = h
    state.units[a].status = "routed"
    assert ruleset.validate_position(state) == []
    assert f"({variant.cite('7.1.1')})" in (stack_problem(variant, ruleset.world(state), [a, b]) or "")
    c = next(v for v in w.units_of(w.side_of(a)) if v not in (a, b) and w.arm(v) == "infantry")
    state.units[c].hex = h
    assert any(p.startswith(f"{h}: 3 units in one hex") for p in ruleset.validate_position(state))


def test_a_command_is_the_step_s_seat_s_in_both_books_and_none_once_the_game_is_over(variant: Variant) -> None:
    """The commands of a position are its step's row of the game's steps of play, for the seat it waits for (both
    §3.1), listed and decided once for both games (parabellum/ruleset.py): the other seat is listed nothing and
    refused, and once the game is over nobody is listed anything and every command is refused citing the sequence of
    play (Caldiero cited §18's victory points, Arrivano §3.1)."""
    harness = caldiero if variant.book == "caldiero" else arrivano
    state = RULESETS[variant.book]().new_state(SCENARIOS[variant.book], ())
    state.phase, state.step, state.seat = "action", "choose_activation", "france"
    table = harness.Table(state)
    assert table.ruleset.legal(state, "france") and table.ruleset.legal(state, "austria") == []
    with pytest.raises(Rejected, match="not your turn"):
        table.ruleset.decide(table.decision("austria"), table.ruleset.parse_command({"type": "end_step"}))
    state.phase = "over"
    assert table.ruleset.legal(state, "france") == [] and table.ruleset.legal_of(state, "france", "x") == []
    with pytest.raises(Rejected, match="the game is over") as refused:
        table.ruleset.decide(table.decision("france"), table.ruleset.parse_command({"type": "end_step"}))
    assert refused.value.rule == str(variant.rules.SEQUENCE)


def test_a_turn_s_beginning_clears_the_turn_s_marks_in_both_books_and_is_the_checkpoint(variant: Variant) -> None:
    """One event per fact (issue 18): a turn's end is the next turn's `turn_began` (caldiero §3.1 C with §3.1 A, arrivano
    §3.1 A), whose fold is the system's: every formation and general to be activated again, a reserve unit's formation
    (caldiero §15.4.3) and an order chosen "per questo turno" (caldiero §5.3.1) gone. Caldiero's own `turn_ended` is
    gone; both games' checkpoints fall after `turn_began` and `game_ended`."""
    ruleset = RULESETS[variant.book]()
    state = ruleset.new_state(SCENARIOS[variant.book], ())
    unit, leader = sorted(state.units)[0], sorted(state.leaders)[0]
    for formation in state.formations.values():
        formation.activated = True
    state.leaders[leader].activated = True
    state.units[unit].attached, state.units[unit].turn_order = sorted(state.formations)[0], "attack"
    state = ruleset.apply(state, TurnBegan(turn=2, rule="§3.1"))
    assert not any(f.activated for f in state.formations.values()) and not state.leaders[leader].activated
    assert (state.units[unit].attached, state.units[unit].turn_order) == (None, "")
    assert "is_checkpoint" not in vars(RULESETS[variant.book])
    assert ruleset.is_checkpoint(TurnBegan(turn=2, rule="§3.1"))
    assert ruleset.is_checkpoint(GameEnded(winner=None, reason="draw", rule="§18"))
    assert "turn_ended" not in {t.__struct_config__.tag for t in typing.get_args(ruleset.Event)}


def test_an_activation_is_folded_once_for_both_books(variant: Variant) -> None:
    """One fold of formation_activated (caldiero §3.1 B, §6.2; arrivano §3.1 B, §6.1): the activation record with who
    is out of command, and the formation marked activated as it begins (its general's counter on its A side), in
    both games (Arrivano marked it as the activation ended); activation_ended drops the record, the mark stays."""
    ruleset = RULESETS[variant.book]()
    state = ruleset.new_state(SCENARIOS[variant.book], ())
    formation = sorted(state.formations)[0]
    unit = next(u for u, s in sorted(state.units.items()) if s.formation == formation)
    state = ruleset.apply(state, FormationActivated(formation=formation, by="france", rule="§6", out_of_command=(unit,)))
    assert state.activation is not None and state.formations[formation].activated
    assert (state.activation.formation, state.activation.column, state.activation.out_of_command) == (formation, None, [unit])
    state = ruleset.apply(state, ActivationEnded(formation=formation, rule="§3.1"))
    assert state.activation is None and state.formations[formation].activated
