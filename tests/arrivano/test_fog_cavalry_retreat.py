"""Under Arrivano's fog of war (arrivano §11.3.2, always in force) whether defending cavalry is asked to retreat before
combat (§14.1) may not hang on what the attacker may not examine (the kernel's retreat_ground.before_combat_asked,
as Caldiero's tests/caldiero/test_fog_cavalry_retreat.py under its §20.4).

Since the eleventh session both games read "possono ritirarsi di un esagono" as one hex where the cavalry may lawfully
stand (interpretation retreat_before_combat_length, one_hex). Bussy, attacked in the village 2011 by infantry from
1911, has French units on its flanks (1910, 2012) and two Austrian infantry in each of 2010 and 2111; 2110, behind it,
is out of France's sight from every French piece. Two games differ only in which of two Austrian units stands in 2110
and which far off at 3914, both unseen: infantry (ir18-i, so no hex may hold the cavalry, §7.1) or cavalry of its
formation (nauendorff-i, so 2110 may). France sends the same assault and must be served the same bytes: its log item,
its view and what status tells it."""

from __future__ import annotations

from arbitro.events import core
from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, Table, at_step, position

DEFENDER, ATTACKER, FLANKS, BEHIND, AWAY = "2011", "1911", ("1910", "2012"), "2110", "3914"
INFANTRY, CAVALRY = "ir18-i", "nauendorff-i"
FULL = {"ir28-i": "2010", "ir28-ii": "2010", "ir17-i": "2111", "ir17-ii": "2111"}
ASSAULT = {"type": "assault", "attackers": ["6e-legere-i"], "targets": [DEFENDER]}


def table(behind: str, away: str) -> Table:
    units = {"bussy": DEFENDER, behind: BEHIND, away: AWAY, **FULL,
             "6e-legere-i": ATTACKER, "22e-i": FLANKS[0], "22e-ii": FLANKS[1]}
    state = position(units, leaders={"watrin": ATTACKER}, orders={"W": "attack"})
    assert RULESET.unexaminable(state, "france", [BEHIND, AWAY]) == {BEHIND, AWAY}, "both out of France's sight"
    return Table(at_step(state, "W", "combat").state)


def attacked(behind: str, away: str) -> tuple[bytes, bytes, Table]:
    t = table(behind, away)
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", ASSAULT))]
    return (served(RULESET, FOLD, before, made, "france"), served(RULESET, FOLD, before, made, UMPIRE), t)


def test_whether_cavalry_is_asked_to_retreat_tells_nothing_unseen() -> None:
    infantry, cavalry = attacked(INFANTRY, CAVALRY), attacked(CAVALRY, INFANTRY)
    assert infantry[1] != cavalry[1], "the umpire sees the hidden fact"
    assert infantry[0] == cavalry[0], "France learns what an unseen Austrian stack behind the cavalry holds"


def test_asked_either_way_the_lawful_hex_its_answer_or_staying_alone() -> None:
    """§14.1 reading one_hex: with infantry behind no hex may hold Bussy and it may only stay; with cavalry of its
    formation behind it may go there (§7.1: two cavalry of one formation)."""
    stay = {"type": "cavalry_retreat", "to": None, "units": None, "off_map": False}
    for behind, away, options in ((INFANTRY, CAVALRY, [stay]),
                                  (CAVALRY, INFANTRY, [{"type": "cavalry_retreat", "to": BEHIND, "units": ["bussy"],
                                                        "off_map": False}, stay])):
        t = attacked(behind, away)[2]
        opened = [e for e in t.events if isinstance(e, core.DecisionOpened)]
        assert opened and opened[-1].frame.kind == "cavalry_retreat"
        assert t.pending().options == options
