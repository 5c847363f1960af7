"""Citations into the Marengo rulebook (shared/rules/marengo.it.md), declared once."""

from __future__ import annotations

from arbitro.adjudicator.ruleset import Rule


def _r(section: str, summary: str) -> Rule:
    return Rule("marengo", section, summary)


BLOCKS = _r("4", "blocks: faces hidden from the opponent, losses by replacement, shuffling at the start of a turn")
MAP = _r("5", "zones, approaches, penalties, impassable and cavalry-obstacle symbols, capacity, roads")
SETUP = _r("6", "set-up: time, morale, the French At Start draw, reinforcements face down")
ACTIVATION = _r("6", "French blocks move only once activated")
SEQUENCE = _r("7", "16 rounds; each turn: resolve bombardment, assaults, movement, declare bombardment")
MOVEMENT = _r("8", "movement")
COMMAND_LIMIT = _r("8", "command limit: three groups and/or assaults a turn")
CAPACITY = _r("8", "zone capacity counts own blocks only")
BLOCKING = _r("8", "an approach may be blocked only if the opposite zone holds the enemy")
FORCED_LEAVE = _r("8", "blocks must leave an approach whose opposite zone the enemy has left")
ROAD = _r("8", "road movement: up to three zones, road capacity per approach and move index")
CONTINUATION = _r("8", "cavalry continuation")
REINFORCEMENTS = _r("8", "reinforcements enter by road (3/2/1 zones) or by the Austrian pontoon bridge")
MANOEUVRE = _r("9", "attack manoeuvres: blocked or successful")
BOMBARDMENT = _r("10", "bombardment: declared at the end of a turn, resolved in the next")
ASSAULT = _r("11", "assaults")
ASSAULT_LEADERS = _r("11", "step 1: attacking leaders")
DEF_ARTILLERY = _r("11", "steps 2-3: defensive artillery")
DEF_LEADERS = _r("11", "step 4: defending leaders")
ASSAULT_RESULT = _r("11", "steps 5-7: assault strength, result and losses")
PURSUIT = _r("11", "steps 8-10: cavalry pursuit")
CONQUEST = _r("11", "step 11: the winner takes the zone; continuation; closures")
LOSSES = _r("11", "losses to leaders first (the enemy chooses), then the others (the owner chooses)")
RETREAT = _r("12", "retreats")
DEMORALISATION = _r("13", "demoralisation")
VICTORY = _r("14", "victory")
