"""rev-i (review of k-assault4, 38281b6): arrivano §12.5.4 EX "maggiore Forza di combattimento" under the reading
ex_strength_basis: modified (the SP counted in this combat) must judge the DEFENDER's loss on the modified strengths
even when the attacker's own EX loss removes the last attacker.

One French battalion attacks two hexes: nauendorff-i (cavalry, 3 SP, efficiency 4) in woods 1615 (defending cavalry
halved in woods, §10.4: 2) and mariassy-jager (infantry, 2 SP, efficiency 4) in 1515. Printed: nauendorff-i is the
stronger and is lost. Modified: 2 against 2, an exact tie, so Austria chooses (exchange_loss). The exchange computed
once (k-assault4's parabellum/results.exchange_losses) recounts the strengths after the attacker's loss is eliminated;
with no attacker left ArrivanoVariant.ex_strengths falls back to printed SP, and nauendorff-i is taken without asking."""

from __future__ import annotations

import pytest

from tests.arrivano.harness import at_step, ev, position

X, WOODS, CLEAR = "1616", "1615", "1515"


def exchange(reading: str):
    state = position({"6e-legere-i": X, "nauendorff-i": WOODS, "mariassy-jager": CLEAR}, leaders={"watrin": "1617"},
                     orders={"W": "attack"})
    t = at_step(state, "W", "combat")
    t.rule({"ex_strength_basis": reading})
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i"], "targets": [WOODS, CLEAR]}, [6, 1])
    while (p := t.pending()) is not None and p.kind in ("cavalry_retreat", "defensive_fire") \
            and not t.of(ev.AssaultResolved):
        t.send(p.seat, p.options[-1], [6, 1])  # stay, hold fire
    assert t.of(ev.AssaultResolved)[-1].result == "Ex"
    return t


def test_printed_strength_takes_the_stronger_cavalry() -> None:
    t = exchange("printed")
    assert sorted(e.unit for e in t.of(ev.UnitEliminated)) == ["6e-legere-i", "nauendorff-i"]


def test_modified_strength_ties_the_defenders_when_the_lone_attacker_is_lost() -> None:
    t = exchange("modified")
    p = t.pending()
    assert p is not None and p.kind == "exchange_loss", (
        f"Austria must choose between two units tied at 2 modified SP; got {p} and eliminated "
        f"{[e.unit for e in t.of(ev.UnitEliminated)]}")
    assert [o["units"] for o in p.options] == [["mariassy-jager"], ["nauendorff-i"]]
