"""The duel test ruleset, for the vectors' one end-to-end game."""

from arbitro.adjudicator import registry

registry.register("duel", "tests.foundation.duel:DuelRuleset")
