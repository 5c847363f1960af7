"""The out-of-command stacks' order tests a listing offers (caldiero §5.3.1; the step the reading `ooc_order_test` names,
§3.1 B-3): where the step refuses every stack's test whatever its hex and order (`unit_orders_problem`), the listing
makes and checks none (issue 15: a command made and refused for every stack and order of every movement listing),
and decide's refusal keeps its words."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.caldiero import legal as caldiero_legal
from arbitro.adjudicator.caldiero import commands as C
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.system_activation import check_unit_order, unit_orders_problem
from arbitro.adjudicator.errors import IllegalCommand
from tests.parabellum.test_move_search_parts import movement_positions


def test_a_movement_listing_makes_no_order_test_to_refuse(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset, rules = movement_positions("caldiero-tempo-regge.jsonl", 40)
    asked: list[object] = []
    monkeypatch.setattr(caldiero_legal, "check_unit_order", lambda *a: asked.append(a) or check_unit_order(*a))
    seen = 0
    for position in rules:
        w = ruleset.world(position)
        hexes = sorted({w.hex_of(u) for u in position.activation.out_of_command if w.on_map(u)})
        if not hexes:
            continue
        seen += 1
        assert caldiero_legal._unit_orders(w, position.seat) == []
        assert unit_orders_problem(w) == (R.OOC_TEST, (
            "out-of-command units try to change order when their formation is activated, before it moves (caldiero "
            "§5.3.1; reading ooc_order_test: at_activation)"))
        with pytest.raises(IllegalCommand) as refused:
            check_unit_order(w, position.seat, C.UnitOrder(type="unit_order", hex=hexes[0], order="attack"))
        assert refused.value.rule == str(R.OOC_TEST) and str(refused.value) == f"{unit_orders_problem(w)[1]} [{R.OOC_TEST}]"
    assert seen > 0 and asked == []
