"""Caldiero 1796 commands (pydantic, validated at the boundary). Imperative names; "type" discriminates."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import AfterValidator, Field

from arbitro.adjudicator.parabellum import commands as pb
from arbitro.adjudicator.parabellum.commands import (Activate, Advance, Bombard, ChangeOrder, Decline, DefensiveFire,
                                                     EfficiencyValue, EndStep, Escape, ExchangeLoss, HexStr, NeChoice,
                                                     TryOrderChange, as_set, distinct)
from arbitro.adjudicator.parabellum.data import OrderName as Order  # the four orders, §5.1 in both books
from arbitro.adjudicator.ruleset import CommandModel

# A path the player gives names at least the hex moved to (no path at all: the engine finds the best one).
Path = Annotated[list[HexStr], Field(min_length=1)]


class Place(CommandModel):
    """Set-up placement (§21) or a returning eliminated unit (§12.8)."""

    type: Literal["place"]
    piece: str
    hex: HexStr


class Reorganise(CommandModel):
    type: Literal["reorganise"]
    hex: HexStr


class UnitOrder(CommandModel):
    """Out-of-command units in a hex choose an order: efficiency test (§5.3.1) or free in the chief's range (§4.3.1)."""

    type: Literal["unit_order"]
    hex: HexStr
    order: Order


class GroupMove(pb.Move):
    """The kernel's move of a group: one or two units leaving one hex together (or entering together, §15.4)
    under an order every one may act under (caldiero §9.1), along `path` or the cheapest one (wire shape
    unchanged)."""

    units: Annotated[list[str], Field(min_length=1, max_length=2), AfterValidator(as_set)]
    to: HexStr
    path: Path | None = None
    charge: bool = False  # caldiero §20.2: stop before the enemy and place a Charge marker


class MoveLeader(pb.MoveLeader):
    """The kernel's leader move with Caldiero's hex pattern and an optional path (wire shape unchanged)."""

    to: HexStr
    path: Path | None = None


class Attack(CommandModel):
    type: Literal["attack"]
    attackers: Annotated[list[str], Field(min_length=1), AfterValidator(distinct)]  # a template's selection, any order
    defenders: Annotated[list[HexStr], Field(min_length=1), AfterValidator(as_set)]  # in hex order, as listed
    elan: str | None = None
    use_general: bool = True


class RetreatAlong(pb.Retreat):
    """The kernel's retreat answer: `unit` retreats along `path` (caldiero §12.6; wire shape unchanged)."""

    unit: str
    path: list[HexStr]


CaldieroCommand = Annotated[
    Union[Place, ChangeOrder, EndStep, Reorganise, Activate, TryOrderChange, UnitOrder, GroupMove, MoveLeader, Bombard,
          Attack, RetreatAlong, Advance, EfficiencyValue, NeChoice, ExchangeLoss, DefensiveFire, pb.CavalryRetreat,
          Decline, Escape],
    Field(discriminator="type"),
]
