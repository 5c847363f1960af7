"""Arrivano i Francesi!: the citations used in rejections and events (rulebook: arrivano-i-francesi.it.md)."""

from arbitro.adjudicator.parabellum.rules import Rulebook
from arbitro.adjudicator.ruleset import Rule


def _r(section: str, summary: str) -> Rule:
    return Rule("arrivano", section, summary)


ORDERS_PHASE = _r("3.1 A-1", "orders sub-phase: commanders in chief change orders, the French first")
REPLACEMENTS = _r("3.1 A-2", "replacements return")
ACTION = _r("3.1 B", "action phase of the activated formation")
BOMBARD_STEP = _r("3.1 B-3", "bombardment before movement")
MOVE_STEP = _r("3.1 B-4", "movement by the formation's order; officers with out-of-command units may change theirs")
COMBAT_STEP = _r("3.1 B-5", "combat sub-phase")
END_ACTIVATION = _r("3.1 B-6", "end of activation: the general flips to A, recovery")
GENERAL = _r("4.1", "a general commands his formation")
OFFICER = _r("4.2", "officers extend command")
CHIEF_CHANGES = _r("4.3", "a chief changes at most as many orders as his initiative")
CHIEF_MOVE = _r("4.3.1", "a commander in chief moves once per turn")
LEADER_LOSS_TEST = _r("4.5.3", "a commander is lost on 1-2")
COMMANDER_ESCAPE = _r("4.5.6", "a commander may flee when an enemy comes adjacent")
COMMANDER_ZOC_ESCAPE = _r("8.2.3", "a commander whose hex an enemy enters flees or is lost")
NO_GENERAL = _r("4.5.5", "a formation without its general is out of command")
CHIEF_LOST = _r("4.5.5", "a lost commander in chief ends the order changes")
DANGLING_4_3_2 = _r("4.4", "the reference '(vedi anche 4.3.2)': out-of-command units in the chief's range")
CAVALRY_OFFICER = _r("4.6", "cavalry officers command only cavalry and horse artillery")
NOT_COUNTED = _r("5.1.5", "units not counted for the movement obligations")
CHIEF_ORDER = _r("5.2", "order changes by the commander in chief within his range")
GENERAL_ORDER = _r("5.2.1", "a general's initiative roll to change his order")
ACTIVATE = _r("6.1", "the winner activates a formation not yet activated, his or the enemy's")
ROUTED_STACK = _r("7.1.1", "routed units do not stack with others")
COLUMN_STACK = _r("7.1.2", "a march column neither stacks nor passes through")
MOVE_COST = _r("9.2", "movement point costs")
COMMANDER_MOVE = _r("9.1.4", "commanders' movement")
MARCH_COLUMN = _r("9.3", "march column on roads")
VILLAGE = _r("10.1", "villages and farms: benefits need Defence")
VILLAGE_EX = _r("10.1.1", "a DR in a village may become EX on a passed test")
ARTILLERY_ORDER = _r("11", "artillery may always choose Manoeuvre or Defence, whatever its formation's order")
HORSE_ARTILLERY = _r("11.0.1", "horse artillery moving half its MA does not flip")
ARTILLERY_NO_COMBAT = _r("11.0.2", "artillery never counts in assaults")
ARTILLERY_STACKED = _r("11.1", "artillery with units that are eliminated or retreat")
ARTILLERY_ALONE = _r("11.1.1", "an assault on artillery alone: automatic DE, the attacker must advance")
RANGE = _r("11.2", "artillery range")
BOMBARD = _r("11.4", "bombardment: one target hex per artillery")
BOMBARD_COMBINE = _r("11.4.1", "only stacked artillery combine")
BOMBARD_TABLE = _r("11.4.3", "bombardment table; a hex of artillery alone cannot be bombarded")
DEFENSIVE_FIRE = _r("11.4.4", "defensive bombardment of one attacking hex")
DECLARE = _r("12.2", "who may attack: Attack must, Advance with a test, others not")
EVERY_ZOC = _r("12.2.1", "every enemy projecting ZoC into an attacker's hex is attacked")
EFFICIENCY_SIDE = _r("12.3.1", "a side's efficiency: the value with the most SP")
MULTI_HEX = _r("12.4.1", "every attacker adjacent to every defender")
MODIFIERS = _r("12.5.2", "modifiers, capped at 4")
RETREAT_STACKING = _r("12.6.2", "an overstacked retreat goes on one more hex until stacking fits")
SURROUNDED = _r("12.6.3", "no retreat: eliminated for good")
RETURN = _r("12.8.2", "replacements return within one hex of their general")
NATURAL = _r("13.1.1", "1 always passes, 6 always fails")
EFFICIENCY_LEADER = _r("13.2", "-1 with a commander in the hex")
CHARGE_ZOC = _r("14.2.1", "a charger ignores other enemy ZoC")
CHARGE_DISORDER = _r("14.2.2", "good-order charging cavalry is disordered after the charge")
CHARGE_MIX = _r("14.2.3", "no charge and infantry attack on one hex in a segment")
COUNTERCHARGE = _r("14.2.4", "counter-charge: the charger stops, fought first in the combat sub-phase")
NO_CHARGES = _r("17.2.5", "no charges at Campotenese")
CAVALRY_DOUBLE = _r("14.0.1", "cavalry doubles against disordered infantry")
SECOND_DISORDER = _r("15.1.1", "a second disorder routs")
ROUT_COMBAT = _r("15.2.1", "routed by combat: retreat two hexes")
ROUT_MOVE = _r("15.2.2", "end phase: routed units move two hexes away")
HQ_ORDERS = _r("16.1", "headquarters orders")
COLUMNS = _r("16.2", "independent columns: officers with their own order")
COLUMN_REJOIN = _r("16.2.1", "a column rejoins when its officer starts an activation in his superior's range")
COLUMN_CAVALRY = _r("16.2.3", "cavalry officers lead only cavalry and horse artillery")
OPEN_ORDER = _r("16.3", "open order: light troops with Manoeuvre or Advance enter EZoC, fire, may fall back one hex")
OPEN_ORDER_LIGHT = _r("16.3", "only light troops use open order")
FIRE_NO_ASSAULT = _r("16.3.1", "fire in the movement sub-phase; units that fired do not assault")
FIRE_TABLE = _r("16.3.2", "each light unit fires alone: infantry fire table, grouping and terrain, +1 with a commander")
FIRE_RESULTS = _r("16.3.3", "fire results: none, D, D1, DR; never on artillery")
EXHAUSTION = _r("16.3.4", "V after open order, F after two turns running; F units test before acting")
LIGHT_RETREAT = _r("16.3.5", "a V unit may retreat one hex before the assault on a passed test")
MB_LIGHT = _r("17.1.7", "Montebello light infantry: the counters with a yellow circle")
CT_LIGHT = _r("17.2.11", "Campotenese light infantry: infantry with movement 3")
MB_FIRST_TURN = _r("17.1.2", "Montebello turn 1: only the French activate; French enter with any order")
MB_NO_COLUMN = _r("17.1.4", "no march column for the Austrians")
MB_MARCH = _r("17.1.5", "march orders toward Stradella")
MB_VICTORY = _r("17.1.8", "Montebello victory")
CT_RETREAT_FLAGS = _r("17.2.1", "the lettered flags are the Neapolitans' retreat hexes")
CT_STACKING = _r("17.2.3", "Campotenese stacking")
CT_FRANCESCHI = _r("17.2.9", "Franceschi's chasseurs may activate as an independent column")
CT_REDOUBTS = _r("17.2.6", "redoubts and their batteries")
CT_WEATHER = _r("17.2.7", "the weather track")
CT_ROADS = _r("17.2.8", "road costs by weather")
CT_VICTORY = _r("17.2.12", "Campotenese victory")

