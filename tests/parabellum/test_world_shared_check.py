"""One World for the engine's check of an answer and the answer itself (issue 15): the engine lists a pending frame's
answers to check the one sent (engine._check_answer), through the game's lister (ParaBellumRuleset.world_at), and the
answer's procedure then reads the same state object at the same seq, so it takes that World over (act.carried_world)
with the retreat lines the listing searched (retreat_ground.lines keeps them in the World). Nothing stale is served:
what was worked out is forgotten once an event moves the seq, once another game state with another seq shares the
state object, and once a ruling is written into the state object itself (World.read_for)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.engine import NoHistory
from arbitro.adjudicator.parabellum import retreat_ground
from arbitro.adjudicator.ruleset import Decision
from arbitro.events.parabellum import UnitEliminated
from arbitro.projections.game import GameState
from tests.hex.harness import Dice
from tests.parabellum.test_rout_after_retreat import GAMES

READING = "end_of_move"


def _retreating(t: Any) -> tuple[str, int]:
    """The unit the pending retreat frame asks for, and its hexes."""
    (unit, hexes), = t.top().ctx.moves.items()
    return unit, hexes


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_answer_searches_no_line_its_check_searched_at_the_same_position(game: str, monkeypatch: Any) -> None:
    t, *_ = GAMES[game](READING)
    options = t.engine.legal(t.engine.fold.copy(t.game), "austria")
    variant, searches = t.ruleset.variant, []
    search = variant.retreat_lines

    def counted(ground: Any, hexes: int, reading: Any) -> Any:
        searches.append((t.game.core.seq, ground.start, hexes))  # consumed: t.game is the state decided on
        return search(ground, hexes, reading)

    monkeypatch.setattr(variant, "retreat_lines", counted)
    done = t.engine.decide(t.game, "austria", options[0], t.context, NoHistory(), Dice([6], 3), consume=True)
    assert done.events and searches, "the answer was checked and carried out"
    assert len(set(searches)) == len(searches), f"a position's lines searched twice: {searches}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_event_folded_into_the_listed_state_is_listed_from_afresh(game: str) -> None:
    t, *_ = GAMES[game](READING)
    before = t.legal("austria")
    enemy = next(u for u, s in t.state.units.items() if s.where == "map" and s.side == "france" and s.status != "routed")
    ctx = Decision(t.ruleset, t.engine.fold, t.game, "umpire", t.game.core.seq + 1, Dice([]), t.context.options)
    ctx.emit(UnitEliminated(unit=enemy, permanent=True, return_turn=0, rule="test"))  # into t.game itself
    after = t.legal("austria")
    assert after == t.engine.legal(t.engine.fold.copy(t.game), "austria")  # a World of its own agrees
    assert after != before, "the event changed the retreat's lines (no enemy to retreat from)"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_another_seq_or_a_ruling_written_into_the_state_forgets_the_lines(game: str) -> None:
    t, *_ = GAMES[game](READING)
    unit, hexes = _retreating(t)
    key = ("retreat lines", (unit,), hexes, False, True)
    w = t.ruleset.world_at(t.game)
    retreat_ground.lines(t.ruleset.variant, w, [unit], hexes)
    assert t.ruleset.world_at(t.game) is w and w.known(key) is not None  # the same position: taken over, kept
    later = GameState(core=msgspec.structs.replace(t.game.core, seq=t.game.core.seq + 1), rules=t.game.rules)
    assert t.ruleset.world_at(later) is w and w.known(key) is None  # one state object, another seq
    retreat_ground.lines(t.ruleset.variant, t.ruleset.world_at(t.game), [unit], hexes)
    assert w.known(key) is not None
    t.rule({"rout_trigger": "any_arrival"})  # the harness writes the ruling into the state object, no seq moved
    assert t.ruleset.world_at(t.game) is w and w.known(key) is None
