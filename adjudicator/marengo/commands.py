"""Marengo commands (validated at the boundary by pydantic). A block on the map is named by its public
token ("b007"), a reinforcement still waiting off the map by its id (its owner's only)."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import AfterValidator, Field

from arbitro.adjudicator.ruleset import CommandModel


# block lists are kept sorted, so the stored (normalised) command does not depend on the order typed
Blocks = Annotated[list[str], Field(max_length=8), AfterValidator(sorted)]


class Shuffle(CommandModel):
    """marengo §4: mix own blocks in a zone at the start of the turn."""

    type: Literal["shuffle"]
    zone: str


class Activate(CommandModel):
    """marengo §6 (6): choose French blocks to activate at the start of the French turn."""

    type: Literal["activate"]
    blocks: Blocks


class ResolveBombardment(CommandModel):
    type: Literal["resolve_bombardment"]


class CancelBombardment(CommandModel):
    type: Literal["cancel_bombardment"]


class BombardTarget(CommandModel):
    """marengo §10 (1): the bombarding side picks the approach to fire at when it may choose."""

    type: Literal["bombard_target"]
    approach: str


class AssaultCmd(CommandModel):
    """marengo §11: attack from `approach` (the attackers' approach) with `blocks`, led by `leaders`."""

    type: Literal["assault"]
    approach: str
    blocks: Blocks
    leaders: Blocks


class Move(CommandModel):
    """marengo §8: a group from one zone to `to` (its reserve, or `place`, an approach of the own zone)."""

    type: Literal["move"]
    blocks: Blocks
    to: str
    place: str = "reserve"
    show: str | None = None  # marengo §9: the infantry shown when attacking into cavalry-obstacle terrain


class RoadMove(CommandModel):
    """marengo §8: one block along `road` through `path` (the zones entered, up to three)."""

    type: Literal["road_move"]
    block: str
    road: str
    path: Annotated[list[str], Field(min_length=1, max_length=3)]


class Enter(CommandModel):
    """marengo §8: a reinforcement enters at `entry` and follows its road through `path`."""

    type: Literal["enter"]
    block: str
    entry: str
    path: Annotated[list[str], Field(min_length=1, max_length=3)]


class Pontoon(CommandModel):
    """marengo §8: one Austrian reinforcement a turn across the pontoon bridge."""

    type: Literal["pontoon"]
    block: str


class Continue(CommandModel):
    """marengo §8, §11: cavalry that ended a move (or conquered a zone) blocks an approach."""

    type: Literal["continue"]
    blocks: Blocks
    approach: str


class DeclareBombardment(CommandModel):
    type: Literal["declare_bombardment"]
    block: str


class EndTurn(CommandModel):
    type: Literal["end_turn"]


class BlockManoeuvre(CommandModel):
    """marengo §9 (1): the defender blocks the attack with reserve blocks (empty: it does not block)."""

    type: Literal["block_manoeuvre"]
    blocks: Blocks


class AfterBlock(CommandModel):
    """marengo §9 (1): the blocked attacker's blocks that advance to block the approach (the rest stay)."""

    type: Literal["after_block"]
    advance: Blocks


class DefensiveArtillery(CommandModel):
    type: Literal["defensive_artillery"]
    fire: bool


class DefendingLeadersCmd(CommandModel):
    type: Literal["defending_leaders"]
    blocks: Blocks


class AssignLoss(CommandModel):
    type: Literal["assign_loss"]
    block: str


class Pursue(CommandModel):
    type: Literal["pursue"]
    blocks: Blocks


class Advance(CommandModel):
    """marengo §11 step 11: the winning attackers advance into the conquered zone (or not); `stay` names the
    survivors that do not advance (interpretation advance_blocks)."""

    type: Literal["advance"]
    advance: bool
    stay: Blocks = []


class RetreatTo(CommandModel):
    type: Literal["retreat"]
    block: str
    zone: str


MarengoCommand = Annotated[
    Union[
        Shuffle, Activate, ResolveBombardment, CancelBombardment, BombardTarget, AssaultCmd, Move, RoadMove,
        Enter, Pontoon, Continue, DeclareBombardment, EndTurn, BlockManoeuvre, AfterBlock, DefensiveArtillery,
        DefendingLeadersCmd, AssignLoss, Pursue, Advance, RetreatTo,
    ],
    Field(discriminator="type"),
]
