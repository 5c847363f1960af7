"""One event per fact both games record (events/parabellum.py) and one fold (projections/parabellum.apply: what both
fold alike, then each game's own `fold_own`), run for each game (issue 18)."""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from arbitro.events import arrivano as arrivano_events
from arbitro.events import caldiero as caldiero_events
from arbitro.events import parabellum as pb
from arbitro.events.codec import canonical
from arbitro.projections import arrivano as arrivano_state
from arbitro.projections import caldiero as caldiero_state
from arbitro.projections import parabellum as parabellum_state

SHARED: tuple[type[msgspec.Struct], ...] = (
    pb.WeatherChanged, pb.InitiativeWon, pb.LeaderPlaced, pb.LeaderMoved, pb.LeaderLost, pb.UnitRetreated,
    pb.TurnBegan, pb.StepBegan, pb.StatusChanged, pb.UnitEliminated, pb.ActivationEnded, pb.FormationActivated,
    pb.ArtilleryFired, pb.GameEnded, pb.AssaultDeclared, pb.AssaultResolved, pb.UnitsAdvanced, pb.UnitsMoved,
    pb.UnitPlaced, pb.UnitOrderSet,
)
# The tags the two games stored the assault's facts under until Caldiero 0.24.0 and Arrivano 1.26.0.
RETIRED_ASSAULT_TAGS = ("attack_declared", "combat_resolved", "unit_advanced")


def _tag(cls: type) -> str:
    return str(cls.__struct_config__.tag)


def _caldiero() -> tuple[Any, Callable[[Any, Any], Any]]:
    state = caldiero_state.CaldieroState(
        turn=3,
        units={"u1": parabellum_state.UnitState(side="france", formation="f1", arm="infantry", hex="0101", where="map")},
        leaders={"g1": parabellum_state.LeaderState(side="france", role="general", formation="f1")},
        formations={"f1": parabellum_state.FormationState(side="france", general="g1")},
        activation=parabellum_state.Activation(formation="f1"),
    )
    return state, parabellum_state.apply


def _arrivano() -> tuple[Any, Callable[[Any, Any], Any]]:
    state = arrivano_state.ArrivanoState(
        scenario="test", turn=3,
        units={"u1": parabellum_state.UnitState(side="france", formation="f1", arm="infantry", hex="0101", where="map")},
        leaders={"g1": parabellum_state.LeaderState(side="france", role="general", formation="f1")},
        formations={"f1": parabellum_state.FormationState(side="france", general="g1", order="attack")},
        activation=parabellum_state.Activation(formation="f1"),
    )
    return state, parabellum_state.apply


GAMES = {"caldiero": _caldiero, "arrivano": _arrivano}
UNIONS = {"caldiero": caldiero_events.CaldieroEvent, "arrivano": arrivano_events.ArrivanoEvent}


@pytest.mark.parametrize("game", sorted(UNIONS))
def test_each_game_stores_the_shared_facts_as_the_systems_classes(game: str) -> None:
    members = typing.get_args(UNIONS[game])
    by_tag: dict[str, list[type]] = {}
    for cls in members:
        by_tag.setdefault(_tag(cls), []).append(cls)
    assert [t for t, classes in by_tag.items() if len(classes) > 1] == []
    for cls in SHARED:
        assert by_tag.get(_tag(cls)) == [cls], f"{game} stores {_tag(cls)} as {by_tag.get(_tag(cls))}"


@pytest.mark.parametrize("game", sorted(UNIONS))
def test_each_game_records_the_assault_in_the_systems_one_vocabulary(game: str) -> None:
    """The assault's declaration, result and advance are one class each in both games (issue 18): neither game's
    union keeps a tag of its own for them."""
    tags = {_tag(cls) for cls in typing.get_args(UNIONS[game])}
    assert {"assault_declared", "assault_resolved", "units_advanced"} <= tags
    assert not tags & set(RETIRED_ASSAULT_TAGS)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_fold_applies_the_assaults_declaration_and_advance(game: str) -> None:
    """Both §12.2.3 (a unit attacks once a turn) and §12.7 (the advance moves the units, and under caldiero §12.7.3
    their general, into the vacated hex): folded once, by projections/parabellum.apply."""
    state, fold = GAMES[game]()
    state = fold(state, pb.AssaultDeclared(attackers=("u1",), targets=("0202",), rule="r"))
    assert state.units["u1"].attacked_turn == 3
    state.leaders["g1"].hex, state.leaders["g1"].where = "0101", "map"
    state = fold(state, pb.UnitsAdvanced(units=("u1",), leaders=("g1",), to="0202", rule="r"))
    assert (state.units["u1"].hex, state.leaders["g1"].hex) == ("0202", "0202")
    assert state.leaders["g1"].moved_turn == 0  # carried: no move of his (D42)


