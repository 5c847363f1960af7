"""D9 under the fog (caldiero §13.2 with §20.4, arrivano §13.2 with §11.3.2): a stack's efficiency die is about the
hexes `Variant.bonus_reach` names (parabellum/act.stack_roll), and a seat that may not examine one of them is served
it without its words. So no commander standing outside them may change its words (the values, the modifier): every
stack die of both games (reorganisation, out-of-command order, 'Attack?', Dr/DR, Ex, Ne, rout) is worded there.
Checked with the formation's commander at every hex within two of the stack (rev-h H1)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.parabellum import efficiency
from tests.arrivano import harness as arrivano
from tests.caldiero import harness as caldiero

# harness, the testing unit, its formation's commander (Arrivano's officer), the stack's hex, the formation's order
GAMES: dict[str, tuple[Any, str, str, str, dict[str, str]]] = {
    "caldiero": (caldiero, "fr-40-ligne", "massena", "1515", {"massena": "defence"}),
    "arrivano": (arrivano, "6e-legere-i", "gency", arrivano.open_ground(), {"W": "defence"}),
}


def words(game: str, at: str) -> tuple[Any, ...]:
    """What the stack's die shows with the commander at `at` (its values and modifier), and its reach."""
    harness, unit, leader, h, orders = GAMES[game]
    ruleset = harness.RULESET
    w = ruleset.world(harness.position({unit: h}, leaders={leader: at}, orders=orders))
    return (efficiency.test_values(ruleset.variant, w, [unit]), efficiency.die_modifier(ruleset.variant, w, [unit]),
            ruleset.variant.bonus_reach(w, h))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_commander_outside_a_stack_die_s_reach_changes_its_words(game: str) -> None:
    harness, unit, leader, h, orders = GAMES[game]
    grid = harness.RULESET.world(harness.position({unit: h})).grid
    far = next(x for x in sorted(grid.within(h, 4)) if grid.distance(h, x) == 4)
    *alone, reach = words(game, far)
    changed = {x for x in grid.within(h, 2) if list(words(game, x)[:2]) != alone}
    assert h in changed, "the commander in the stack's hex changes its die"
    assert changed <= set(reach), f"a commander at {sorted(changed - set(reach))} changes a die not about his hex"
