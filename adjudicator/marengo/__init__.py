"""Bonaparte a Marengo (14 June 1800): the ruleset. Rulebook: shared/rules/marengo.it.md."""
