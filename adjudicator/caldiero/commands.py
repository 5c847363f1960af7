"""Caldiero 1796 commands (pydantic, validated at the boundary). Imperative names; "type" discriminates."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

Order = Literal["advance", "attack", "defence", "manoeuvre"]
HexStr = Annotated[str, Field(pattern=r"^[0-9]{4}$")]
# A path the player gives names at least the hex moved to (no path at all: the engine finds the best one).
Path = Annotated[list[HexStr], Field(min_length=1)]


class _C(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Place(_C):
    """Set-up placement (§21) or a returning eliminated unit (§12.8)."""

    type: Literal["place"]
    piece: str
    hex: HexStr


class SetOrder(_C):
    """A formation's order: French set-up (§21.2) or a commander in chief's change (§5.2)."""

    type: Literal["set_order"]
    formation: str
    order: Order


class EndStep(_C):
    """Finish the current step (set-up, orders, reorganisation, replacements, movement, leaders,
    bombardment, combat); obligations are checked here."""

    type: Literal["end_step"]


class Reorganise(_C):
    type: Literal["reorganise"]
    hex: HexStr


class Activate(_C):
    type: Literal["activate"]
    formation: str


class ChangeOrder(_C):
    """The active general tries to change his formation's order by initiative (§5.2.2)."""

    type: Literal["change_order"]
    order: Order


class UnitOrder(_C):
    """Out-of-command units in a hex choose an order: efficiency test (§5.3.1) or free in the chief's range (§4.3.1)."""

    type: Literal["unit_order"]
    hex: HexStr
    order: Order


class Move(_C):
    type: Literal["move"]
    units: list[str] = Field(min_length=1, max_length=2)
    to: HexStr
    path: Path | None = None
    column: bool = False
    charge: bool = False  # caldiero §20.2: stop before the enemy and place a Charge marker


class MoveLeader(_C):
    type: Literal["move_leader"]
    leader: str
    to: HexStr
    path: Path | None = None


class Bombard(_C):
    type: Literal["bombard"]
    artillery: list[str] = Field(min_length=1, max_length=2)
    target: HexStr


class Attack(_C):
    type: Literal["attack"]
    attackers: list[str] = Field(min_length=1)
    defenders: list[HexStr] = Field(min_length=1)
    elan: str | None = None
    efficiency: int | None = None
    use_general: bool = True


class Retreat(_C):
    type: Literal["retreat"]
    unit: str
    path: list[HexStr]


class Advance(_C):
    type: Literal["advance"]
    units: list[str] = Field(min_length=1)
    to: HexStr


class Choose(_C):
    """Answer a pending choice: the defender's efficiency on a tie, Ne test (1 = test, 0 = accept)."""

    type: Literal["choose"]
    value: int


class Lose(_C):
    """Exchange losses (§12.5.4 Ex): the units the seat eliminates."""

    type: Literal["lose"]
    units: list[str] = Field(min_length=1)


class DefensiveFire(_C):
    type: Literal["defensive_fire"]
    artillery: str
    target: HexStr


class CavalryRetreat(_C):
    type: Literal["cavalry_retreat"]
    unit: str
    to: HexStr


class Decline(_C):
    """Decline a pending option (no advance, no defensive fire, no cavalry retreat, keep Ne)."""

    type: Literal["decline"]


CaldieroCommand = Annotated[
    Union[Place, SetOrder, EndStep, Reorganise, Activate, ChangeOrder, UnitOrder, Move, MoveLeader, Bombard,
          Attack, Retreat, Advance, Choose, Lose, DefensiveFire, CavalryRetreat, Decline],
    Field(discriminator="type"),
]
