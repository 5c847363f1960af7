"""Marengo's interpretations: the named readings of ambiguous rules (docs/rulesets/marengo.md, "Interpretations"),
and the readings in force as seen from the state alone (for legal() and the decision steps' options)."""

from __future__ import annotations

from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.common import Interp
from arbitro.adjudicator.ruleset import Interpretation
from arbitro.projections.marengo import MarengoState

INTERPRETATIONS: dict[str, Interpretation] = {
    i.name: i
    for i in (
        Interpretation(name="loser_extra_losses", default="negative_only", choices=("negative_only", "margin"),
                       rule=str(R.ASSAULT_RESULT), phrase="un punto forza per ogni punto negativo ottenuto dal risultato",
                       explanation="negative_only: the loser loses 1 plus 1 per point the result is below zero (a "
                                   "beaten defender loses 1); margin: the loser loses 1 plus the absolute result"),
        Interpretation(name="cavalry_obstacle_scope", default="either", choices=("either", "defender"),
                       rule=str(R.MANOEUVRE), phrase="in un terreno che ostacola la cavalleria",
                       explanation="either: the symbol on either approach of the pair; defender: only on the "
                                   "approach of the zone entered or attacked"),
        Interpretation(name="road_capacity_transit", default="destination", choices=("destination", "every_zone"),
                       rule=str(R.CAPACITY), phrase="non può spostare un pezzo in una zona se il numero totale",
                       explanation="whether zone capacity also limits zones passed through on a road"),
        Interpretation(name="morale_bonus", default="once", choices=("once", "every_round"),
                       rule=str(R.DEMORALISATION), phrase="Se in un round un'armata è demoralizzata mentre l'altra no",
                       explanation="the +5 morale: once per army, or at the start of every round the condition holds"),
        Interpretation(name="demoralised_defence_floor", default="zero", choices=("zero", "none"),
                       rule=str(R.DEMORALISATION), phrase="avranno ognuno un punto forza in meno",
                       explanation="whether a demoralised defending leader's strength stops at 0"),
        Interpretation(name="unactivated_may_assault", default="no", choices=("no", "yes"),
                       rule=str(R.ACTIVATION), phrase="non potranno muovere fino a che non saranno stati attivati",
                       explanation="whether an unactivated French block may assault or declare a bombardment"),
        Interpretation(name="road_attack_arms", default="cavalry", choices=("cavalry", "not_infantry"),
                       rule=str(R.MANOEUVRE), phrase="un pezzo di cavalleria può fare delle manovre di attacco. "
                                                     "Un pezzo di fanteria non può farlo",
                       explanation="which arms make attack manoeuvres while moving by road"),
        Interpretation(name="pursuit_width", default="attacked", choices=("attacked", "attacker"),
                       rule=str(R.PURSUIT), phrase="la via d'accesso interessata dall'assalto",
                       explanation="which approach's width limits the pursuing cavalry"),
        Interpretation(name="activation_adjacent", default="any_pair", choices=("any_pair", "passable"),
                       rule=str(R.ACTIVATION), phrase="una zona adiacente a quel pezzo è stata occupata dal nemico",
                       explanation="whether zones joined only by impassable approaches count as adjacent"),
        Interpretation(name="bombardment_losses", default="per_point", choices=("per_point", "one_block"),
                       rule=str(R.BOMBARDMENT), phrase="il pezzo scelto dal difensore",
                       explanation="per_point: the defender places each point on a target block of its choice; "
                                   "one_block: the whole bombardment hits the one block it chooses, the points "
                                   "beyond its strength are lost"),
        Interpretation(name="pursuit_cavalry_leader", default="any", choices=("any", "surviving"),
                       rule=str(R.PURSUIT), phrase="il giocatore perdente non ha della cavalleria tra i suoi "
                                                   "pezzi al comando",
                       explanation="any: a loser that led with cavalry is not pursued even if that leader fell; "
                                   "surviving: only a cavalry leader still alive bars the pursuit"),
        Interpretation(name="advance_blocks", default="any", choices=("any", "all_or_none"),
                       rule=str(R.CONQUEST), phrase="i pezzi in attacco potranno avanzare",
                       explanation="any: the attacker chooses which surviving attackers advance (as many as the "
                                   "zone holds); all_or_none: all of them advance or none does"),
        Interpretation(name="continuation_face_up", default="end_of_turn", choices=("end_of_turn", "end_of_move"),
                       rule=str(R.CONTINUATION), phrase="dovrà essere piazzata a faccia in su",
                       explanation="how long continuing cavalry stays face up"),
    )
}


def mirrored(state: MarengoState) -> Interp:
    """The readings in force, for legal() and the steps' options, which see only the state: the fold keeps the
    umpire's rulings in it (MarengoProjection.note_interpretations)."""
    return lambda name: state.interpretations.get(name, INTERPRETATIONS[name].default)
