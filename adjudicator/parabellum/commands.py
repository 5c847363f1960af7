"""The commands both Para Bellum games accept with the same wire shape, defined once (issue 18).

Each game's command union (caldiero/commands.py, arrivano/commands.py) uses these models; where one game adds a
field, its own model extends the kernel's here, keeping the wire shape (field names and order) and the validation
errors of the game's model. Shapes that differ between the books stay in the games' modules."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, AliasChoices, Field

from arbitro.adjudicator.parabellum.data import HexStr, OrderName  # a hex as both books number it (XXYY)
from arbitro.adjudicator.ruleset import CommandModel


def distinct(names: list[str]) -> list[str]:
    """A set the rules name, in the order given: a name given twice is an error, not a second member."""
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"names {', '.join(twice)} more than once: each is one member of a set")
    return names


def as_set(names: list[str]) -> list[str]:
    """A set the rules name (the hexes attacked, caldiero §12.4.1; the units moving together, §9.1; the units
    advancing together, §12.7.3 in both), given in any order: stored and recorded in one order, as legal() lists it
    (issue 19 items 7 and 9; rev-assault2: an advance of the same units in another order was refused)."""
    return sorted(distinct(names))


class EndStep(CommandModel):
    """The seat is done with the current step of the sequence of play (caldiero §3.1, arrivano §3.1: set-up, the
    orders sub-phase, reorganisation, replacements, an activation's steps); what the step still obliges him to do
    is checked first. A step also ends by itself once its seat has nothing left to do in it (sequence.NOTHING_LEFT), but
    under the fog of war not one whose options hang on unseen pieces (sequence.UNSEEN_WAITS).
    (Arrivano's games up to 1.27.0 sent it as `next` and `end_orders`; since 1.31.0 neither is read.)"""

    type: Literal["end_step"]


class Activate(CommandModel):
    """The initiative winner activates a formation not yet activated (caldiero §6.2, arrivano §6.1)."""

    type: Literal["activate"]
    formation: str


class ChangeOrder(CommandModel):
    """A formation's order is changed by a command: the commander in chief's change in the Command phase (caldiero
    §5.2, arrivano §5.2, §4.3), or the order chosen at set-up (caldiero §21.2). Caldiero's games up to 0.14.0 sent
    it as `set_order`."""

    type: Literal["change_order"]
    formation: str
    order: OrderName


class TryOrderChange(CommandModel):
    """The activated general's one try to change his formation's order by his initiative (caldiero §5.2.2, arrivano
    §5.2.1; an independent column's officer for his column, arrivano §16.2). Caldiero's games up to 0.14.0 sent it
    as `change_order {order}`."""

    type: Literal["try_order_change"]
    order: OrderName


class Move(CommandModel):
    """Combat units move to `to` in the movement step of their formation's activation (§9 in both books), in march
    column when `column` (§9.3 in both). Who moves and what a charge names differ: Caldiero moves a group leaving
    one hex together (`caldiero.commands.GroupMove`: `units`, an optional `path`, a `charge` flag, caldiero §9.1,
    §20.2), Arrivano one unit (`arrivano.commands.UnitMove`: `unit`, the `charge` target hex, an artillery unit's
    `order`, arrivano §11, §14.2). Each extends this model with its fields, keeping its recorded wire shape."""

    type: Literal["move"]
    to: str
    column: bool = False


class Escape(CommandModel):
    """A commander's flight when an enemy enters his hex (§8.2.3 in both books) or comes next to him (arrivano §4.5.6:
    `to` null, he stays): parabellum/escape.py."""

    type: Literal["escape"]
    to: str | None


class MoveLeader(CommandModel):
    """A leader moves to a hex, never into an EZoC without friends there (§8.2.2 in both books); Caldiero's model
    extends it with the hex pattern and an optional path."""

    type: Literal["move_leader"]
    leader: str
    to: str


class Retreat(CommandModel):
    """The answer to a pending retreat after an assault (§12.6 in both books). How the line is named differs: Caldiero
    names one unit and its whole path (`caldiero.commands.RetreatAlong`: `unit`, `path`, caldiero §12.6), Arrivano the
    hex where the line ends and the part of the stack that goes (`arrivano.commands.RetreatTo`: `to`, `units`,
    `off_map`, arrivano §12.6, §12.8.1). Each extends this model with its fields, keeping its recorded wire shape."""

    type: Literal["retreat"]


class CavalryRetreat(CommandModel):
    """The answer to the offer of a retreat before combat (§14.1 in both books; parabellum/before_combat.py), one
    shape for both games: `to` the hex where the one-hex line ends (for an exit, the map-edge hex it leaves from, with
    `off_map`: only under arrivano's ruling retreat_before_combat_off_map: as_forced), `units` the asked units of the
    hex that go, as listed (the rest answer again), named wherever `to` names a hex; `to` null: stay (`units` null, as
    legal() lists it, or left out; rev-l L1). `units` is a set ("possono ritirarsi": whichever go), named in any order
    and stored in the listing's (reread-b: another order was refused). Caldiero's games up to the twentieth session
    named one `unit` and declined with `decline` (bench/drivers/translate_before_combat.py)."""

    type: Literal["cavalry_retreat"]
    to: str | None
    units: Annotated[list[str], AfterValidator(as_set)] | None = None  # a set, in any order, as listed
    off_map: bool = False


class Bombard(CommandModel):
    """Guns bombard a hex in the bombardment step of their formation's activation (caldiero §11.4, arrivano §11.4):
    `artillery` one gun, or two stacked guns firing together (§11.4.1 in both), at `target`. Arrivano's games up to
    1.11.0 named the guns `units`: that spelling is read as `artillery`, so their recorded commands still verify."""

    type: Literal["bombard"]
    artillery: list[str] = Field(min_length=1, max_length=2, validation_alias=AliasChoices("artillery", "units"))
    target: HexStr


class DefensiveFire(CommandModel):
    """Artillery of an assaulted hex bombards one of the attacking hexes before the assault (caldiero §11.4.5,
    arrivano §11.4.4): `artillery` the gun that fires, `target` the hex. Omitted `artillery`: the stack's fire, where
    the reading is one target per stack (arrivano interpretation defensive_fire_targets: one_target); `target` null:
    the guns hold their fire (Arrivano's refusal; Caldiero's is `decline`)."""

    type: Literal["defensive_fire"]
    artillery: str | None = None
    target: HexStr | None


class Advance(CommandModel):
    """The advance after combat (§12.7 in both books), answering the pending offer: `units` (one, §12.7.2, or several
    of a stack with their commander, §12.7.3) go into `to`, a hex the combat vacated. Arrivano's games up to 1.31.0
    sent `{unit, units}` without the hex (bench/drivers/translate_assault.py)."""

    type: Literal["advance"]
    units: Annotated[list[str], Field(min_length=1), AfterValidator(as_set)]  # a set, in any order
    to: HexStr


class Decline(CommandModel):
    """The seat takes none of a pending offer (no advance after combat, §12.7; in Caldiero also no defensive fire,
    no cavalry retreat before combat). Arrivano's games up to 1.31.0 declined an advance as `{"type": "advance",
    "unit": null}`."""

    type: Literal["decline"]


class EfficiencyValue(CommandModel):
    """A side's efficiency value in an assault where values tie for the most SP (§12.3.1 in both books: "il giocatore
    può scegliere"; who is asked is each game's). Caldiero's games up to 0.29.0 sent `choose {value}`."""

    type: Literal["efficiency_value"]
    value: int


class NeChoice(CommandModel):
    """An Ne with an Attack order (§12.5.4 in both books): `test` the attackers test (what a pass gives is D25), or
    the Ne stands. Caldiero's games up to 0.29.0 sent `choose {value: 1 | 0}`."""

    type: Literal["ne_choice"]
    test: bool


class ExchangeLoss(CommandModel):
    """The units a side loses to an Ex (§12.5.4 in both books; which sets are offered is D26): one unit, or the set
    of units the defender names (caldiero). Caldiero's games up to 0.29.0 sent `lose {units}`, Arrivano's up to
    1.31.0 `exchange_loss {unit}`."""

    type: Literal["exchange_loss"]
    units: Annotated[list[str], Field(min_length=1), AfterValidator(as_set)]  # a set, in any order, as listed
