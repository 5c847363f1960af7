"""The citations the kernel makes, by concept: each variant's `Rulebook` names the section of its own book for
every concept both books have (the same rule is §4.4 in one book and §4.5 in the other: COMMAND_RANGE, LEADER_LOSS),
so a kernel rule cites `variant.rules.RETREAT` and the message reads "caldiero §12.6" or "arrivano §12.6"."""

from __future__ import annotations

import msgspec

from arbitro.adjudicator.ruleset import Rule


class Rulebook(msgspec.Struct, frozen=True, kw_only=True):
    """One citation per concept of the system; each variant's rules module builds its own (RULEBOOK), every concept
    required."""

    SEQUENCE: Rule  # the sequence of play (§3.1 in both)
    END_PHASE: Rule
    FIRST_TURN: Rule
    COMMAND_RANGE: Rule  # caldiero §4.3, arrivano §4.4
    LEADER_LOSS: Rule  # caldiero §4.4, arrivano §4.5
    LEADER_ALONE: Rule
    LEADER_TEST: Rule  # the loss test itself, what a loss by it cites (caldiero §4.4.3, arrivano §4.5.3)
    ORDERS: Rule
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
    COLUMN_LIMITS: Rule  # a march column enters no EZoC, stacks with no one, passes through no friends (§9.3.2 in both)
    ARTILLERY: Rule
    LOS: Rule
    FOG: Rule  # caldiero §20.4 (optional rule), arrivano §11.3.2
    COMBAT: Rule
    ONCE: Rule  # a unit attacks once a turn, a hex is attacked once a segment
    EFFICIENCY: Rule  # caldiero §12.3, arrivano §13.1
    BELOW_1_5: Rule
    ABOVE_6_1: Rule
    GENERAL_DRM: Rule
    RESULTS: Rule
    RETREAT: Rule
    RETREAT_EZOC: Rule
    ADVANCE_AFTER: Rule
    ELIMINATED: Rule
    OFF_MAP: Rule
    CAVALRY_RETREAT: Rule
    CHARGE: Rule  # caldiero §20.2 (optional rule), arrivano §14.2
    DISORDER: Rule
    ROUT: Rule
    RECOVERY: Rule
    REINFORCEMENTS: Rule
    REINFORCEMENT_ORDER: Rule
