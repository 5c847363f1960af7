"""arrivano §14.2.2 "Tutte le cavallerie in buon ordine alla fine della Carica vanno automaticamente in Disordine": at
the END of the charge, once its result is carried out, the tests the result makes included (§12.5.4 Ne under an Attack
order: the attacker's test; EX: every other unit's test). The 12e Hussards and the Garde Consulaire charge IR Stuart
18-I and 18-II. Where the result asked a decision first (the Ne's test, the defender's EX loss between two equal
battalions), the chargers are disordered by §14.2.2 while it waits (arrivano/assault.py's `resolve`, right after
`AssaultResults.apply`), so a failed test (Ad, or an EX test) routs them (§15.1.1) where the same result without a
decision only disorders them. STRICT XFAIL (ret, eighteenth session): the fix (the §14.2.2 loop moved to the start of
the stage `advance`, once the result's decisions are answered, where the table fought) changes
logs/arrivano-montebello.jsonl's game (its command 386: the 12e Hussards' charge at seq 730 was Ne, disordered by
§14.2.2 at 733 while the test waited, routed by the failed test's Ad at 737, then retreated): the log must be played
again (`python -m tests.arrivano.full_game arrivano-montebello`), and the tests pinned to its positions
(tests/parabellum/test_legal_of_piece.py ...) moved: too late for this session's gate. See /work/team/notes/ret.md."""

from __future__ import annotations

from typing import Any

import pytest

from tests.arrivano.harness import RULESET, Table, at_step, ev, open_ground, position

X = open_ground()
GRID = RULESET.data.scenarios["montebello"].map.grid
TARGET = GRID.neighbour(X, 1)
OTHER = sorted(set(GRID.neighbours(TARGET)) & set(GRID.neighbours(X)))[0]
CHARGERS = ("12e-hussards", "garde-consulaire")


def charged(die: int) -> Table:
    """Both cavalry charge TARGET (from X and OTHER), the assault's die `die`."""
    start = GRID.neighbour(X, 4)
    start2 = next(h for h in sorted(GRID.neighbours(OTHER)) if h not in (X, TARGET) and GRID.distance(h, TARGET) == 2)
    state = position({"12e-hussards": start, "garde-consulaire": start2, "ir18-i": TARGET, "ir18-ii": TARGET},
                     leaders={"lannes": start}, orders={"L": "attack"})
    t = at_step(state, "L", "movement")
    t.send("france", {"type": "move", "unit": "12e-hussards", "to": X, "column": False, "charge": TARGET})
    t.send("france", {"type": "move", "unit": "garde-consulaire", "to": OTHER, "column": False, "charge": TARGET})
    t.send("france", {"type": "end_step"})
    t.send("france", {"type": "assault", "attackers": list(CHARGERS), "targets": [TARGET]}, [die])
    return t


def statuses(t: Table) -> dict[str, Any]:
    return {u: (t.state.units[u].where, t.state.units[u].status) for u in CHARGERS}


def test_an_ad_from_the_table_disorders_the_chargers() -> None:
    """The control: Ad from the table, no decision asked: each charger disordered once (§12.5.4 Ad)."""
    t = charged(1)
    assert t.of(ev.AssaultResolved)[-1].result == "Ad"
    assert statuses(t) == {u: ("map", "disordered") for u in CHARGERS}


@pytest.mark.xfail(strict=True, reason="arrivano §14.2.2 applied before the Ne's test is answered (module docstring)")
def test_a_failed_ne_test_is_an_ad_that_disorders_the_chargers_not_routs_them() -> None:
    t = charged(3)
    assert t.of(ev.AssaultResolved)[-1].result == "Ne" and t.pending().kind == "ne_choice"
    assert statuses(t) == {u: ("map", "good") for u in CHARGERS}, "the charge has not ended while the test is asked"
    t.send("france", {"type": "ne_choice", "test": True}, dice=[6, 6])  # both stacks fail (§13.1.1): Ad
    assert [e.result for e in t.of(ev.AssaultResolved)] == ["Ne", "Ad"]
    assert statuses(t) == {u: ("map", "disordered") for u in CHARGERS}
    assert not [e for e in t.of(ev.StatusChanged) if e.status == "routed"]


@pytest.mark.xfail(strict=True, reason="arrivano §14.2.2 applied before the EX's tests are made (module docstring)")
def test_a_charger_s_failed_ex_test_after_the_defender_s_choice_disorders_it() -> None:
    t = charged(4)
    assert t.of(ev.AssaultResolved)[-1].result == "Ex" and t.pending().kind == "exchange_loss"  # 18-I and 18-II alike
    assert t.state.units["12e-hussards"].status == "good", "the charge has not ended while the defender chooses"
    t.send("austria", t.pending().options[0], dice=[6, 6])  # the EX tests: the hussards fail (§13.1.1)
    assert statuses(t)["12e-hussards"] == ("map", "disordered")
    assert [(e.unit, e.rule) for e in t.of(ev.StatusChanged) if e.unit == "12e-hussards"] == [
        ("12e-hussards", "arrivano §12.5.4")], "the failed test disorders it; §14.2.2 then finds it out of good order"