@pytest.mark.parametrize("game", sorted(UNIONS))
def test_a_stored_shared_event_decodes_to_the_systems_class_with_its_bytes_unchanged(game: str) -> None:
    stored = b'{"leader":"g1","own":true,"path":["0101","0102"],"rule":"caldiero \\u00a74.1.4","type":"leader_moved"}'
    event = msgspec.json.decode(stored, type=UNIONS[game])
    assert type(event) is pb.LeaderMoved and event.path == ("0101", "0102")
    assert canonical(event) == canonical(msgspec.json.decode(stored))


def test_a_leader_s_move_says_whether_it_was_his_own() -> None:
    """rev-f F4: `own` has no default, so an emitter that forgets it is refused where it is written, not read as a
    carried move that leaves the commander free to move again this turn (D42). A stored event without it is refused
    too: every shipped log writes it."""
    with pytest.raises(TypeError, match="own"):
        pb.LeaderMoved(leader="g1", path=("0101",), rule="r")  # type: ignore[call-arg]
    with pytest.raises(msgspec.ValidationError, match="own"):
        msgspec.json.decode(b'{"leader":"g1","path":["0101"],"rule":"r","type":"leader_moved"}', type=pb.LeaderMoved)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_fold_applies_the_shared_events(game: str) -> None:
    state, fold = GAMES[game]()
    for event in (
        pb.WeatherChanged(box=2, rule="r"),
        pb.InitiativeWon(seat="austria", totals={"austria": 9, "france": 4}, rule="r"),
        pb.LeaderPlaced(leader="g1", hex="0303", rule="r"),
        pb.LeaderMoved(leader="g1", path=("0304", "0305"), rule="r", own=True),
        pb.UnitRetreated(unit="u1", path=("0102", "0103"), rule="r"),
    ):
        state = fold(state, event)
    assert (state.weather, state.initiative) == (2, "austria")
    leader = state.leaders["g1"]
    assert (leader.hex, leader.where, leader.moved_turn) == ("0305", "map", 3)  # his own move (D42)
    assert (state.units["u1"].hex, state.units["u1"].where) == ("0103", "map")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_fold_moves_places_and_orders_a_unit_alike(game: str) -> None:
    """A unit's move (caldiero §9, arrivano §9), its return to the map (both §12.8) and its own order for the
    activation (caldiero §5.3.1, arrivano §4.4) are one event each, folded once: the same fields for both games."""
    state, fold = GAMES[game]()
    state = fold(state, pb.UnitsMoved(units=("u1",), path=("0102", "0103"), rule="r", column=True))
    unit, act = state.units["u1"], state.activation
    assert (unit.hex, unit.where, unit.moved_turn) == ("0103", "map", 3)
    assert (act.moved, act.starts) == (["u1"], {"u1": "0101"}), "where its first move of the activation began"
    state = fold(state, pb.UnitsMoved(units=("u1",), path=("0104",), rule="r"))
    assert state.activation.starts == {"u1": "0101"} and state.units["u1"].hex == "0104"
    state = fold(state, pb.UnitsMoved(units=("u1",), path=(), rule="r"))
    assert state.units["u1"].hex == "0104", "a move spent where the unit stood leaves it there"
    state = fold(state, pb.UnitOrderSet(unit="u1", order="manoeuvre", rule="r"))
    assert state.activation.unit_orders == {"u1": "manoeuvre"}
    state = fold(state, pb.UnitEliminated(unit="u1", permanent=False, return_turn=4, rule="r"))
    state = fold(state, pb.UnitPlaced(unit="u1", hex="0202", rule="r", reduced=True))
    unit = state.units["u1"]
    assert (unit.hex, unit.where, unit.reduced, unit.status) == ("0202", "map", True, "good")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_unit_entering_the_map_began_nowhere(game: str) -> None:
    """A unit coming onto the map enters its entry hex first (caldiero §15.4, arrivano §15.4): its start is ""."""
    state, fold = GAMES[game]()
    state.units["u1"].hex, state.units["u1"].where = "", "offmap"
    state = fold(state, pb.UnitsMoved(units=("u1",), path=("0901", "0902"), rule="r"))
    assert state.activation.starts == {"u1": ""} and state.units["u1"].where == "map"
    assert parabellum_state.route_start(state, pb.UnitsMoved(units=("u1",), path=("0902",), rule="r")) == ""


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_fold_applies_the_shared_sequence_and_losses(game: str) -> None:
    state, fold = GAMES[game]()
    for event in (
        pb.TurnBegan(turn=4, rule="r"),
        pb.StepBegan(phase="action", step="combat", seat="austria", rule="r"),
        pb.StatusChanged(unit="u1", status="routed", rule="r"),
    ):
        state = fold(state, event)
    assert (state.turn, state.first_turn, state.phase, state.step, state.seat) == (4, False, "action", "combat", "austria")
    assert state.units["u1"].status == "routed"
    state = fold(state, pb.UnitEliminated(unit="u1", permanent=False, return_turn=6, rule="r"))
    unit = state.units["u1"]
    assert (unit.status, unit.reduced, unit.return_turn) == ("good", True, 6) and unit.where != "map"
    state = fold(state, pb.ActivationEnded(formation="f1", rule="r"))
    assert state.activation is None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_fold_ends_the_game_with_the_recorded_result(game: str) -> None:
    state, fold = GAMES[game]()
    ended = pb.GameEnded(winner="france", reason="VP france 6, austria 2", rule="r", points={"france": 6, "austria": 2},
                         level="tactical", difference=4)
    state = fold(state, ended)
    assert (state.phase, state.step, state.seat, state.result) == ("over", "over", "", ended)


