"""Arrivano i Francesi!: the commands a seat may send (pydantic, discriminated on "type")."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from arbitro.adjudicator.parabellum import commands as pb
from arbitro.adjudicator.parabellum.commands import (Activate, Advance, Bombard, ChangeOrder, Decline, DefensiveFire,
                                                     EfficiencyValue, EndStep, Escape, ExchangeLoss, MoveLeader,
                                                     NeChoice, TryOrderChange)
from arbitro.adjudicator.parabellum.data import OrderName as Order  # the four orders, §5.1 in both books
from arbitro.adjudicator.ruleset import CommandModel


class FormColumn(CommandModel):
    """Option §16.2: the initiative winner activates one of his officers as a new independent column, listing its
    units (interpretation independent_column_membership: listed_at_creation) and giving it an order."""

    type: Literal["form_column"]
    officer: str
    units: list[str] = Field(min_length=1)
    order: Order


class RejoinColumn(CommandModel):
    """Option §16.2.1: the initiative's winner rejoins one of his independent columns to its formation as it is
    activated, its officer within his superior's command range (the activation is spent on it)."""

    type: Literal["rejoin_column"]
    officer: str


class ChooseOrder(CommandModel):
    """The order of a formation entering with 'any order' (arrivano §17.1.2)."""

    type: Literal["choose_order"]
    order: Order


class OfficerOrder(CommandModel):
    """An officer stacked with out-of-command units of his formation tries to give them an order (arrivano §3.1 B-4)."""

    type: Literal["officer_order"]
    officer: str
    order: Order


class UnitMove(pb.Move):
    """The kernel's move of one unit (arrivano §9.1), a charge when `charge` names its target (wire shape
    unchanged)."""

    unit: str
    charge: str | None = None  # a cavalry charge against this adjacent enemy hex (arrivano §14.2)
    order: Order | None = None  # artillery only, always: the order it moves under (arrivano §11)


class Assault(CommandModel):
    type: Literal["assault"]
    attackers: list[str] = Field(min_length=1)
    targets: list[str] = Field(min_length=1)
    use_general: bool = True  # arrivano §12.4.4 "può aggiungere uno": false declines a stacked general's +1 (§4.5.2)


class RetreatTo(pb.Retreat):
    """The kernel's retreat answer (arrivano §12.6): the hex where the line of retreat ends (for an exit, the map
    edge hex it leaves from, with off_map, §12.8.1); `units`: the part of the stack that goes there (§12.6: units
    stacked together may retreat to different hexes), required: the listed answers name them (up to the fourteenth
    session it read "omitted: the whole stack", a form the engine never accepted)."""

    to: str
    units: list[str]
    off_map: bool = False


class RoutMove(CommandModel):
    """Answer to a pending end-phase rout move (arrivano §15.2.2): where the unit ends, two hexes away, or a
    village, redoubt or friendly general's hex where it stops its rout (its own hex: it stays)."""

    type: Literal["rout_move"]
    to: str
    off_map: bool = False


class ArtilleryRetreat(CommandModel):
    """Answer to a pending §11.1 choice: the guns that retreat with the bombarded units (turned to Moved)."""

    type: Literal["artillery_retreat"]
    units: list[str]


class DrChoice(CommandModel):
    type: Literal["dr_choice"]
    choice: Literal["exchange", "hold", "retreat"]


class CounterCharge(CommandModel):
    """The answer to an enemy charge passing next to Defence cavalry alone in its hex (arrivano §14.2.4)."""

    type: Literal["countercharge"]
    unit: str | None


class Fire(CommandModel):
    """Open order (option, arrivano §16.3): a light unit moves to `to` (its own hex to fire in place; EZoC allowed)
    and fires alone at the adjacent enemy hex `target` (§16.3.2)."""

    type: Literal["fire"]
    unit: str
    to: str
    target: str


class FallBack(CommandModel):
    """After its open-order fire, the unit falls back one hex with the MP left, or stays (`to` null) (§16.3)."""

    type: Literal["fall_back"]
    to: str | None


class FireTarget(CommandModel):
    """The target's owner names the unit on top of the fired-at stack (§16.3.3, interpretation open_order_top_unit)."""

    type: Literal["fire_target"]
    unit: str


class LightRetreat(CommandModel):
    """Option §16.3.5: a V unit of the assaulted hex tries to retreat one hex before the odds; null ends the step."""

    type: Literal["light_retreat"]
    unit: str | None
    to: str | None
    off_map: bool = False


class FreeOrder(CommandModel):
    """The order out-of-command units in the chief's range take for this activation (interpretation
    dangling_4_3_2: caldiero_4_3_1)."""

    type: Literal["free_order"]
    order: Order


class Recover(CommandModel):
    """At the end of the activation (B-6) the owner has one stack try to recover, or ends the tries (hex None)
    (arrivano §15.3)."""

    type: Literal["recover"]
    hex: str | None


class ReplacementHex(CommandModel):
    """The owner places a returning unit within one hex of its general (arrivano §12.8.2)."""

    type: Literal["replacement_hex"]
    hex: str


class CommanderRefuge(CommandModel):
    """The owner moves a commander whose hex's units were all eliminated to one of the nearest friendly hexes, or
    anywhere within his movement if no friend is within it (arrivano §4.5.4)."""

    type: Literal["commander_refuge"]
    to: str


ArrivanoCommand = Annotated[
    ChangeOrder | EndStep | Activate | FormColumn | RejoinColumn | ChooseOrder | TryOrderChange | OfficerOrder | Bombard | UnitMove | MoveLeader | Assault | RetreatTo | RoutMove | ArtilleryRetreat | Advance | Decline | DrChoice | NeChoice | DefensiveFire | Escape | pb.CavalryRetreat | CounterCharge | ExchangeLoss | ReplacementHex | Recover | FreeOrder | EfficiencyValue |
    CommanderRefuge | Fire | FallBack | FireTarget | LightRetreat,
    Field(discriminator="type"),
]
