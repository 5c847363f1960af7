"""nifuzz (seventeenth session, found by bench/nifuzz.py on logs/caldiero-tempo-regge-fog.jsonl #334 and #271): under
fog (caldiero §20.4) the enemy's `formation_activated` is served without who is out of command and which reserve units
joined (projections/parabellum.served_command, rev-l L8: they tell where the unseen commanders stand, §4.3, §5.3,
§15.4.3), yet where one of them is a unit the enemy may not examine, `hides` judges the event on those fields first and
serves the whole event as a stub: whether the activation comes as a stub tells the enemy that an unseen unit of the
formation is out of command (or an unseen reserve unit joined), so whether the unseen general stands in range of it.

Massena's 40e stands at 2518 out of Austria's sight (Colloredo at 2414, weather 2: the reach cut to 2, §20.4.1);
Massena (command range 4), out of sight too, stands at 2120 (in range) or at 1317 (out of range). France activates
Massena: Austria must be served the same bytes."""

from __future__ import annotations

from tests.caldiero.test_rev_l_fog_out_of_command import activated as played


def activated(massena: str) -> tuple[list[str], bytes, bytes]:
    return played(massena, colloredo="2414", forty_seen=False)


def test_whether_an_unseen_unit_is_out_of_command_is_not_told_by_the_activation_stub() -> None:
    near, far = activated("2120"), activated("1317")
    assert (near[0], far[0]) == ([], ["fr-40-ligne"]), "the premise: in his range or not"
    assert near[2] != far[2], "the umpire sees the hidden fact"
    assert near[1] == far[1], "Austria learns whether Massena stands within four hexes of the unseen 40e"
