"""Both games' read models answer every question the kernel's World Protocol declares (adjudicator/parabellum/world.py)."""

from __future__ import annotations

import inspect

import pytest

from arbitro.adjudicator.arrivano.world import World as ArrivanoWorld
from arbitro.adjudicator.caldiero.system_world import World as CaldieroWorld
from arbitro.adjudicator.parabellum.world import World


def declared() -> list[str]:
    return sorted(n for n, v in vars(World).items() if callable(v) and not n.startswith("_"))


@pytest.mark.parametrize("game_world", [CaldieroWorld, ArrivanoWorld], ids=["caldiero", "arrivano"])
def test_each_world_answers_every_question_of_the_protocol(game_world: type) -> None:
    assert declared(), "the Protocol declares nothing"
    names = set(dir(game_world)) | set(getattr(game_world, "__dataclass_fields__", {}))
    missing = [n for n in declared() if n not in names]
    assert missing == [], f"{game_world.__module__}.World lacks {missing}"
    for n in declared():
        if n in vars(game_world) and callable(vars(game_world)[n]):
            params = list(inspect.signature(vars(game_world)[n]).parameters)
            wanted = list(inspect.signature(vars(World)[n]).parameters)
            assert len(params) >= len(wanted), f"{game_world.__module__}.World.{n} takes {params}, the kernel asks {wanted}"
