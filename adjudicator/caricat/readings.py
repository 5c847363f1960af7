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
)}
