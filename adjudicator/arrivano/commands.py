"""Arrivano i Francesi!: the commands a seat may send (pydantic, discriminated on "type")."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Order = Literal["advance", "attack", "defence", "manoeuvre"]


class _C(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChangeOrder(_C):
    """A commander in chief changes a general's order in the orders sub-phase (arrivano §5.2, §4.3)."""

    type: Literal["change_order"]
    formation: str
    order: Order


class EndOrders(_C):
    type: Literal["end_orders"]


class Activate(_C):
    """The initiative winner activates a formation not yet activated, his or the enemy's (arrivano §6.1)."""

    type: Literal["activate"]
    formation: str


class FormColumn(_C):
    """Option §16.2: the initiative winner activates one of his officers as a new independent column, listing its
    units (interpretation independent_column_membership: listed_at_creation) and giving it an order."""

    type: Literal["form_column"]
    officer: str
    units: list[str] = Field(min_length=1)
    order: Order


class ChooseOrder(_C):
    """The order of a formation entering with 'any order' (arrivano §17.1.2)."""

    type: Literal["choose_order"]
    order: Order


class TryOrderChange(_C):
    """The activated general's initiative roll to change his order (arrivano §5.2.1)."""

    type: Literal["try_order_change"]
    order: Order


class OfficerOrder(_C):
    """An officer stacked with out-of-command units of his formation tries to give them an order (arrivano §3.1 B-4)."""

    type: Literal["officer_order"]
    officer: str
    order: Order


class Bombard(_C):
    type: Literal["bombard"]
    units: list[str] = Field(min_length=1, max_length=2)
    target: str


class Move(_C):
    type: Literal["move"]
    unit: str
    to: str
    column: bool = False
    charge: str | None = None  # a cavalry charge against this adjacent enemy hex (arrivano §14.2)
    order: Order | None = None  # artillery only, always: the order it moves under (arrivano §11)


class MoveLeader(_C):
    type: Literal["move_leader"]
    leader: str
    to: str


class Assault(_C):
    type: Literal["assault"]
    attackers: list[str] = Field(min_length=1)
    targets: list[str] = Field(min_length=1)


class Next(_C):
    """End the current sub-phase of the activation (bombardment, movement, combat)."""

    type: Literal["next"]


class Retreat(_C):
    type: Literal["retreat"]
    to: str


class AdvanceAfter(_C):
    type: Literal["advance"]
    unit: str | None


class DrChoice(_C):
    type: Literal["dr_choice"]
    choice: Literal["exchange", "hold", "retreat"]


class NeChoice(_C):
    type: Literal["ne_choice"]
    test: bool


class Escape(_C):
    """A commander's escape when an enemy comes adjacent or enters his hex (arrivano §4.5.6, §8.2.3)."""

    type: Literal["escape"]
    to: str | None


class CounterCharge(_C):
    """The answer to an enemy charge passing next to Defence cavalry alone in its hex (arrivano §14.2.4)."""

    type: Literal["countercharge"]
    unit: str | None


class CavalryRetreat(_C):
    """Cavalry (and horse artillery) retreat before combat (arrivano §14.1)."""

    type: Literal["cavalry_retreat"]
    to: str | None


class EfficiencyValue(_C):
    """A side's efficiency value in an assault when SP tie between values (arrivano §12.3.1)."""

    type: Literal["efficiency_value"]
    value: int


class FreeOrder(_C):
    """The order out-of-command units in the chief's range take for this activation (interpretation
    dangling_4_3_2: caldiero_4_3_1)."""

    type: Literal["free_order"]
    order: Order


class Recover(_C):
    """At the end of the activation (B-6) the owner has one stack try to recover, or ends the tries (hex None)
    (arrivano §15.3)."""

    type: Literal["recover"]
    hex: str | None


class ExchangeLoss(_C):
    """The owner picks which of his units tied for the EX loss is eliminated (arrivano §12.5.4 EX)."""

    type: Literal["exchange_loss"]
    unit: str


class ReplacementHex(_C):
    """The owner places a returning unit within one hex of its general (arrivano §12.8.2)."""

    type: Literal["replacement_hex"]
    hex: str


class CommanderRefuge(_C):
    """The owner moves a commander whose hex's units were all eliminated to one of the nearest friendly hexes, or
    anywhere within his movement if no friend is within it (arrivano §4.5.4)."""

    type: Literal["commander_refuge"]
    to: str


class DefensiveFire(_C):
    type: Literal["defensive_fire"]
    target: str | None


ArrivanoCommand = Annotated[
    ChangeOrder | EndOrders | Activate | FormColumn | ChooseOrder | TryOrderChange | OfficerOrder | Bombard | Move | MoveLeader | Assault | Next | Retreat | AdvanceAfter | DrChoice | NeChoice | DefensiveFire | Escape | CavalryRetreat | CounterCharge | ExchangeLoss | ReplacementHex | Recover | FreeOrder | EfficiencyValue |
    CommanderRefuge,
    Field(discriminator="type"),
]
