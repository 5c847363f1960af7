"""Caricat!'s commands as a seat sends them (pydantic models: unknown fields and malformed values refused)."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field

from arbitro.adjudicator.ruleset import CommandModel

HexStr = Annotated[str, Field(pattern=r"^[0-9]{4}$")]
Name = Annotated[str, Field(min_length=1, max_length=40)]


class TryLevel(CommandModel):
    """caricat §2: roll 2d6 to move a leader's level one step (declared before the roll)."""

    type: Literal["try_level"]
    leader: Name
    level: Literal["attack", "advance", "hold", "reserve"]


class EndLevels(CommandModel):
    type: Literal["end_levels"]


class CallBrigade(CommandModel):
    """caricat §13.3.2-13.3.3: call an optional brigade into play."""

    type: Literal["call_brigade"]
    leader: Name


class Activate(CommandModel):
    type: Literal["activate"]
    leader: Name


class ActivateCavalry(CommandModel):
    type: Literal["activate_cavalry"]
    unit: Name


class Pass(CommandModel):
    type: Literal["pass"]


class Move(CommandModel):
    """A unit's move: the hexes it stands on, its start first (an arriving unit: its entry hex first)."""

    type: Literal["move"]
    unit: Name
    path: Annotated[list[HexStr], Field(min_length=1, max_length=30)]


class MoveLeader(CommandModel):
    """A leader joins another of his units (caricat §7.3: a leader stands with one of his units)."""

    type: Literal["move_leader"]
    leader: Name
    unit: Name


class Fire(CommandModel):
    type: Literal["fire"]
    units: Annotated[list[Name], Field(min_length=1, max_length=6)]
    target: Name


class Melee(CommandModel):
    type: Literal["melee"]
    units: Annotated[list[Name], Field(min_length=1, max_length=6)]
    target: Name


class Charge(CommandModel):
    """caricat §9.1: a cavalry unit's move and melee, from clear terrain 2-3 hexes from its target."""

    type: Literal["charge"]
    unit: Name
    path: Annotated[list[HexStr], Field(min_length=2, max_length=30)]
    target: Name


class EndActivation(CommandModel):
    type: Literal["end_activation"]


class DestroyBridge(CommandModel):
    type: Literal["destroy_bridge"]


class EndTurn(CommandModel):
    type: Literal["end_turn"]


# --- answers to the decisions on the engine's stack --------------------------------------------------------------
class Aim(CommandModel):
    type: Literal["aim"]
    attacker: Name


class TryRetreat(CommandModel):
    type: Literal["try_retreat"]
    attempt: bool


class Retreat(CommandModel):
    type: Literal["retreat"]
    hex: HexStr


class Advance(CommandModel):
    type: Literal["advance"]
    unit: Name | None = None  # None: decline
    hex: HexStr | None = None


class TransferLeader(CommandModel):
    """caricat §7.3: the unit a leader joins when the one he stood with is eliminated."""

    type: Literal["transfer_leader"]
    leader: Name
    unit: Name


class React(CommandModel):
    type: Literal["react"]
    fire: bool


CaricatCommand = Annotated[
    Union[TryLevel, EndLevels, CallBrigade, Activate, ActivateCavalry, Pass, Move, MoveLeader, Fire, Melee, Charge,
          EndActivation, DestroyBridge, EndTurn, Aim, TryRetreat, Retreat, Advance, React, TransferLeader],
    Field(discriminator="type"),
]
