"""Under Caldiero's fog of war (caldiero §20.4) whether defending cavalry is asked to retreat before combat (§14.1)
may not hang on what the attacker may not examine (rev-trust, review of 1e4dd79).

Since 0.34.0 cavalry is asked only where a hex of its retreat may lawfully hold it (§7.1: never with infantry). So
whether an Austrian infantry unit stood in 1618, a hex behind the defender out of France's sight, decided whether
Austria was asked (a decision opened, Austria's command to come) or the assault went straight on to its resolution.
Two games differ only in which of two Austrian units, each alone and out of France's sight, stands in 1618 and which in
2618: infantry (au-callenberg) or cavalry of the dragoons' formation (au-meszaros-uhlans, which may stack with them).
France sees a stack marker in each hex either way, and must be served the same bytes for its attack (its log item,
its view, what status tells it)."""

from __future__ import annotations

from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.caldiero.harness import FOLD, RULESET
from tests.caldiero.test_combat import ATT, DEF, FLANKS_HELD, table
from tests.caldiero.test_fog_served import FOG

BEHIND, AWAY = "1618", "2618"  # both out of France's sight from 1417
INFANTRY, CAVALRY = "au-callenberg", "au-meszaros-uhlans"
DEFENDERS = {"au-stab-dragoner": DEF, "au-colloredo": "1518", "au-gyulai": "1617", **FLANKS_HELD}
"""Infantry in every hex the cavalry could retreat into but BEHIND: so with infantry in BEHIND no hex is lawful."""
ATTACK = {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": [DEF, *FLANKS_HELD.values()]}


def attacked(behind: str, away: str) -> tuple[bytes, bytes]:
    """France's bytes and the umpire's for France's attack on the cavalry at DEF, `behind` in BEHIND, `away` in AWAY."""
    t = table({"fr-18-ligne": ATT}, {**DEFENDERS, behind: BEHIND, away: AWAY}, options=FOG)
    assert RULESET.unexaminable(t.state, "france", [BEHIND, AWAY]) == {BEHIND, AWAY}
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", ATTACK))]
    return served(RULESET, FOLD, before, made, "france"), served(RULESET, FOLD, before, made, UMPIRE)


def test_whether_cavalry_is_asked_to_retreat_tells_nothing_unseen() -> None:
    infantry, cavalry = attacked(INFANTRY, CAVALRY), attacked(CAVALRY, INFANTRY)
    assert infantry[1] != cavalry[1], "the umpire sees the hidden fact"
    assert infantry[0] == cavalry[0], "France learns what an unseen Austrian stack behind the cavalry holds"


def test_under_the_fog_cavalry_with_no_lawful_hex_is_asked_and_may_only_decline() -> None:
    """caldiero §14.1, §7.1: no hex of its retreat may hold the cavalry (infantry in each, behind it and on its
    flanks in France's ZoC, §12.6.1), yet under the fog it is asked, as wherever a line of retreat starts; its one
    answer is to stay, and the assault goes on."""
    t = table({"fr-18-ligne": ATT}, {**DEFENDERS, INFANTRY: BEHIND, CAVALRY: AWAY}, options=FOG)
    t.send("france", ATTACK)
    assert t.awaited().kind == "cavalry_retreat"
    assert t.legal("austria") == [{"type": "cavalry_retreat", "to": None, "units": None, "off_map": False}]
