"""Map pictures of a seat's view (issue 13): the drawing interface (model.py), one renderer per map kind (hexes.py, areas.py),
each ruleset's picture built from its served view (rulesets.py); the application's entry point is
adjudicator/render.py."""
