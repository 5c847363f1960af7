"""Monferrato commands (validated at the boundary by pydantic). Units are named by their order-of-battle id
("gon_inf1"), zones by their map id ("casale"), chits by their id ("chit05")."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import AfterValidator, Field

from arbitro.adjudicator.ruleset import CommandModel

# unit and zone lists of a choice are kept sorted, so the stored command does not depend on the order typed
Units = Annotated[list[str], Field(min_length=1, max_length=40), AfterValidator(sorted)]
Zones = Annotated[list[str], Field(min_length=1, max_length=6), AfterValidator(sorted)]


class DrawChit(CommandModel):
    """monferrato §5 2: draw one chit and activate nothing."""

    type: Literal["draw_chit"]


class Activate(CommandModel):
    """monferrato §5 1 and 3: the zones whose units of the drawn command are activated; several zones need the
    command's commander (`commander`), within his radius and up to his leadership."""

    type: Literal["activate"]
    zones: Zones
    commander: str | None = None


class PlayChit(CommandModel):
    """monferrato §5.1, §16: play a chit from the hand."""

    type: Literal["play_chit"]
    chit: str


class Discard(CommandModel):
    """monferrato §5 2: with five chits in hand, discard one."""

    type: Literal["discard"]
    chit: str


class Move(CommandModel):
    """monferrato §6: units of one activated zone move together along `path` (the zones entered, in order);
    `leave` names units of the group left behind in a zone passed through (unit -> zone)."""

    type: Literal["move"]
    units: Units
    path: Annotated[list[str], Field(min_length=1, max_length=6)]
    leave: Annotated[dict[str, str], Field(max_length=40)] = {}


class Recover(CommandModel):
    """monferrato §7.4.3: activated disorganised units in supply recover."""

    type: Literal["recover"]
    units: Units


class EndActivation(CommandModel):
    """monferrato §5.2: the activation ends; the marker goes to the activated box."""

    type: Literal["end_activation"]


class Bombard(CommandModel):
    """monferrato §8.1-§8.2: activated artillery of one zone fires at an adjacent fortress's walls, out of a
    fortress at adjacent enemies, or through a breach (which, follows from where they are and the target)."""

    type: Literal["bombard"]
    units: Units
    target: str


class Siege(CommandModel):
    """monferrato §9.1-§9.3: activated sappers lay mines on a fortress side, fire them, countermine or rebuild."""

    type: Literal["siege"]
    units: Units
    operation: Literal["mine", "detonate", "countermine", "rebuild"]
    side: str  # "fortress/toward", e.g. "casale/trino"


class Fort(CommandModel):
    """monferrato §10: an activated sapper spends its whole allowance to build a fort, or destroy an own one."""

    type: Literal["fort"]
    unit: str
    action: Literal["build", "destroy"]


class Raid(CommandModel):
    """monferrato §11: activated infantry and cavalry of one zone raid, where they are (`path` empty) or after
    moving along `path`."""

    type: Literal["raid"]
    units: Units
    path: Annotated[list[str], Field(max_length=6)]


class TakeForts(CommandModel):
    """monferrato §10, §9.4: the enemy forts won or found alone: how many to convert (the rest destroyed), and
    whether a battle's winner destroys the fortified town."""

    type: Literal["take_forts"]
    convert: int = Field(ge=0, le=2)
    destroy_town: bool


class Replace(CommandModel):
    """monferrato §16.6: spend a replacement on an eliminated unit, back in `zone`; or no more (both null)."""

    type: Literal["replace"]
    unit: str | None
    zone: str | None


class ReturnCamp(CommandModel):
    """monferrato §14.5: the army's eliminated camp comes back at a supply source holding friendly units."""

    type: Literal["return_camp"]
    unit: str
    zone: str


class CallSupport(CommandModel):
    """monferrato §7.1: the attacking commander calls one more supporting unit (`unit`), or no more (null)."""

    type: Literal["call_support"]
    unit: str | None


class Respond(CommandModel):
    """monferrato §5.1: the defender plays a response chit (`chit`), or none (null)."""

    type: Literal["respond"]
    chit: str | None


class TakeHit(CommandModel):
    """monferrato §7.3: the owner allocates one hit to one of its units in the battle."""

    type: Literal["take_hit"]
    unit: str


class ContinueBattle(CommandModel):
    """monferrato §7.2: in a major battle, fight another round (true) or end it (false)."""

    type: Literal["continue_battle"]
    go: bool


class PlaceCommander(CommandModel):
    """monferrato §7.4.1: where the replacement commander appears: his zone, or another holding friendly units."""

    type: Literal["place_commander"]
    unit: str
    zone: str


class SetUp(CommandModel):
    """monferrato scenario, "Setup iniziale": the answer to a set-up choice: the units it places (none for a fort)
    and the zone."""

    type: Literal["set_up"]
    units: list[str]
    zone: str


class ChooseValue(CommandModel):
    """monferrato scenario, "Setup iniziale", under the reading `scelta_3_o_4: value_each`: the value chosen for an
    "a scelta: 3 o 4" counter."""

    type: Literal["choose_value"]
    unit: str
    fire: int = Field(ge=1, le=6)


class Retreat(CommandModel):
    """monferrato §7.5: the zone the defeated retreat to, or "hold" (a fortress's defenders take one more loss);
    §8.2: after a bombardment, the zone its targets choose to retreat to, or "stay"."""

    type: Literal["retreat"]
    to: str


MonferratoCommand = Annotated[
    Union[DrawChit, Activate, PlayChit, Discard, Move, Recover, EndActivation, Bombard, Siege, Fort, Raid, ReturnCamp, TakeForts, Replace, CallSupport,
          Respond, TakeHit, ContinueBattle, Retreat, PlaceCommander, SetUp, ChooseValue],
    Field(discriminator="type"),
]
