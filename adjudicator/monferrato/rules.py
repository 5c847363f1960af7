"""Citations into the Monferrato rulebook (shared/rules/monferrato.it.md), declared once."""

from __future__ import annotations

from arbitro.adjudicator.ruleset import Rule


def _r(section: str, summary: str) -> Rule:
    return Rule("monferrato", section, summary)


def _scenario(section: str, part: str, summary: str) -> Rule:
    """A rule of the scenario, which has no number of its own: the numbered section that defers to the scenario's
    instructions, then the scenario's heading ("monferrato §4 (scenario, Setup iniziale)")."""
    return Rule("monferrato", f"{section} (scenario, {part})", summary)


MAP = _r("2.3", "zones, terrain, fortresses with numbered wall sides, rivers with bridges, impassable borders")
PASSAGES = _r("2.3.1", "Valtellina-Milano and Milano-Cremona at the whole allowance; Moncalvo-Mencucco for 1")
SETUP = _r("4", "set-up: command markers in the cup, four chits to each player, red chits set aside")
SETUP_CHOICE = _scenario("4", "Setup iniziale", "set-up: the choices the scenario leaves to each side, Pro-France first")
SEQUENCE = _r("4.1", "a command marker drawn, supply, activation and chits, the activated box; end of turn")
DRAW_COMMAND = _r("4.1", "a) a command marker drawn at random from the cup")
END_OF_TURN = _r("4.1", "d-e) stacking, the turn advanced, raids cleared at a new year, camps, Morale -1, arrivals")
ACTIVATION = _r("5", "two chits and one zone; or draw a chit; or a commander's leadership in zones and one chit")
HAND_LIMIT = _r("5", "never more than four chits: draw, then discard one of five")
COMMAND_RADIUS = _r("5", "command radius 2, not across impassable borders, unbridged rivers or enemy zones")
CHITS = _r("5.1", "chits played go to the discards, RSU chits out of the game; the discards back when the cup is empty")
RESPONSE = _r("5.1", "response chits: the opponent may play one or two during an activation")
ACTIVATE_UNITS = _r("5.2", "only units of the command drawn, in the activated zones; the marker to the activated box")
ONE_ACTION = _r("5.3", "each activated unit takes one action: move, bombard, siege, fort, raid, recover")
MOVEMENT = _r("6", "3 zones; cavalry and commanders 5; camp 1; difficult 2; rivers; stop on entering the enemy")
RIVER = _r("6", "an unbridged river costs the whole allowance and is closed to artillery and the camp")
ENTER_ENEMY = _r("6", "commanders, sappers, camp and artillery enter the enemy only with combat units")
FORTRESS_ENTRY = _r("6", "no entry into a fortress held by the enemy without a breach")
MAP_EDGE = _r("6", "units that leave the map, willingly or not, are eliminated")
LONE_ELIMINATED = _r("6", "lone commanders, sappers and camps are eliminated by enemy combat units")
BATTLE = _r("7", "field battle")
SUPPORT = _r("7.1", "the attacking commander calls supporting units: leadership, radius, not yet activated")
FIRE = _r("7.2", "every unit fires: a hit on a die at or under its fire; six or more each: a major battle in rounds")
TERRAIN = _r("7.2.1", "difficult terrain: attackers of fire 3 or more fire one less")
VALTELLINA = _r("7.2.2", "Valtellina: difficult for combat; units defeated there are eliminated")
CONQUEST = _r("7.2.3", "a fortress is taken only when no enemy unit is left in it; its mines are removed")
LOSSES = _r("7.3", "the owner allocates the hits; commanders take none but roll 1-2 to be hit")
DISORGANISATION = _r("7.4.1", "a hit disorganises; a unit without a disorganised side is eliminated")
ELIMINATION = _r("7.4.2", "a disorganised unit hit again is eliminated")
RETREAT = _r("7.5", "the loser retreats to one adjacent zone; attackers whence they came; a fortress's extra loss")
BOMBARDMENT = _r("8", "artillery: printed fire only with sappers, else 1; a 6 destroys it")
BOMBARD = _r("8.1", "activated artillery bombards an adjacent fortress: each success lowers that wall side by 1")
BOMBARD_UNITS = _r("8.2", "artillery in a fortress fires at adjacent enemies; through a breach at -1")
MINES = _r("9.1", "sappers lay mines from an adjacent zone (no river); fired later: 1-3 a breach, 6 lost")
COUNTERMINE = _r("9.2", "sappers inside the fortress remove mines")
REBUILD = _r("9.3", "sappers inside the fortress restore a wall level up to the printed one")
FORTS = _r("10", "forts: one hit fewer from the attackers each; two a zone; captured or destroyed by the winner")
TOWNS = _r("9.4", "fortified towns: a fort's benefit to their defenders")
MAJOR = _r("14.3", "major units roll two dice")
TWO_VALUES = _r("14.2", "two-value infantry: the left value attacking, the right defending")
GARRISONS = _r("14.6", "garrisons have no disorganised side")
RECOVERY = _r("7.4.3", "activated units in supply recover from disorganisation, and do nothing else")
RAID = _r("11", "raids: a movement point an attempt; 1 succeeds, 6 fails; die plus enemies at most the raiders")
RAID_AREAS = _scenario("11", "Aree di razzia", "raid areas by nationality; Valtellina by anyone")
STACKING = _r("12", "more than six infantry and cavalry at the end of the turn: the excess disorganised")
SUPPLY = _r("13", "a line of any length to the own source, not across impassable, unbridged rivers, enemy zones")
OUT_OF_SUPPLY = _r("13.1", "out of supply: leadership 1, movement -1, no recovery, no attack supply")
ATTACK_SUPPLY = _r("13.2", "attack supply: three zones to the camp (difficult 2), then any length to the source")
WINTER = _r("14.4", "cavalry moves 4 in January-February")
CAMP = _r("14.5", "the camp moves one zone a turn with an activation in its zone; out of play: morale -1 a turn")
MORALE = _r("15", "army morale 1..9: high, medium (one zone), low (one zone, one chit, no attack supply)")
CHIT_KINDS = _r("16", "chits: instructions of the table")
MANDATORY = _r("16.1", "a mandatory chit is played at the first occasion, first; it stops drawing and discarding")
DATED = _r("16.2", "a dated chit is played on or after its date; discarded before it if not mandatory")
REINFORCEMENTS = _r("16.3", "R chits: not discarded; mandatory from their date; played before it, a group on the timeline")
RED_CHITS = _r("16.4", "March 1629: the blue chits out of the cup, the red in")
NEW_UNITS = _r("16.5", "a new command's marker to the activated box; entering an enemy zone is a battle")
REPLACEMENTS = _r("16.6", "replacements: eliminated units of the command back in zones with its units")
END = _r("17", "the game ends when the turn passes the end marker; victory points")
VENICE_CLOSED = _scenario("16.5", "Regole speciali 5", "special rule 5: no entry into the Republic of Venice until its chit")
FORT_COUNTERS = _scenario("10", "Regole speciali 6", "three fort counters a player, no more on the map")
PRUDENCE = _scenario("17", "Regole speciali 2-3", "special rules 2-3: French and Spanish prudence")
