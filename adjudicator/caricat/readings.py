"""Caricat!'s named interpretations: where the rulebook can be read two ways, the reading applied by default, the
Italian phrase it rests on, and the other readings an umpire's ruling may choose (docs/rulesets/caricat.md)."""

from __future__ import annotations

from arbitro.adjudicator.ruleset import Interpretation

INTERPRETATIONS: dict[str, Interpretation] = {i.name: i for i in (
    Interpretation(
        name="morale_value", default="reduced_by_hits", choices=("reduced_by_hits", "printed"), rule="caricat §7.1.1",
        phrase="il valore di morale corrente del difensore",
        explanation="the current morale a fire die must reach and a recovery roll must not exceed is the printed "
                    "morale less the levels lost (reduced_by_hits), or the printed value whatever the losses"),
    Interpretation(
        name="loc_uncontested", default="single_enemy", choices=("single_enemy", "no_friendly_zone"),
        rule="caricat §11", phrase="dove \u201cnon contestate\u201d vuole dire che c'è solamente un'unità nemica",
        explanation="a line of communication may not enter a hex where exactly one enemy unit exerts a zone "
                    "(single_enemy, the text's words), or any enemy zone not also covered by a friendly zone"),
    Interpretation(
        name="attack_fire", default="die_minus_one", choices=("die_minus_one", "one_die_fewer"), rule="caricat §3.1",
        phrase="tirano il dado con -1 durante combattimento a fuoco",
        explanation="a unit at Attack fires with -1 on each die (die_minus_one), or with one die fewer"),
    Interpretation(
        name="positional_fire", default="two_more_dice", choices=("two_more_dice", "two_dice_each"), rule="caricat §8",
        phrase="Le unità col vantaggio posizionale tirano 2 dadi in combattimento di fuoco",
        explanation="attackers with positional advantage add two dice to their fire (two_more_dice), or each rolls "
                    "two dice whatever its fire value"),
    Interpretation(
        name="blocked_retreat", default="level_per_hex", choices=("level_per_hex", "eliminated"), rule="caricat §7.4",
        phrase="deve muoversi il più possibile verso la sua linea di comunicazioni",
        explanation="a unit that cannot retreat (enemy units all round) loses a morale level for each hex it does not "
                    "retreat (level_per_hex), or is eliminated; a unit left in a friend's hex is eliminated either way"),
    Interpretation(
        name="attack_speed", default="full_speed", choices=("full_speed", "nearer"), rule="caricat §3.1",
        phrase="obbligate a muoversi alla massima velocità possibile verso il più vicino nemico",
        explanation="a unit at Attack ends its move as near the nearest enemy as it can reach (full_speed), or only "
                    "nearer than it began (nearer)"),
    Interpretation(
        name="melee_losses", default="in_turn", choices=("in_turn", "each_unit"), rule="caricat §7.2.1",
        phrase="il perdente subisce 2 perdite di morale",
        explanation="a losing side of several units shares the band's losses, the first on the unit of the morale "
                    "modifier (caricat §8), then one each in turn (in_turn), or each of its units takes them all "
                    "(each_unit)"),
    Interpretation(
        name="retreat_before_zone", default="reaction_only", choices=("reaction_only", "reaction_and_level"),
        rule="caricat §9.2",
        phrase="può muoversi da un esagono in ZOC nemica direttamente ad un altra ZOC nemica, ma è soggetta a "
               "reazione di movimento",
        explanation="a cavalry retreating before combat into an enemy zone pays by the reaction fire it draws "
                    "(reaction_only), or also loses the morale level of a retreat into an enemy zone, caricat §7.4 "
                    "(reaction_and_level)"),
    Interpretation(
        name="reaction_hold", default="hold_bonus", choices=("hold_bonus", "no_hold_bonus"), rule="caricat §3.1",
        phrase="aggiungono +1 al tiro di dado in fuoco difensivo",
        explanation="reaction fire (caricat §6.2) is defensive fire and a unit at Hold adds +1 to it (hold_bonus), "
                    "or only the fire of a unit attacked counts as defensive (no_hold_bonus)"),
    Interpretation(
        name="winner_advance", default="either_side", choices=("either_side", "attacker_only"), rule="caricat §7.2.1",
        phrase="il vincitore può avanzare",
        explanation="the winner of a melee may advance into the hex its loser left, the defender too when it wins "
                    "(either_side), or only an attacker who wins (attacker_only)"),
    Interpretation(
        name="leader_loss", default="each_round", choices=("each_round", "end_of_combat"), rule="caricat §7.3",
        phrase="Alla fine del combattimento di fuoco o combattimento di mischia",
        explanation="a leader in a hex where a unit took a loss rolls after each fire round and after the melee, so "
                    "twice in a melee whose defensive fire (\"un combattimento di fuoco difensivo\", §7.2) struck "
                    "his hex (each_round), or once at the end of the whole combat (end_of_combat)"),
)}
