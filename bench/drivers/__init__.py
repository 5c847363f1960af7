"""Log drivers: programs that play sample games through the application (adjudicator.service) and write them to
logs/. They sit above the application, so they live here rather than in a ruleset's package."""
