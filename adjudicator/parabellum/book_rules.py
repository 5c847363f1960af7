"""The rule values a whole book gives, whatever the scenario, in one place (tables/rules.json of each game's data
folder, read as every table is: parabellum/loader.py): each scenario file repeated them before (issue 18)."""

from __future__ import annotations

from arbitro.adjudicator.datafiles import StrictModel
from arbitro.adjudicator.parabellum.data import Meta
from pydantic import Field


class LeaderLoss(StrictModel):
    """D10, a commander's loss test (caldiero §4.4.3, arrivano §4.5.3): the die loses him when it is at most
    `lost_at_most` (arrivano "con un risultato di 1 o 2": 2), or, with None, at most his initiative (caldiero "un
    risultato superiore alla iniziativa", else lost), a commander in chief's counting as `chief_initiative` (caldiero
    "i Comandanti in Capo sono considerati avere una iniziativa di uno": 1; None: his printed one). `rule`: where the
    book prints it."""

    rule: str
    lost_at_most: int | None = Field(ge=1, le=6)
    chief_initiative: int | None = Field(ge=0, le=6)

    def limit(self, role: str, initiative: int) -> int:
        """The highest face that loses a commander of `role` with printed `initiative`."""
        if self.lost_at_most is not None:
            return self.lost_at_most
        return self.chief_initiative if role == "commander_in_chief" and self.chief_initiative is not None else initiative

    def lost(self, die: int, role: str, initiative: int) -> bool:
        return die <= self.limit(role, initiative)


class BookRules(StrictModel):
    """tables/rules.json: a commander's loss test (D10: caldiero §4.4.3, arrivano §4.5.3), the same in every
    scenario of its book. A game's file adds its book's own (arrivano/data_model.ArrivanoRules: §13.2's commander
    die modifier)."""

    meta: Meta
    leader_loss: LeaderLoss
