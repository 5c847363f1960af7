"""arrivano §17.2.12 (Campotenese): "Quando viene catturato/ucciso un Maggiore Napoletano il giocatore francese tira
un dado: con un risultato da 4 a 6 ha catturato la bandiera reggimentale e guadagna un ulteriore PV" (the scenario's
`victory.flag_capture`: the Maggiori, die 4+, 1 VP). No test and no shipped log reached it (coverage of tests/
parabellum, caldiero and arrivano, twenty-first session)."""

from __future__ import annotations

import pytest

from tests.arrivano.harness import RULESET, at_step, ev, open_ground, position

S = "campotenese"
X = open_ground(S)
GRID = RULESET.data.scenarios[S].map.grid
D, BACK = GRID.neighbour(X, 1), GRID.neighbour(X, 4)


def lost_at_d(commander: str, flag_die: int):
    """France's 42e-1 assaults D, where `commander` stands with rc-i-fucilieri: a natural 6 (a DR, §12.5.4) tests
    the defending commanders (§4.5.1), a 2 loses him (§4.5.3), then `flag_die` is the flag's die if one is owed."""
    t = at_step(position({"42e-1": X, "rc-i-fucilieri": D}, leaders={"compere": BACK, commander: D}, scenario=S,
                         orders={"C": "attack"}), "C", "combat")
    t.send("france", {"type": "assault", "attackers": ["42e-1"], "targets": [D]}, [6, 2, flag_die])
    assert [e.leader for e in t.of(ev.LeaderLost)] == [commander]
    return t


@pytest.mark.parametrize("die, captured", [(3, False), (4, True), (6, True)])
def test_a_lost_maggiore_gives_france_a_flag_on_four_to_six(die: int, captured: bool) -> None:
    t = lost_at_d("maggiore-t", die)
    assert t.rolls[-1].purpose == "arrivano §17.2.12 flag of a lost Maggiore"
    flags = t.of(ev.FlagCaptured)
    assert [(e.leader, e.rule) for e in flags] == ([("maggiore-t", "arrivano §17.2.12")] if captured else [])
    assert t.state.flags_captured == int(captured)


def test_another_commander_lost_rolls_for_no_flag() -> None:
    t = lost_at_d("tschudy", 6)
    assert not any("flag" in r.purpose for r in t.rolls) and not t.of(ev.FlagCaptured)
    assert t.state.flags_captured == 0
