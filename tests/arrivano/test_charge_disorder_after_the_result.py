"""arrivano §14.2.2 "Tutte le cavallerie in buon ordine alla fine della Carica vanno automaticamente in Disordine": at
the END of the charge, its assault's end (the kernel's parabellum/advance.ended; caldiero §20.2.3 says the same, one
reading: interpretation `charge_disorder`), once its result is carried out, the tests the result makes included
(§12.5.4 Ne under an Attack order: the attacker's test; EX: every other unit's test), and the advance after combat
chosen (§12.7). The 12e Hussards and the Garde Consulaire charge IR Stuart 18-I and 18-II. Until the nineteenth
session the chargers were disordered by §14.2.2 right after the table (arrivano/assault.py's `table`), while a
decision the result asked waited, so a failed test (Ad, or an EX test) routed them (§15.1.1) where the same result
without a decision only disorders them (ret, eighteenth session: logs/arrivano-montebello.jsonl's 12e Hussards), and a
charger could never advance after combat (§12.7.1), against the reading `charge_resolution` ("normal advance after
combat") and the charge's "entrano nell'esagono"."""

from __future__ import annotations

from typing import Any

from tests.arrivano.harness import RULESET, Table, at_step, ev, open_ground, position

X = open_ground()
GRID = RULESET.data.scenarios["montebello"].map.grid
TARGET = GRID.neighbour(X, 1)
OTHER = sorted(set(GRID.neighbours(TARGET)) & set(GRID.neighbours(X)))[0]
CHARGERS = ("12e-hussards", "garde-consulaire")


def charged(die: int, readings: dict[str, str] | None = None) -> Table:
    """Both cavalry charge TARGET (from X and OTHER), the assault's die `die`, under `readings`."""
    start = GRID.neighbour(X, 4)
    start2 = next(h for h in sorted(GRID.neighbours(OTHER)) if h not in (X, TARGET) and GRID.distance(h, TARGET) == 2)
    state = position({"12e-hussards": start, "garde-consulaire": start2, "ir18-i": TARGET, "ir18-ii": TARGET},
                     leaders={"lannes": start}, orders={"L": "attack"})
    t = at_step(state, "L", "movement")
    t.rule(readings or {})
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


def test_a_failed_ne_test_is_an_ad_that_disorders_the_chargers_not_routs_them() -> None:
    t = charged(3)
    assert t.of(ev.AssaultResolved)[-1].result == "Ne" and t.pending().kind == "ne_choice"
    assert statuses(t) == {u: ("map", "good") for u in CHARGERS}, "the charge has not ended while the test is asked"
    t.send("france", {"type": "ne_choice", "test": True}, dice=[6, 6])  # both stacks fail (§13.1.1): Ad
    assert [e.result for e in t.of(ev.AssaultResolved)] == ["Ne", "Ad"]
    assert statuses(t) == {u: ("map", "disordered") for u in CHARGERS}
    assert not [e for e in t.of(ev.StatusChanged) if e.status == "routed"]


def test_a_charger_s_failed_ex_test_after_the_defender_s_choice_disorders_it() -> None:
    t = charged(4)
    assert t.of(ev.AssaultResolved)[-1].result == "Ex" and t.pending().kind == "exchange_loss"  # 18-I and 18-II alike
    assert t.state.units["12e-hussards"].status == "good", "the charge has not ended while the defender chooses"
    t.send("austria", t.pending().options[0], dice=[6, 6])  # the EX tests: the hussards fail (§13.1.1)
    assert statuses(t)["12e-hussards"] == ("map", "disordered")
    assert [(e.unit, e.rule) for e in t.of(ev.StatusChanged) if e.unit == "12e-hussards"] == [
        ("12e-hussards", "arrivano §12.5.4")], "the failed test disorders it; §14.2.2 then finds it out of good order"


def dr_answered(t: Table) -> Table:
    """The Dr of die 6: each battalion's retreat answered (the first line listed), then their tests."""
    while (p := t.pending()) is not None and p.kind == "retreat":
        t.send("austria", p.options[0], dice=[1, 1])
    return t


