"""A commander in chief's limit refusal (caldiero §4.2.2, parabellum/chief_limits.limit_end_problem, worded by
the kernel since ad10c29, the same words and the same reading of the true position in caldiero/system_moves before it)
told the seat what fog of war hides (caldiero §20.4, arbitro §V.4, docs/engine-rules.md: "A refused move says only
what the seat may know").

Bonaparte at 1007, three hexes beyond his limit (two hexes from 1014); the hexes nearest 1014 he could reach (1012,
1013, 1112) lie next to 1012, where an Austrian stack stands out of France's sight. In one game it is in good order
(its ZoC closes those hexes to his end, §8.2.2), in the other disordered (no ZoC, §15). France asks him to 1017, which
he cannot reach in either: `limit_ends` caps where he may end by the nearest hex the TRUE search reaches, so one game
refuses it citing the limit ("and he can end nearer it") and the other with the allowance/ZoC sentence. The view is
the same: only the refusal told France whether the unseen stack exerts a ZoC (rev-e). Under the fog the limit is now
the reason only where the hex lies farther beyond it than he starts (commander_move.commander_destination_problem)."""

from __future__ import annotations

import json

import pytest

from arbitro.adjudicator.errors import Rejected
from arbitro.events.codec import canonical
from tests.caldiero import harness as C

HIDDEN = "1012"


def refused(status: str) -> tuple[bytes, bytes]:
    state = C.position({"fr-18-ligne": "2720", "au-colloredo": HIDDEN}, leaders={"bonaparte": "1007", "massena": "2721"},
                       orders={"massena": "manoeuvre"}, options=("fog_of_war",))
    state.units["au-colloredo"].status = status
    assert C.RULESET.unexaminable(state, "france", [HIDDEN]) == {HIDDEN}
    t = C.activate(state, "massena", step="movement")
    t.send("france", {"type": "end_step"})  # on to the commanders' moves (caldiero §4.2.1)
    view = canonical(C.RULESET.view(t.state, "france"))
    with pytest.raises(Rejected) as e:
        t.send("france", {"type": "move_leader", "leader": "bonaparte", "to": "1017"})
    return view, canonical(e.value.to_dict())


def test_a_chief_limit_refusal_does_not_tell_whether_an_unseen_stack_exerts_a_zoc() -> None:
    good, disordered = refused("good"), refused("disordered")
    assert good[0] == disordered[0], "the views differ: the hidden fact is not hidden"
    assert good[1] == disordered[1], f"the refusal tells the unseen stack's ZoC: {good[1]!r} != {disordered[1]!r}"


def test_under_the_fog_the_limit_is_one_more_possibility_of_the_allowance_sentence() -> None:
    """The words both games are refused with (commander_destination_problem): 1017 lies nearer the limit than he
    starts, so the limit is not the reason; whether he could end nearer it hangs on the unseen stack's ZoC, so it is
    said as one more possibility, never left out (the clause no test pinned: mutation run of 2dbe1049)."""
    limit = "Bonaparte may not move more than 2 hexes from 1014 (reading whole_move), caldiero §4.2.2"
    assert json.loads(refused("good")[1])["message"] == (
        "1017 is beyond his 6 MP, or in or reached only through enemy ZoC hexes without friendly units (caldiero §9.1.4, "
        f"caldiero §9.2, caldiero §8.2.2), or reached only by leaving his limit ({limit}), or he can end nearer his "
        f"limit ({limit})")
