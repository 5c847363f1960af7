"""Arrivano i Francesi! (Montebello 1800, Campotenese 1806). The ruleset is adjudicator/arrivano/ruleset.py;
docs/rulesets/arrivano.md has the coverage map."""

from arbitro.adjudicator.arrivano.ruleset import ArrivanoRulesetImpl as _ArrivanoInProgress

__all__ = ["_ArrivanoInProgress"]
