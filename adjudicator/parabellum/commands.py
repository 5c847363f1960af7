"""The commands both Para Bellum games accept with the same wire shape, defined once (issue 18).

Each game's command union (caldiero/commands.py, arrivano/commands.py) uses these models; where one game adds a
field, its own model extends the kernel's here, keeping the wire shape (field names and order) and the validation
errors of the game's model. Shapes that differ between the books stay in the games' modules."""

from __future__ import annotations

from typing import Literal

from arbitro.adjudicator.ruleset import CommandModel


class Activate(CommandModel):
    """The initiative winner activates a formation not yet activated (caldiero §6.2, arrivano §6.1)."""

    type: Literal["activate"]
    formation: str


class MoveLeader(CommandModel):
    """A leader moves to a hex, never into an EZoC without friends there (§8.2.2 in both books); Caldiero's model
    extends it with the hex pattern and an optional path."""

    type: Literal["move_leader"]
    leader: str
    to: str
