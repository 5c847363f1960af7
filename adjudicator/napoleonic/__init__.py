"""The system shared by Caldiero 1796 and Arrivano i Francesi! (orders, formations, initiative and activation,
zones of control, efficiency tests, the combat sequence and its results), parameterised by each game's profile.
Each ruleset owns its differences, with its own citations."""
