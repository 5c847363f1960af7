"""caldiero §14.1 under the reading retreat_before_combat_length `one_hex`: the lawful hex of a one-hex retreat before
combat is chosen among hexes where the cavalry may stand (§7.1), so when every hex behind it holds infantry and its
flanks are empty and in the attacker's ZoC, it is asked, with the flanks (§12.6.1 "se ogni altra opzione non è
possibile"). Met in logs/caldiero-tempo-regge.jsonl (commands 591 and 688: au-stab-dragoner in 2017)."""

from __future__ import annotations

from arbitro.events import core
from tests.caldiero.test_combat import ATT, DEF, FLANKS_HELD, attack, table


def test_caldiero_cavalry_with_only_a_lawful_flank_hex_is_asked() -> None:
    t = table({"fr-18-ligne": ATT}, {"au-stab-dragoner": DEF, "au-colloredo": "1518", "au-gyulai": "1617",
                                     "au-callenberg": "1618"})
    attack(t, ["fr-18-ligne"], [DEF], dice=[3])
    assert [e for e in t.of(core.DecisionOpened) if e.frame.kind == "cavalry_retreat"], \
        "cavalry with an empty, lawful hex next to it (in the attacker's ZoC, §12.6.1) is not asked to retreat"
    offered = sorted(o["to"] for o in t.legal("austria") if o["type"] == "cavalry_retreat" and o["to"])
    assert offered == sorted(FLANKS_HELD.values()), "the lawful hexes are the two flanks, the full ones behind never"
