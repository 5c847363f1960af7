"""A commander still to come under the fog of war (caldiero §20.4; `unseen_off_map`: reinforcements to come, not yet
seen arriving): the enemy's view served him as "offmap" until he entered, then not at all where he entered out of its
sight, so it told the enemy the turn an unseen commander entered, which his move's stub (`leader_moved`, no name)
hides (nifuzz, a commander to come entered into an unseen stack: bench/nifuzz_facts.moved_leaders). Now he is unseen
as the units to come are: two games differing only in whether Bonaparte has entered, into an unseen French stack,
serve Austria the same view at every position of the shipped fog log before he enters."""

from __future__ import annotations

from pathlib import Path

from arbitro.events.codec import canonical
from arbitro.projections.views import seat_view
from bench.nifuzz import replayed

LOG = Path(__file__).resolve().parents[2] / "logs" / "caldiero-tempo-regge-fog.jsonl"


def test_a_commander_to_come_is_unseen_until_he_enters_in_sight() -> None:
    game = replayed(LOG)
    rs, compared = game.ruleset, 0
    for _, _, _, state in game.positions[::5]:
        if state.rules.leaders["bonaparte"].where != "offmap":
            break
        stacks = sorted(rs.unexaminable(state.rules, "austria", {
            u.hex for u in state.rules.units.values() if u.side == "france" and u.where == "map"}))
        if not stacks:
            continue
        entered = game.engine.fold.copy(state)
        entered.rules.leaders["bonaparte"].hex, entered.rules.leaders["bonaparte"].where = stacks[0], "map"
        assert canonical(seat_view(rs, entered, "austria")) == canonical(seat_view(rs, state, "austria"))
        compared += 1
    assert compared >= 3, "Bonaparte enters too early in the log: the test compares nothing"
