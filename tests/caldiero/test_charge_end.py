"""caldiero §20.2.3 "Tutte le cavallerie in carica alla fine della Carica diventano automaticamente in Disordine se in
piena efficienza": arrivano §14.2.2's rule, one reading in the kernel (parabellum/advance.charge_ended, interpretation
`charge_disorder`): the charge ends with its assault, after the advance after combat (§12.7) and after the tests its
result asks (§12.5.4 Ne). The Wurmser hussars charge the Carabiniers (the optional rule §20.2)."""

from __future__ import annotations

import json
from pathlib import Path

from arbitro.events import caldiero as ev
from tests.caldiero.harness import Table, activate, position

HUSSARS, FROM, TARGET = "au-wurmser-hussars", "1717", "1617"
DATA = Path(__file__).resolve().parents[2] / "adjudicator"


def charged(dice: list[int], readings: dict[str, str] | None = None) -> Table:
    s = position({HUSSARS: "1917", "fr-carabiniers": TARGET}, leaders={"hohenzollern": "2017"},
                 orders={"hohenzollern": "attack"}, options=("cavalry_charges",))
    s.seat = "austria"
    t = activate(s, "hohenzollern", step="movement")
    t.rule(readings or {})
    t.send("austria", {"type": "move", "units": [HUSSARS], "to": FROM, "charge": True})
    t.state.step = "combat"
    t.send("austria", {"type": "attack", "attackers": [HUSSARS], "defenders": [TARGET]}, dice=dice)
    return t


def retreated(t: Table) -> Table:
    """The Dr (die 6): the Carabiniers' retreat answered (the first line listed), their test passed."""
    t.send("france", t.legal("france")[0], dice=[1])
    return t


def ended(t: Table) -> list[tuple[str, str]]:
    return [(type(e).__name__, e.rule) for e in t.events if isinstance(e, (ev.ChargeEnded, ev.StatusChanged))
            and e.unit == HUSSARS]


def test_the_charger_advances_then_its_charge_ends_in_disorder() -> None:
    t = retreated(charged([6, 1]))
    assert t.unit(HUSSARS).status == "good" and t.top().kind == "advance"
    assert {"type": "advance", "units": [HUSSARS], "to": TARGET} in t.legal("austria")
    t.send("austria", {"type": "advance", "units": [HUSSARS], "to": TARGET})
    assert (t.unit(HUSSARS).hex, t.unit(HUSSARS).status, t.unit(HUSSARS).charging) == (TARGET, "disordered", False)
    assert ended(t) == [("ChargeEnded", "caldiero §20.2.3"), ("StatusChanged", "caldiero §20.2.3")]


def test_before_advance_the_charger_is_disordered_and_not_asked_to_advance() -> None:
    """The umpire's reading `before_advance`: disordered once the result is carried out, the charger may not
    advance (§12.7.1); its marker comes off with it, the charge ended (the kernel's one charge_ended, since the
    twenty-first session: it came off at the assault's END before), once."""
    t = retreated(charged([6, 1], {"charge_disorder": "before_advance"}))
    assert t.top() is None and t.unit(HUSSARS).hex == FROM
    assert ended(t) == [("ChargeEnded", "caldiero §20.2.3"), ("StatusChanged", "caldiero §20.2.3")]


def test_a_failed_ne_test_disorders_the_charger_once() -> None:
    """§12.5.4 Ne: the failed test makes the result Ad, the charger's disorder; the charge's end then finds it out of
    good order (not a second level, §15.1: a rout)."""
    t = charged([2, 1])
    assert t.top().kind == "ne_choice"
    t.send("austria", {"type": "ne_choice", "test": True}, dice=[6])
    assert t.unit(HUSSARS).status == "disordered"
    assert ended(t) == [("StatusChanged", "caldiero §12.5.4"), ("ChargeEnded", "caldiero §20.2.3")]


def test_both_books_read_the_charge_s_end_alike() -> None:
    """One rule in both books ("alla fine della Carica"): the same interpretation, default and choices in each."""
    def entry(game: str) -> tuple[str, list[str]]:
        data = json.loads((DATA / game / "data" / "interpretations.json").read_text(encoding="utf-8"))
        found = next(i for i in data["interpretations"] if i["name"] == "charge_disorder")
        assert "alla fine della Carica" in found["phrase"]
        return found["default"], found["choices"]
    assert entry("caldiero") == entry("arrivano") == ("after_advance", ["after_advance", "before_advance"])