# The concepts both Para Bellum books have, cited by the kernel as `variant.rules.X` and by this game's own
# modules as `R.RULEBOOK.X` (adjudicator/parabellum/rules.py).
RULEBOOK = Rulebook(
    SEQUENCE=_r("3.1", "sequence of play: command, action per formation, end phase"),
    END_PHASE=_r("3.1 C", "end phase: rout moves, artillery turned back, next turn"),
    FIRST_TURN=_r("3.2", "turn 1 starts with the action phase"),
    COMMAND_RANGE=_r("4.4", "command range"),
    LEADER_LOSS=_r("4.5", "loss of commanders"),
    GENERAL_ORDER=GENERAL_ORDER,
    NO_GENERAL=NO_GENERAL,
    LEADER_ALONE=_r("4.5.4", "the commander of a hex whose units are all eliminated"),
    LEADER_TEST=LEADER_LOSS_TEST,
    ORDERS=_r("5.1", "orders: Advance, Attack, Defence, Manoeuvre"),
    ADVANCE=_r("5.1.1", "Advance: half the units end closer to the enemy"),
    ATTACK=_r("5.1.2", "Attack: every unit moves toward the nearest enemy and attacks in EZoC"),
    DEFENCE=_r("5.1.3", "Defence: one hex; EZoC only with a friend; EZoC to EZoC with a test"),
    MANOEUVRE=_r("5.1.4", "Manoeuvre: free movement, no EZoC entry"),
    OUT_OF_COMMAND=_r("5.3", "out-of-command units have Defence"),
    INITIATIVE=_r("6", "initiative: d6 plus the chief's initiative"),
    INITIATIVE_TIE=_r("6.1.1", "ties go to the French"),
    STACKING=_r("7.1", "stacking limits"),
    ZOC=_r("8", "zones of control"),
    LEAVE_EZOC=_r("8.1", "leaving an enemy ZoC"),
    LEADER_EZOC=_r("8.2.2", "commanders enter EZoC only with friendly units"),
    MOVEMENT=_r("9", "a unit moves once per turn"),
    ENEMY_HEX=_r("9.1.2", "never into an enemy-occupied hex"),
    COLUMN_LIMITS=_r("9.3.2", "a march column enters no EZoC, stacks with no one, passes through no friends"),
    ARTILLERY=_r("11", "artillery: Moved side"),
    LOS=_r("11.3", "line of sight"),
    FOG=_r("11.3.2", "an enemy stack is examined only with line of sight"),
    COMBAT=_r("12", "assaults against adjacent enemies"),
    ONCE=_r("12.2.3", "no unit attacks twice; no hex attacked twice in a segment"),
    EFFICIENCY=_r("13.1", "efficiency test"),
    BELOW_1_5=_r("12.4.2", "worse than 1-5 may not be declared; forced by Attack: automatic AE"),
    ABOVE_6_1=_r("12.4.3", "above 6-1: the 6-1 column"),
    GENERAL_DRM=_r("12.4.4", "a general stacked in the combat: +1 attacking, -1 defending"),
    RESULTS=_r("12.5.4", "combat results AE DE Ad Dd NE EX DR"),
    RETREAT=_r("12.6", "retreat away from the enemy"),
    RETREAT_EZOC=_r("12.6.1", "a retreat into EZoC costs one more disorder level"),
    ADVANCE_AFTER=_r("12.7", "advance after combat"),
    ELIMINATED=_r("12.8", "eliminated units flip and return"),
    OFF_MAP=_r("12.8.1", "units forced to retreat off the map are eliminated for good"),
    CAVALRY_RETREAT=_r("14.1", "cavalry retreat before combat"),
    CHARGE=_r("14.2", "charges: Attack-order cavalry, charge terrain, MP to enter the target, double strength"),
    DISORDER=_r("15.1", "disorder"),
    ROUT=_r("15.2", "routed units tested when an enemy comes adjacent"),
    RECOVERY=_r("15.3", "recovery at the end of the activation"),
    REINFORCEMENTS=_r("15.4", "reinforcements enter at their hex and turn"),
    REINFORCEMENT_ORDER=_r("15.4.1", "reinforcements enter in command with Advance"),
)
