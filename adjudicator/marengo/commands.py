"""Marengo commands (validated at the boundary by pydantic). A block on the map is named by its public
token ("b007"), a reinforcement still waiting off the map by its id (its owner's only)."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field


class _C(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# block lists are kept sorted, so the stored (normalised) command does not depend on the order typed
Blocks = Annotated[list[str], Field(max_length=8), AfterValidator(sorted)]


class Shuffle(_C):
    """marengo §4: mix own blocks in a zone at the start of the turn."""

    type: Literal["shuffle"]
    zone: str


class Activate(_C):
    """marengo §6 (6): choose French blocks to activate at the start of the French turn."""

    type: Literal["activate"]
    blocks: Blocks


class ResolveBombardment(_C):
    type: Literal["resolve_bombardment"]


class CancelBombardment(_C):
    type: Literal["cancel_bombardment"]


class BombardTarget(_C):
    """marengo §10 (1): the bombarding side picks the approach to fire at when it may choose."""

    type: Literal["bombard_target"]
    approach: str


class AssaultCmd(_C):
    """marengo §11: attack from `approach` (the attackers' approach) with `blocks`, led by `leaders`."""

    type: Literal["assault"]
    approach: str
    blocks: Blocks
    leaders: Blocks


class Move(_C):
    """marengo §8: a group from one zone to `to` (its reserve, or `place`, an approach of the own zone)."""

    type: Literal["move"]
    blocks: Blocks
    to: str
    place: str = "reserve"
    show: str | None = None  # marengo §9: the infantry shown when attacking into cavalry-obstacle terrain


class RoadMove(_C):
    """marengo §8: one block along `road` through `path` (the zones entered, up to three)."""

    type: Literal["road_move"]
    block: str
    road: str
    path: Annotated[list[str], Field(min_length=1, max_length=3)]


class Enter(_C):
    """marengo §8: a reinforcement enters at `entry` and follows its road through `path`."""

    type: Literal["enter"]
    block: str
    entry: str
    path: Annotated[list[str], Field(min_length=1, max_length=3)]


class Pontoon(_C):
    """marengo §8: one Austrian reinforcement a turn across the pontoon bridge."""

    type: Literal["pontoon"]
    block: str


class Continue(_C):
    """marengo §8, §11: cavalry that ended a move (or conquered a zone) blocks an approach."""

    type: Literal["continue"]
    blocks: Blocks
    approach: str


class DeclareBombardment(_C):
    type: Literal["declare_bombardment"]
    block: str


class EndTurn(_C):
    type: Literal["end_turn"]


class BlockManoeuvre(_C):
    """marengo §9 (1): the defender blocks the attack with reserve blocks (empty: it does not block)."""

    type: Literal["block_manoeuvre"]
    blocks: Blocks


class AfterBlock(_C):
    """marengo §9 (1): the blocked attacker's blocks that advance to block the approach (the rest stay)."""

    type: Literal["after_block"]
    advance: Blocks


class DefensiveArtillery(_C):
    type: Literal["defensive_artillery"]
    fire: bool


class DefendingLeadersCmd(_C):
    type: Literal["defending_leaders"]
    blocks: Blocks


class AssignLoss(_C):
    type: Literal["assign_loss"]
    block: str


class Pursue(_C):
    type: Literal["pursue"]
    blocks: Blocks


class Advance(_C):
    """marengo §11 step 11: the winning attackers advance into the conquered zone (or not); `stay` names the
    survivors that do not advance (interpretation advance_blocks)."""

    type: Literal["advance"]
    advance: bool
    stay: Blocks = []


class RetreatTo(_C):
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