@pytest.mark.parametrize("game", sorted(UNIONS))
def test_the_bombardment_and_the_result_are_typed_records(game: str) -> None:
    """No `dict[str, Any]` in the stored shared events: every field of artillery_fired and game_ended is typed."""
    for cls in (pb.ArtilleryFired, pb.GameEnded):
        hints = typing.get_type_hints(cls)
        assert all(hint is not Any and typing.get_args(hint)[-1:] != (Any,) for hint in hints.values()), cls
    fired = pb.ArtilleryFired(artillery=("a1",), target="0101", result="D", rule="r", column=3, roll=4, drm=1, row=5,
                              modifiers=(pb.DieModifier(reason="range 2", value=1),))
    assert msgspec.json.decode(msgspec.json.encode(fired), type=UNIONS[game]) == fired


def test_a_damaged_battery_is_not_a_condition() -> None:
    state, fold = _arrivano()
    state = fold(state, pb.StatusChanged(unit="u1", status="damaged", rule="arrivano §17.2.6"))
    assert (state.units["u1"].status, state.units["u1"].damaged) == ("good", True)


STATES = {"caldiero": caldiero_state.CaldieroState, "arrivano": arrivano_state.ArrivanoState}
PIECES = {"units": parabellum_state.UnitState, "leaders": parabellum_state.LeaderState,
          "formations": parabellum_state.FormationState}


@pytest.mark.parametrize("game", sorted(STATES))
def test_both_games_hold_the_systems_one_set_of_pieces(game: str) -> None:
    """One state type for a unit, a commander and a formation (issue 18): each game's position holds the system's
    structs, and every field its view serves is one of theirs or read from one (a property: `charging`, from
    `charge`)."""
    state = STATES[game]
    hints = typing.get_type_hints(state)
    assert {name: hints[name] for name in PIECES} == {name: dict[str, piece] for name, piece in PIECES.items()}
    unit = parabellum_state.UnitState
    read = {name for name, value in vars(unit).items() if isinstance(value, property)}
    assert set(state.unit_served) <= set(unit.__struct_fields__) | read
    assert set(state.leader_served) <= set(parabellum_state.LeaderState.__struct_fields__)


@pytest.mark.parametrize("game", ["caldiero", "arrivano"])
def test_both_games_write_off_the_map_and_the_eliminated_alike(game: str) -> None:
    """One meaning each (docs/rulesets/parabellum.md): off the map `hex` is ""; an eliminated unit that returns
    waits on the turn `track`, one permanently eliminated is `eliminated` (both §12.8); a lost commander is `lost`
    (caldiero §4.4, arrivano §4.5)."""
    wheres = []
    for permanent in (False, True):
        state, fold = GAMES[game]()
        state = fold(state, pb.UnitEliminated(unit="u1", permanent=permanent, return_turn=6, rule="r"))
        wheres.append(state.units["u1"].where)
    assert wheres == ["track", "eliminated"]
    state = fold(state, pb.LeaderLost(leader="g1", rule="r"))
    assert state.leaders["g1"].where == "lost"
    assert parabellum_state.UnitState(side="france", formation="f1", arm="infantry").hex == ""


