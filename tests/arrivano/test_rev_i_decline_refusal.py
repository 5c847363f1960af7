"""rev-i (review of k-handler 057f7bc/81b19d1): a decline sent where arrivano §11.1.1 makes the advance obligatory is the
awaited seat's own answer, wrong: it should be an IllegalCommand giving the advance row's refusal (parabellum/advance.
refusal: "obligatory after artillery alone ... no decline", and what is permitted), as tests/parabellum/
test_advance_answers.py asks for a wrong advance. The engine's _unlisted_answer refuses any command whose type the
frame's options do not list as NotYourDecision ("first decide the advance") before it asks the row's refusal, so the
only place the "no decline" words can be read is the refusal of an unlisted advance, where they do not apply."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import IllegalCommand, NotYourDecision
from tests.arrivano.test_combat import D, X, assault, fight


def test_a_decline_of_an_obligatory_advance_is_illegal_and_says_why() -> None:
    t = fight({"6e-legere-i": X}, {"art-gottesheim": D})
    assault(t, ["6e-legere-i"])
    t.send("austria", {"type": "defensive_fire", "target": None})
    assert t.pending().kind == "advance"
    with pytest.raises((IllegalCommand, NotYourDecision)) as refused:
        t.send("france", {"type": "decline"})
    assert isinstance(refused.value, IllegalCommand), f"{type(refused.value).__name__}: {refused.value}"
    assert "no decline" in str(refused.value) and "permitted: 6e-legere-i into" in str(refused.value)


def test_the_decline_cites_the_obligation_and_other_answers_stay_another_decision() -> None:
    """fix-i: the refusal cites §11.1.1 (the obligation), not §12.7; only the answer types an advance takes (advance,
    decline: parabellum/advance.ANSWERS) get the row's refusal. A command of another kind from the awaited seat, or the
    decline of the seat not awaited, is still NotYourDecision."""
    t = fight({"6e-legere-i": X}, {"art-gottesheim": D})
    assault(t, ["6e-legere-i"])
    t.send("austria", {"type": "defensive_fire", "target": None})
    with pytest.raises(IllegalCommand) as refused:
        t.send("france", {"type": "decline"})
    assert refused.value.rule.startswith("arrivano §11.1.1"), refused.value.rule
    with pytest.raises(NotYourDecision):
        t.send("france", {"type": "end_step"})
    with pytest.raises(NotYourDecision):
        t.send("austria", {"type": "decline"})
