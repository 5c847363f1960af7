"""ux15 (rev-j R-j-5): a counter-charge Austria may not make is refused saying why, in words, to its owner: the unit's
order and §14.2.4's ("Le unità di Cavalleria con un Ordine di Difesa possono reagire"), or that the unit is not one
the charge passes (interpretation countercharge_trigger), and what it may answer. Montebello as
tests/arrivano/test_fog_cavalry_asked.py: Bussy at 0802 under R's Attack, Ott (R's general) at 0806, out of France's
sight (asked, §11.3.2), Bussy in command; at 0807 it is out of command (Defence) and may counter-charge."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import IllegalCommand
from tests.arrivano.harness import Table, at_step, position

CHARGE = {"type": "move", "unit": "12e-hussards", "to": "0902", "column": False, "charge": "0802"}


def charged(ott: str) -> Table:
    state = position({"bussy": "0802", "12e-hussards": "1301", "ir40-i": "1208"}, leaders={"lannes": "1302", "ott": ott},
                     orders={"L": "attack", "R": "attack"})
    t = at_step(state, "L", "movement")
    t.send("france", CHARGE)
    assert t.pending().kind == "countercharge"
    return t


def refusal(t: Table, unit: str) -> IllegalCommand:
    with pytest.raises(IllegalCommand) as refused:
        t.send("austria", {"type": "countercharge", "unit": unit})
    assert refused.value.rule == "arrivano §14.2.4"
    return refused.value


def test_a_countercharge_without_defence_is_refused_with_the_order_and_the_rule() -> None:
    said = str(refusal(charged("0806"), "bussy"))
    assert "bussy has an order of attack" in said and '"con un Ordine di Difesa"' in said, said
    assert "it may only decline (unit null)" in said, said


def test_a_unit_the_charge_does_not_pass_is_named_and_the_answers_listed() -> None:
    said = str(refusal(charged("0807"), "ir40-i"))
    assert "ir40-i is not cavalry in good order alone beside this charge" in said, said
    assert "may: bussy, or decline (unit null)" in said, said
