"""rev-k (review of ux15, 662f2e1): §14.1's question is asked "only where something is hidden"
(parabellum/orders.order_hidden_from -> command_hidden_from), and whether it is asked is served to the attacker. The
predicate must be a function of what the attacker may know; command_hidden_from reads the hexes of the formation's
units ON THE MAP (World.formation_units), so a unit waiting at its entry (arrivano §15.4, `where` "waiting", which no
enemy view serves: ArrivanoState.unseen_off_map) counts as seen, while the same unit on the map out of sight counts as
hidden. The attacker cannot tell the two apart, but the question opens in one and not the other: it learns whether the
unit is on the map.

Two games differ only in where the Garde Consulaire (L) is: waiting at its entry hex 1306, or on the map in 1306
(out of Austria's sight, where the French 96e I stands in both, so Austria sees one French marker there either way).
Lannes and the 12e Hussards (L, under Attack) stand in 0802, in Austria's sight; IR 18 I and II attack 0802. On main
the question is asked whatever the order (this test passes); on ux15 it fails."""

from __future__ import annotations

from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, at_step, position

DEFENDER, ATTACKERS, BESIDE = "0802", "0902", "1306"


def assaulted(garde: str) -> bytes:
    state = position({"12e-hussards": DEFENDER, "ir18-i": ATTACKERS, "ir18-ii": ATTACKERS, "96e-i": BESIDE},
                     leaders={"lannes": DEFENDER, "gottesheim": ATTACKERS}, orders={"L": "attack", "G": "attack"},
                     turn=3)
    state.units["garde-consulaire"].where, state.units["garde-consulaire"].hex = garde, BESIDE
    assert RULESET.unexaminable(state, "austria", [BESIDE, DEFENDER]) == {BESIDE}, "Austria's sight"
    t = at_step(state, "G", "combat")
    before = FOLD.copy(t.game)
    made = [("austria", t.send("austria", {"type": "assault", "attackers": ["ir18-i", "ir18-ii"],
                                           "targets": [DEFENDER]}))]
    return served(RULESET, FOLD, before, made, "austria")


def test_whether_an_unseen_unit_waits_at_its_entry_is_not_told_by_the_retreat_question() -> None:
    assert assaulted("waiting") == assaulted("map"), "Austria learns whether the Garde is on the map or at its entry"
