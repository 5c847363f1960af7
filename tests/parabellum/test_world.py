"""One read model for both games (adjudicator/parabellum/world.py): each game's World is the kernel's, and answers
the questions the kernel leaves to the book; a World keeps what it works out."""

from __future__ import annotations

import ast
import inspect

import pytest

from arbitro.adjudicator.arrivano.world import World as ArrivanoWorld
from arbitro.adjudicator.caldiero.system_world import World as CaldieroWorld
from arbitro.adjudicator.parabellum import world
from arbitro.adjudicator.parabellum.world import World
from tests.caldiero.harness import RULESET, position

GAMES = pytest.mark.parametrize("game_world", [CaldieroWorld, ArrivanoWorld], ids=["caldiero", "arrivano"])


def left_to_the_book() -> list[str]:
    """The kernel's questions whose answer is each book's (the body raises NotImplementedError)."""
    tree = ast.parse(inspect.getsource(world))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "World")
    return sorted(f.name for f in cls.body if isinstance(f, ast.FunctionDef)
                  and any(isinstance(s, ast.Raise) for s in f.body))


@GAMES
def test_each_world_is_the_kernels_and_answers_what_it_leaves_to_the_book(game_world: type) -> None:
    assert issubclass(game_world, World)
    assert left_to_the_book(), "the kernel leaves nothing to the books"
    missing = [n for n in left_to_the_book() if getattr(game_world, n) is getattr(World, n)]
    assert missing == [], f"{game_world.__module__}.World does not answer {missing}"
    for n in left_to_the_book():
        params = inspect.signature(getattr(game_world, n)).parameters
        assert len(params) == len(inspect.signature(getattr(World, n)).parameters), (game_world, n)


def test_a_world_keeps_what_it_works_out() -> None:
    """`cached`: the work is done once per World (a World is one position)."""
    env = RULESET.env
    w = CaldieroWorld(position({"fr-18-ligne": "1517"}), env.data, env.board, lambda name: "")
    calls: list[int] = []
    assert w.cached(("k",), lambda: calls.append(1) or 5) == 5
    assert w.cached(("k",), lambda: calls.append(1) or 6) == 5 and calls == [1]


def test_worlds_of_one_position_share_what_they_work_out_and_a_moved_one_does_not() -> None:
    """parabellum/positions.py (issue 15): a second World of a state with the same content finds the first one's
    answers; once the state under a tracking World moves, its answers are its new position's, and the old
    position's are not touched."""
    env = RULESET.env
    state = position({"fr-18-ligne": "1517"})
    events: list[int] = []
    first = CaldieroWorld(state, env.data, env.board, lambda name: "", position=lambda: len(events))
    assert first.cached(("probe",), lambda: "at 1517") == "at 1517"
    twin = CaldieroWorld(position({"fr-18-ligne": "1517"}), env.data, env.board, lambda name: "")
    assert twin.cached(("probe",), lambda: "worked out again") == "at 1517"
    state.units["fr-18-ligne"].hex = "1518"  # an event moves the state under the tracking World
    events.append(1)
    assert first.cached(("probe",), lambda: "at 1518") == "at 1518"
    again = CaldieroWorld(position({"fr-18-ligne": "1517"}), env.data, env.board, lambda name: "")
    assert again.cached(("probe",), lambda: "worked out again") == "at 1517"
    elsewhere = CaldieroWorld(position({"fr-18-ligne": "1519"}), env.data, env.board, lambda name: "")
    assert elsewhere.cached(("probe",), lambda: "at 1519") == "at 1519"
