"""Map pictures of a seat's view (issue 13): the drawing interface (model.py), one renderer per map kind (hexes.py),
each ruleset's picture built from its served view (rulesets.py), and the application's entry point (render.py)."""
