"""The citations the kernel makes, by concept: each variant's `Rulebook` names the section of its own book for
every concept both books have (the same rule is §4.4 in one book and §4.5 in the other: COMMAND_RANGE, LEADER_LOSS),
so a kernel rule cites `variant.rules.RETREAT` and the message reads "caldiero §12.6" or "arrivano §12.6".

The citations are data: each game's `rulebook.json` (adjudicator/caldiero/, adjudicator/arrivano/) gives every
concept's section and a paraphrase (`concepts`, read by `read_rulebook`), and the rules only its own book has (`own`,
read with them by `read_citations` into the game's rules.py: `R.SETUP`), all checked with every problem reported at once. The file is
not one of the game's data files (those a user may replace and whose hash a game records): it says where the book
writes a rule, not what the rule decides."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import msgspec
import pydantic

from arbitro.adjudicator.datafiles import DataError, DataProblem, StrictModel, Str
from arbitro.adjudicator.parabellum.loader import load_model
from arbitro.adjudicator.ruleset import Rule

# A section of a Para Bellum book: "12.5.4", "6", "3.1 C", "3.1 B-3" (a step of the sequence of play).
SECTION = re.compile(r"\d+(\.\d+)*( [A-C]([.-]\d+)?)?")


class Rulebook(msgspec.Struct, frozen=True, kw_only=True):
    """One citation per concept of the system, every concept required; each variant's is read from its game's
    rulebook.json (`read_rulebook`) into `Variant.rules`."""

    SEQUENCE: Rule  # the sequence of play (§3.1 in both)
    END_PHASE: Rule
    END_ACTIVATION: Rule  # the activation's end (caldiero §3.1 B.6, arrivano §3.1 B-6)
    FIRST_TURN: Rule
    COMMAND_RANGE: Rule  # caldiero §4.3, arrivano §4.4
    LEADER_LOSS: Rule  # caldiero §4.4, arrivano §4.5
    LEADER_SIX: Rule  # the attacker's natural 6 in an assault or a bombardment tests the commanders in the attacked hex (caldiero §4.4.1, arrivano §4.5.1)
    LEADER_ONE: Rule  # the attacker's natural 1 using his general's modifier tests that general (caldiero §4.4.2, arrivano §4.5.2)
    LEADER_ALONE: Rule
    LEADER_TEST: Rule  # the loss test's die as each game words it (caldiero §4.4.3, arrivano §4.5.3; a loss cites the data's leader_loss.rule)
    ORDERS: Rule
    CHIEF_ORDERS: Rule  # a commander in chief changes his generals' orders (caldiero §4.2, arrivano §4.3: D5)
    ORDER_CHANGES: Rule  # the orders sub-phase: only generals in command receive new orders (§5.2 in both)
    GENERAL_OUT_OF_RANGE: Rule  # a general out of his chief's range changes order only by his own try (caldiero §5.2.1, arrivano §5.2)
    GENERAL_ORDER: Rule  # the activated general's try to change his order (caldiero §5.2.2, arrivano §5.2.1)
    NO_GENERAL: Rule  # a formation without its general on the map (caldiero §4.4.5, arrivano §4.5.5)
    ADVANCE: Rule
    ATTACK: Rule
    DEFENCE: Rule
    MANOEUVRE: Rule
    OUT_OF_COMMAND: Rule
    INITIATIVE: Rule
    INITIATIVE_TIE: Rule  # a tie of the initiative roll (caldiero §6, arrivano §6.1.1)
    STACKING: Rule
    ZOC: Rule
    LEAVE_EZOC: Rule  # a unit in an enemy ZoC leaves it only under Defence (§8.1 in both)
    LEADER_EZOC: Rule  # a commander enters an enemy ZoC only where friendly units stand (§8.2.2 in both)
    MOVEMENT: Rule
    ENEMY_HEX: Rule  # never into a hex holding enemy combat units (§9.1.2 in both)
    ALLOWANCE: Rule  # never more movement points than the allowance, but always one hex (§9.1.1 in both)
    LEADER_MOVE: Rule  # a commander's six MP whatever his orders, and he may leave an enemy ZoC (§9.1.4 in both)
    STOP_IN_EZOC: Rule  # a combat unit stops on entering an enemy ZoC (§9.1.2 in both)
    TERRAIN_MOVE: Rule  # what terrain and hexsides cost a move, and forbid (§9.2 in both)
    MARCH_COLUMN: Rule  # declared on a road or minor road, under an order that allows it (§9.3 in both)
    COLUMN_LIMITS: Rule  # a march column enters no EZoC, stacks with no one, passes through no friends (§9.3.2 in both)
    ARTILLERY: Rule
    ARTILLERY_STACKED: Rule  # artillery stacked with units an assault eliminates or forces back is eliminated (§11.1 in both)
    ARTILLERY_RANGE: Rule  # a gun's range, the target in its line of sight (§11.2 in both)
    BOMBARDMENT: Rule  # one target hex per fire, stacked guns combining their values (§11.4 in both)
    BOMBARD_TABLE: Rule  # the bombardment table and its modifiers (caldiero §11.4.4, arrivano §11.4.3)
    DEFENSIVE_FIRE: Rule  # assaulted artillery bombards an attacking hex (caldiero §11.4.5, arrivano §11.4.4)
    LOS: Rule
    FOG: Rule  # caldiero §20.4 (optional rule), arrivano §11.3.2
    COMBAT: Rule
    COMBAT_PROCEDURE: Rule  # the steps of an assault, in order; its end recorded (§12.1 in both)
    ONCE: Rule  # a unit attacks once a turn, a hex is attacked once a segment
    EFFICIENCY: Rule  # the efficiency test (§13.1 in both)
    EFFICIENCY_COMMANDER: Rule  # what a commander gives a unit's test (§13.2 in both: caldiero to the value, arrivano to the die, D9)
    ATTACK_TEST: Rule  # an "Attack?" unit (Advance order) tests before it attacks (§12.2.2 in both)
    SIDE_EFFICIENCY: Rule  # a side's efficiency in an assault, the value with the most SP (§12.3.1 in both)
    EFFICIENCY_DRM: Rule  # the difference of the sides' efficiency is a die modifier (§12.3.2 in both)
    BELOW_1_5: Rule
    ABOVE_6_1: Rule
    GENERAL_DRM: Rule
    RESULTS: Rule
    RETREAT: Rule
    RETREAT_EZOC: Rule
    RETREAT_STACKING: Rule  # an overstacked end: the retreat goes on until a hex where stacking allows (§12.6.2 in both)
    RETREAT_BLOCKED: Rule  # no line of retreat: eliminated for good (§12.6.3 in both)
    ADVANCE_AFTER: Rule
    ADVANCE_GENERAL: Rule  # units stacked with their commander advance with him (§12.7.3 in both)
    ARTILLERY_ALONE: Rule  # artillery alone in an assaulted hex (§11.1.1 in both: overrun by the advance / an automatic DE)
    ELIMINATED: Rule
    OFF_MAP: Rule
    CAVALRY_RETREAT: Rule
    CHARGE: Rule  # caldiero §20.2 (optional rule), arrivano §14.2
    CHARGE_DISORDER: Rule  # a charger still in good order is disordered at the charge's end (caldiero §20.2.3, arrivano §14.2.2)
    DISORDER: Rule
    SECOND_DISORDER: Rule  # a second disorder level routs (caldiero §15.1, arrivano §15.1.1)
    ROUT: Rule
    ROUT_COMBAT: Rule  # routed by combat: it retreats two hexes at once (§15.2.1 in both)
    RECOVERY: Rule
    REINFORCEMENTS: Rule
    REINFORCEMENT_ORDER: Rule


CONCEPTS: tuple[str, ...] = Rulebook.__struct_fields__


class Citation(StrictModel):
    section: Str  # as the book numbers it (SECTION)
    summary: Str  # a paraphrase, never the book's text

    @pydantic.field_validator("section")
    @classmethod
    def _numbered(cls, section: str) -> str:
        if SECTION.fullmatch(section) is None:
            raise ValueError(f"{section!r} is not a section number like '12.5.4' or '3.1 B-3'")
        return section

    @pydantic.field_validator("summary")
    @classmethod
    def _said(cls, summary: str) -> str:
        if not summary.strip():
            raise ValueError("a citation needs a summary")
        return summary


# Every concept a required field of the file's `concepts`: a missing, an unknown and a malformed one are all
# reported at once, each at its JSON path (pydantic checks every field, where a whole-object check would wait for
# every field to be valid).
Concepts = pydantic.create_model("Concepts", __base__=StrictModel, **{c: (Citation, ...) for c in CONCEPTS})


def _not_a_concept(name: str) -> str:
    if name in CONCEPTS:
        raise ValueError(f"{name} is the name of a concept of the kernel's Rulebook: R.{name} cites the concept")
    return name


# An own citation's name, as the game's modules write it (`R.ORDERS_PHASE`), never a concept's (one name, one citation).
OwnName = Annotated[str, pydantic.StringConstraints(pattern=r"^[A-Z][A-Z0-9_]*$"), pydantic.AfterValidator(_not_a_concept)]


class RulebookFile(StrictModel):
    """A game's rulebook.json: its book's name, for every concept of `Rulebook` where that book writes it, and the
    citations of the rules only that book has (`own`)."""

    book: Str
    concepts: Concepts  # type: ignore[valid-type]
    own: dict[OwnName, Citation] = {}


class Citations:
    """Every citation of one book by name, its concepts' and its own (`R.SETUP`, `R.RETREAT`): what a game's rules.py
    serves as its module attributes (`cited`). A name the file lacks is an AttributeError
    (tests/parabellum/test_rulebook.py checks every name each game's modules cite)."""

    def __init__(self, rules: Mapping[str, Rule]) -> None:
        self.rules = dict(rules)

    def cited(self, name: str) -> Rule:
        try:
            return self.rules[name]
        except KeyError:
            raise AttributeError(f"no citation {name!r} in the rulebook") from None


def _read(path: Path) -> RulebookFile:
    problems: list[DataProblem] = []
    loaded = load_model(path, RulebookFile, path.parent, problems)
    if loaded is None:
        raise DataError(problems)
    return loaded


def read_rulebook(path: Path) -> Rulebook:
    """The citations of `path` (a game's rulebook.json), or a DataError naming every problem of the file."""
    loaded = _read(path)
    concepts = {c: getattr(loaded.concepts, c) for c in CONCEPTS}
    return Rulebook(**{c: Rule(loaded.book, cited.section, cited.summary) for c, cited in concepts.items()})


def read_citations(path: Path) -> Citations:
    """Every citation of `path` (a game's rulebook.json: its concepts and its `own`), or a DataError naming every
    problem of the file."""
    loaded = _read(path)
    cited = {c: getattr(loaded.concepts, c) for c in CONCEPTS} | loaded.own
    return Citations({name: Rule(loaded.book, c.section, c.summary) for name, c in cited.items()})
