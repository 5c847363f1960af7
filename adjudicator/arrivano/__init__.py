"""Arrivano i Francesi! (Montebello 1800, Campotenese 1806). The ruleset is adjudicator/arrivano/ruleset.py;
docs/rulesets/arrivano.md has the coverage map (what is implemented and what is not yet)."""

from arbitro.adjudicator.arrivano.ruleset import ArrivanoRulesetImpl as ArrivanoRuleset

__all__ = ["ArrivanoRuleset"]