def test_a_charger_advances_into_the_hex_it_emptied_then_is_disordered() -> None:
    """The charge ends after the advance (§12.7, reading `charge_disorder` after_advance): the chargers, still in
    good order, may advance ("entrano nell'esagono", §14.2); the one that does and the other are then disordered."""
    t = dr_answered(charged(6))
    assert t.pending().kind == "advance" and statuses(t) == {u: ("map", "good") for u in CHARGERS}
    assert {"type": "advance", "units": ["12e-hussards"], "to": TARGET} in t.pending().options
    t.send("france", {"type": "advance", "units": ["12e-hussards"], "to": TARGET})
    assert (t.state.units["12e-hussards"].hex, statuses(t)) == (TARGET, {u: ("map", "disordered") for u in CHARGERS})
    assert [(e.unit, e.rule) for e in t.of(ev.StatusChanged) if e.unit in CHARGERS] == [
        (u, "arrivano §14.2.2") for u in CHARGERS]
    assert t.pending() is None


def test_before_advance_the_chargers_are_disordered_and_may_not_advance() -> None:
    """The umpire's reading `before_advance`: the charge ends with its result, its tests made; disordered, the
    chargers may not advance (§12.7.1), and nobody else attacked: no advance is asked."""
    t = dr_answered(charged(6, {"charge_disorder": "before_advance"}))
    assert statuses(t) == {u: ("map", "disordered") for u in CHARGERS}
    assert t.pending() is None and (t.state.units[CHARGERS[0]].hex, t.state.units[CHARGERS[1]].hex) == (X, OTHER)
    assert [(e.unit, e.rule) for e in t.of(ev.StatusChanged) if e.unit in CHARGERS] == [
        (u, "arrivano §14.2.2") for u in CHARGERS]  # once each, though the assault's END reads them again


def test_the_ne_test_under_before_advance_still_comes_first() -> None:
    """Under either reading the failed Ne test is the chargers' disorder, not a second level (§12.5.4, §15.1.1)."""
    t = charged(3, {"charge_disorder": "before_advance"})
    t.send("france", {"type": "ne_choice", "test": True}, dice=[6, 6])
    assert statuses(t) == {u: ("map", "disordered") for u in CHARGERS}


def test_a_counter_charger_is_disordered_at_its_counter_charge_s_end() -> None:
    """§14.2.4: the counter-charger "può a sua volta caricare il nemico", a Charge marker on it: its charge too ends in
    disorder (§14.2.2). Montebello as tests/arrivano/test_rev_o_countercharge_ne.py: the hussards charge Bussy, who
    counter-charges; fought at the combat's start, the die's 5 reads Ne (no test: Bussy attacks under Defence)."""
    state = position({"bussy": "0802", "12e-hussards": "1301", "ir40-i": "1208", "28e-i": "0804"},
                     leaders={"lannes": "1302", "ott": "0806"}, orders={"L": "attack", "R": "attack"})
    t = at_step(state, "L", "movement")
    t.send("france", {"type": "move", "unit": "12e-hussards", "to": "0902", "column": False, "charge": "0802"})
    t.send("austria", {"type": "countercharge", "unit": "bussy"})
    made = t.send("france", {"type": "end_step"}, [5])
    assert [e.result for e in made if type(e).__name__ == "AssaultResolved"] == ["Ne"]
    assert [(e.unit, e.status, e.rule) for e in t.of(ev.StatusChanged)] == [("bussy", "disordered", "arrivano §14.2.2")]


def test_the_charge_s_end_takes_its_markers_off() -> None:
    """§14.2.2 "alla fine della Carica": at the assault's END each charger's Charge marker is taken off (the kernel's
    ChargeEnded, before its disorder, as caldiero §20.2.3's), not at the activation's end: the unit's `charge` forgets
    it while the activation goes on."""
    t = dr_answered(charged(6))
    t.send("france", {"type": "decline"})  # no advance: the assault's END
    assert [(type(e).__name__, e.unit) for e in t.events if isinstance(e, (ev.ChargeEnded, ev.StatusChanged))
            and e.unit in CHARGERS] == [(kind, u) for u in CHARGERS for kind in ("ChargeEnded", "StatusChanged")]
    assert t.state.activation is not None
    assert not any(t.state.units[u].charging for u in CHARGERS)


def test_under_before_advance_the_markers_go_once() -> None:
    """The reading `before_advance` ends the charge with its result: one ChargeEnded a charger, none again at END."""
    t = dr_answered(charged(6, {"charge_disorder": "before_advance"}))
    assert sorted(e.unit for e in t.of(ev.ChargeEnded)) == sorted(CHARGERS) and not any(t.state.units[u].charging for u in CHARGERS)
