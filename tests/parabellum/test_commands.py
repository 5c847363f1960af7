"""The commands both games accept are the kernel's models, parsed the same from the wire in both (issue 18)."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from arbitro.adjudicator.arrivano.commands import ArrivanoCommand
from arbitro.adjudicator.caldiero.commands import CaldieroCommand
from arbitro.adjudicator.parabellum import commands as pb

UNIONS = {"caldiero": TypeAdapter(CaldieroCommand), "arrivano": TypeAdapter(ArrivanoCommand)}


@pytest.fixture(params=sorted(UNIONS))
def union(request: pytest.FixtureRequest) -> TypeAdapter:
    return UNIONS[request.param]


def test_activate_is_the_kernels_model(union: TypeAdapter) -> None:
    cmd = union.validate_python({"type": "activate", "formation": "F1"})
    assert type(cmd) is pb.Activate
    assert cmd.model_dump() == {"type": "activate", "formation": "F1"}


def test_move_leader_is_the_kernels_model_or_extends_it(union: TypeAdapter) -> None:
    cmd = union.validate_python({"type": "move_leader", "leader": "L1", "to": "0102"})
    assert isinstance(cmd, pb.MoveLeader)
    assert list(cmd.model_dump())[:3] == ["type", "leader", "to"]


def test_unknown_fields_rejected_by_the_shared_base(union: TypeAdapter) -> None:
    with pytest.raises(ValidationError, match="extra_forbidden|Extra inputs"):
        union.validate_python({"type": "activate", "formation": "F1", "general": "G"})


def test_caldiero_keeps_its_hex_pattern_and_path() -> None:
    caldiero, arrivano = UNIONS["caldiero"], UNIONS["arrivano"]
    with pytest.raises(ValidationError, match="string_pattern_mismatch|should match pattern"):
        caldiero.validate_python({"type": "move_leader", "leader": "L1", "to": "x1"})
    moved = caldiero.validate_python({"type": "move_leader", "leader": "L1", "to": "0102", "path": ["0102"]})
    assert moved.model_dump() == {"type": "move_leader", "leader": "L1", "to": "0102", "path": ["0102"]}
    # Arrivano's model is the kernel's, without Caldiero's pattern.
    assert arrivano.validate_python({"type": "move_leader", "leader": "L1", "to": "x1"}).to == "x1"


def test_bombard_is_the_kernels_model_and_reads_arrivanos_old_spelling(union: TypeAdapter) -> None:
    """One Bombard (caldiero §11.4, arrivano §11.4): one or two guns as `artillery`, a hex target; `units`, the name
    Arrivano's games up to 1.11.0 recorded, is read as `artillery`, so their logs and exports still verify."""
    cmd = union.validate_python({"type": "bombard", "artillery": ["g1", "g2"], "target": "0102"})
    assert type(cmd) is pb.Bombard
    assert cmd.model_dump() == {"type": "bombard", "artillery": ["g1", "g2"], "target": "0102"}
    old = union.validate_python({"type": "bombard", "units": ["g1"], "target": "0102"})
    assert old.model_dump() == {"type": "bombard", "artillery": ["g1"], "target": "0102"}
    for bad in ({"artillery": []}, {"artillery": ["a", "b", "c"]}, {"artillery": ["a"], "units": ["a"]},
                {"artillery": ["a"], "target": "x1"}):
        with pytest.raises(ValidationError):
            union.validate_python({"type": "bombard", "target": "0102"} | bad)


def test_move_extends_the_kernels_model_with_each_games_wire_form() -> None:
    """One `Move` (§9 in both: a destination, march column by §9.3) that each game extends with who moves: Caldiero a
    group with an optional path and a charge flag (caldiero §9.1, §20.2), Arrivano one unit with a charge target
    and an artillery order (arrivano §11, §14.2). Recorded commands parse to the same values; each game refuses
    the other's fields."""
    caldiero, arrivano = UNIONS["caldiero"], UNIONS["arrivano"]
    group = {"type": "move", "units": ["u1", "u2"], "to": "0102", "path": ["0101", "0102"], "column": False,
             "charge": True}
    one = {"type": "move", "unit": "u1", "to": "0102", "column": True, "charge": "0103", "order": "manoeuvre"}
    for union, wire in ((caldiero, group), (arrivano, one)):
        cmd = union.validate_python(wire)
        assert isinstance(cmd, pb.Move) and cmd.model_dump() == wire
    assert caldiero.validate_python({"type": "move", "units": ["u1"], "to": "0102"}).model_dump() == {
        "type": "move", "units": ["u1"], "to": "0102", "path": None, "column": False, "charge": False}
    with pytest.raises(ValidationError):
        caldiero.validate_python(one)
    with pytest.raises(ValidationError):
        arrivano.validate_python(group)
    with pytest.raises(ValidationError, match="string_pattern_mismatch|should match pattern"):
        caldiero.validate_python({**group, "to": "x1", "path": None})


def test_retreat_answers_extend_the_kernels_models_with_each_games_wire_form() -> None:
    """One `Retreat` (§12.6 in both), each game naming the line its own way: Caldiero one unit and its path, Arrivano
    the hex where the line ends, the units that go and an exit. Recorded answers parse to the same values; each game
    refuses the other's fields."""
    caldiero, arrivano = UNIONS["caldiero"], UNIONS["arrivano"]
    theirs, ours = ({"type": "retreat", "unit": "u1", "path": ["0102", "0103"]},
                    {"type": "retreat", "to": "0103", "units": ["u1"], "off_map": False})
    for union, wire, other in ((caldiero, theirs, ours), (arrivano, ours, theirs)):
        cmd = union.validate_python(wire)
        assert isinstance(cmd, pb.Retreat) and type(cmd) is not pb.Retreat and cmd.model_dump() == wire
        with pytest.raises(ValidationError):
            union.validate_python(other)


def test_the_retreat_before_combat_is_one_command_in_both_games() -> None:
    """§14.1 in both (parabellum/before_combat.py): the kernel's `CavalryRetreat` itself, `{to, units, off_map}`, `to`
    null to stay; Caldiero's former `{unit, to}` is refused by both (twentieth session)."""
    for union in UNIONS.values():
        for wire in ({"type": "cavalry_retreat", "to": None, "units": None, "off_map": False},
                     {"type": "cavalry_retreat", "to": "0102", "units": ["c1"], "off_map": False}):
            cmd = union.validate_python(wire)
            assert type(cmd) is pb.CavalryRetreat and cmd.model_dump() == wire
        with pytest.raises(ValidationError):
            union.validate_python({"type": "cavalry_retreat", "unit": "c1", "to": "0102"})