# Stored shapes not yet typed, by name; this list may only shrink (issue 18: no dict[str, Any] in stored events).
UNTYPED = {"InfantryFired.record"}  # arrivano §16.3 open-order fire (open_order.py): its fire table's record


def _untyped_fields(cls: type[msgspec.Struct]) -> set[str]:
    def holds_any(tp: Any) -> bool:
        return tp is Any or any(holds_any(arg) for arg in typing.get_args(tp))

    hints = typing.get_type_hints(cls)
    return {f"{cls.__name__}.{name}" for name in cls.__struct_fields__ if holds_any(hints[name])}


@pytest.mark.parametrize("module", [caldiero_events, arrivano_events, pb], ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_stored_events_and_frames_are_typed(module: Any) -> None:
    """Every event and frame context a Para Bellum game stores is a typed struct all the way down (an assault's table
    read is `CombatTableRead`, not a dict of anything), but for the shapes listed in UNTYPED."""
    classes = [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, msgspec.Struct)
               and c.__module__ == module.__name__]
    assert classes
    found = set().union(*(_untyped_fields(c) for c in classes))
    assert found <= UNTYPED, sorted(found - UNTYPED)


class _Loose(msgspec.Struct):
    record: dict[str, Any]
    rows: tuple[int, ...] = ()


def test_the_typed_check_sees_a_dict_of_anything() -> None:
    assert _untyped_fields(_Loose) == {"_Loose.record"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_charge_marker_and_a_bombardment_are_folded_alike(game: str) -> None:
    """A Charge marker is taken with the move that ends the charge (caldiero §20.2: the marker names no hex, "";
    arrivano §14.2: the hex it will attack) and goes with the activation; the guns that bombarded are the
    activation's `fired` (once an activation, caldiero §11.4, arrivano §11.4), a defensive fire not counted. One
    fold for both games (Caldiero's `activation_recorded` charging and fired until 0.29.0)."""
    state, fold = GAMES[game]()
    state = fold(state, pb.UnitsMoved(units=("u1",), path=("0102",), rule="r"))
    assert not state.units["u1"].charging and not state.charging("u1")
    state = fold(state, pb.UnitsMoved(units=("u1",), path=("0103",), rule="r", charge="" if game == "caldiero" else "0104"))
    assert state.units["u1"].charging and state.charging("u1")
    assert state.units["u1"].charge == ("" if game == "caldiero" else "0104"), "one field: the marker and its hex"
    assert state.charge_target("u1") == (None if game == "caldiero" else "0104")
    fire = dict(target="0104", result="-", rule="r", column=1, roll=3, drm=0, row=3)
    state = fold(state, pb.ArtilleryFired(artillery=("u1",), defensive=True, **fire))
    assert state.activation.fired == []
    state = fold(state, pb.ArtilleryFired(artillery=("u1",), **fire))
    assert state.activation.fired == ["u1"]
    state = fold(state, pb.ActivationEnded(formation="f1", rule="r"))
    assert not state.units["u1"].charging and not state.charging("u1")


def test_caldiero_keeps_its_activation_records_typed() -> None:
    """Caldiero's own records of an activation are typed events (no key/values strings): the start distances of
    its Advance order (caldiero §5.1.1), the out-of-command units that tried an order (§5.3.1), a charge ended
    (§20.2.3)."""
    state, fold = _caldiero()
    state.units["u1"].charge = ""
    state = fold(state, caldiero_events.DistancesTaken(distances={"u1": 4}, rule="r"))
    state = fold(state, caldiero_events.OrderTestTaken(units=("u1",), rule="r"))
    state = fold(state, caldiero_events.ChargeEnded(unit="u1", rule="r"))
    assert (state.activation.start_dist, state.activation.ooc_tested) == ({"u1": 4}, ["u1"])
    assert not state.units["u1"].charging
    assert "activation_recorded" not in {_tag(c) for c in typing.get_args(caldiero_events.CaldieroEvent)}
