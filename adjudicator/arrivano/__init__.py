"""Arrivano i Francesi! (Montebello 1800, Campotenese 1806): the ruleset. Rulebook: shared/rules/arrivano-i-francesi.it.md."""
