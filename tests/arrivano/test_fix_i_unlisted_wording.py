"""fix-i (rev-i R5): an Arrivano answer of the kind awaited that its row does not list, for a kind without a refusal of
its own, gets the one default wording both games share (the engine's fallback, as Caldiero's kinds and
tests/foundation/test_decisions.py have it), not a second Arrivano wording ("not an answer to the pending ...")."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import IllegalCommand
from tests.arrivano.test_combat import BACK, D, X, assault, fight


def test_an_unlisted_defensive_fire_is_refused_in_the_default_words() -> None:
    t = fight({"6e-legere-i": X}, {"art-gottesheim": D})
    assault(t, ["6e-legere-i"])
    frame = t.pending()
    assert frame.kind == "defensive_fire"
    with pytest.raises(IllegalCommand) as refused:
        t.send("austria", {"type": "defensive_fire", "artillery": "art-gottesheim", "target": BACK})
    assert str(refused.value).startswith(f"this defensive_fire is not one of the answers listed: {frame.prompt}")
    assert refused.value.rule == frame.rule and refused.value.allowed
