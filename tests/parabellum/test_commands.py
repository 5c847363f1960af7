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
