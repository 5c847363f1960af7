"""fogm (fifteenth session's "Left": a refuge or replacement placement with NO answer still settles by itself): where
the count of a decision's answers reads stacks the enemy may not examine (arrivano/steps.asks_owner, `_READS`), one
answer waits for the owner, but none is still made for him (steps.settle_top), so 0 against 1+ would be told by the
wait. These tests show the two cases give nothing away beyond what the table shows:
- a lone commander's refuge (§4.5.4) has no hex only where enemy units hold every hex around him (commanders ignore
  enemy ZoC, §8.2.2 "non deve fermarsi in EZoC", and no hex of either map is closed all round by its terrain), and an
  enemy unit next to him examines his hex (§11.3.2): then the refuge is made in the enemy's sight, as the table shows;
- a replacement with no hex to return to stays on the turn track (§12.8.2), which every seat is served
  (projections/parabellum.TRACK_SHOWN): what a wait would hide, the track tells, as the table's counter does."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.arrivano import steps
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum.commander_move import leader_ends
from arbitro.events import arrivano as ev
from arbitro.events import core
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, Table, open_ground, position


@pytest.mark.parametrize("scenario", ["montebello", "campotenese"])
def test_a_lone_commander_has_somewhere_to_go_wherever_he_stands_on_an_empty_map(scenario: str) -> None:
    state = position({}, scenario=scenario)
    lid = sorted(state.leaders)[0]
    closed = []
    for h in RULESET.data.scenarios[scenario].map.hexes():
        w = RULESET.world_at(Table(position({}, leaders={lid: h}, scenario=scenario)).game)
        if not leader_ends(ARRIVANO_VARIANT, w, lid):
            closed.append(h)
    assert not closed, f"a commander alone may go nowhere from {closed}: its refuge's 0 answers may be unseen"


def test_a_commander_hemmed_in_by_the_enemy_is_in_its_sight() -> None:
    """Vogelsang alone at X, a French unit on every hex around him: no refuge, and France examines X, so the refuge
    (none) is not asked (asks_owner False) and nothing the wait could tell is hidden."""
    x = open_ground()
    grid = RULESET.data.scenarios["montebello"].map.grid
    french = ["6e-legere-i", "6e-legere-ii", "96e-i", "96e-ii", "96e-iii", "22e-i"]
    state = position(dict(zip(french, sorted(grid.neighbours(x)), strict=True)), leaders={"vogelsang": x})
    w = RULESET.world_at(Table(state).game)
    frame = core.Frame(kind="commander_refuge", seats=("austria",), rule=str(ARRIVANO.LEADER_ALONE), prompt="",
                       ctx=ev.RefugeAwaited(leader="vogelsang"))
    assert steps.refuge_hexes(w, "vogelsang") == [], "the premise: nowhere to go"
    assert not RULESET.unexaminable(state, "france", [x]) and not steps.asks_owner(w, frame)


X = open_ground()
GRID = RULESET.data.scenarios["montebello"].map.grid
BEYOND = GRID.neighbour(GRID.neighbour(X, 4), 4)
FRENCH = {"6e-legere-i": "1001"}  # it sees X and some hexes around it, not the others (test_fog15a_owner_waits)


def returning(may: bool) -> tuple[bytes, dict[str, Any]]:
    """Turn 3 begins with IR 18-I on the track, Gottesheim (G) at X in France's sight, every hex around X held by a
    battalion of another formation (§7.1: G's may not join it) but `hidden`, out of France's sight, holding IR 18-III
    of G (`may`: the replacement may return there) or Banat of R (it may not). Austria places it whenever asked.
    Returns France's service and its view of IR 18-I."""
    around = sorted(GRID.neighbours(X))
    unseen = sorted(RULESET.unexaminable(position(FRENCH), "france", around))
    hidden, others = unseen[0], [h for h in around if h != unseen[0]]
    g_or_r = ("ir18-iii", "banat") if may else ("banat", "ir18-iii")
    units = {"bach": X, **dict(zip(["am-ende", "otocac", "ir28-i", "ir28-ii", "ir40-i"], others, strict=True)),
             g_or_r[0]: hidden, g_or_r[1]: BEYOND, **FRENCH}
    state = position(units, leaders={"gottesheim": X})
    state.units["ir18-i"].where, state.units["ir18-i"].reduced, state.units["ir18-i"].return_turn = "track", True, 3
    t = Table(state)
    before = FOLD.copy(t.game)
    made: list[tuple[str, list[Any]]] = [("umpire", t.new_turn(3))]
    while (awaited := t.pending()) is not None and awaited.seat == "austria" and awaited.kind == "replacement_hex":
        assert [o["hex"] for o in awaited.options] == [hidden]
        made.append(("austria", t.send("austria", {"type": "replacement_hex", "hex": hidden})))
    assert (t.state.units["ir18-i"].where == "map") == may
    return served(RULESET, FOLD, before, made, "france"), RULESET.view(t.state, "france")["units"].get("ir18-i", {})


def test_a_replacement_with_no_hex_is_told_by_the_track_whatever_the_wait() -> None:
    placed, stays = returning(True), returning(False)
    assert placed[0] != stays[0]
    assert stays[1].get("where") == "track" and placed[1].get("where") != "track", \
        "France's view shows IR 18-I left on the turn track where no hex could take it, as the table does"
