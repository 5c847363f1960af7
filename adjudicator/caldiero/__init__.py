"""Caldiero 1796 (12 November 1796): the ruleset. Rulebook: shared/rules/caldiero-1796.it.md."""
