"""What legal() lists is what decide() accepts (issue 19, "Legal listings"; docs/ruleset-interface.md, "Reachable from
the listing"): attackers as a template whose `units` carry their domain (any non-empty subset of them fights,
caricat §7, §8), and one path per outcome of a move or a charge (the destination and the reaction fire it
provokes, caricat §6.2; a destination only the road bonus reaches, §6.1); another path to a listed destination is
the template's. Bad paths are refused with their citation, never a crash."""

from __future__ import annotations

import pytest

from arbitro.events import caricat as ev
from tests.agreement import documented
from tests.caricat.harness import Table, activated, position

FAR = {"sigismund1": "3305"}


def _fire_at_kinsky() -> Table:
    """Three of Vittorio Emanuele's units around kinsky1 (0802), in his command range."""
    units = {"guardie1": "0701", "guardie2": "0801", "cuneo7": "0901", "kinsky1": "0802", **FAR}
    return Table(activated(position(units=units, levels={"vittorio": "advance"}), "vittorio"))


def test_attackers_are_listed_alone_and_all_together_and_any_subset_of_them_is_accepted():
    t = _fire_at_kinsky()
    assert t.disagreements() == []
    fires = [c for c in t.legal("italian") if c["type"] == "fire"]
    assert {tuple(c["units"]) for c in fires} == {("cuneo7",), ("guardie1",), ("guardie2",),
                                                  ("cuneo7", "guardie1", "guardie2")}
    pair = {"type": "fire", "units": ["guardie2", "cuneo7"], "target": "kinsky1"}
    assert pair not in fires and documented("caricat", pair, fires)  # within the template (caricat §7.1)
    assert not documented("caricat", {**pair, "units": ["guardie2", "kinsky1"]}, fires)
    t.send("italian", pair, dice=[1] * 12)
    assert t.of(ev.CombatDeclared)[0].attackers == ("cuneo7", "guardie2")


def test_a_unit_outside_the_template_is_refused_with_its_citation():
    t = _fire_at_kinsky()
    t.state.units["cuneo7"].fought = True  # it fought earlier in this activation
    assert all("cuneo7" not in c.get("units", ()) for c in t.legal("italian"))
    t.refuse("italian", {"type": "melee", "units": ["guardie1", "cuneo7"], "target": "kinsky1"}, rule="caricat §7")


def test_a_move_is_listed_once_with_the_reaction_fire_it_provokes_and_once_avoiding_it():
    state = position(units={"carabinieri": "0701", "kinsky1": "0802", **FAR})
    t = Table(activated(state, "carabinieri", "cavalry"))
    assert t.disagreements() == []
    to_0702 = [c["path"] for c in t.legal("italian") if c["type"] == "move" and c["path"][-1] == "0702"]
    assert to_0702 == [["0701", "0702"], ["0701", "0602", "0702"]]  # along kinsky1's zone (caricat §6.2), around it
    t.send("italian", {"type": "move", "unit": "carabinieri", "path": to_0702[1]})
    assert t.top() is None and t.state.units["carabinieri"].hex == "0702"
    t2 = Table(activated(position(units={"carabinieri": "0701", "kinsky1": "0802", **FAR}), "carabinieri", "cavalry"))
    t2.send("italian", {"type": "move", "unit": "carabinieri", "path": to_0702[0]})
    assert t2.top().kind == "reaction"


def test_a_destination_only_the_road_bonus_reaches_is_listed():
    """kinsky2 at Advance on the road at 2410: four road hexes with its 4 MP, a fifth with the road bonus (§6.1)."""
    state = position(units={"kinsky2": "2410", "guardie1": "2417"}, levels={"wolgemuth": "advance"}, seat="austrian")
    t = Table(activated(state, "wolgemuth"))
    assert t.disagreements() == []
    road = ["2410", "2411", "2412", "2413", "2414", "2415"]
    assert {"type": "move", "unit": "kinsky2", "path": road} in t.legal("austrian")
    t.send("austrian", {"type": "move", "unit": "kinsky2", "path": road})
    assert t.of(ev.UnitMoved)[0].road_bonus and t.of(ev.UnitMoved)[0].rule == "caricat §6.1"


def test_cavalry_may_be_charged_and_the_charge_is_listed():
    """caricat §9.1 names the charge's "obiettivo", any enemy; only the +3 is against infantry."""
    state = position(units={"carabinieri": "0601", "reuss": "0801", **FAR})
    t = Table(activated(state, "carabinieri", "cavalry"))
    charges = [c for c in t.legal("italian") if c["type"] == "charge"]
    assert charges and {c["target"] for c in charges} == {"reuss"}
    t.send("italian", charges[0], dice=[1] * 12)
    assert t.of(ev.CombatDeclared)[0].charge


@pytest.mark.parametrize("command", [
    {"type": "move", "unit": "piemonte4", "path": ["0711", "0810", "1011"]},
    {"type": "charge", "unit": "carabinieri", "path": ["0601", "0801"], "target": "kinsky1"},
])
def test_a_path_that_skips_a_hex_is_refused_with_its_citation(command):
    """Found by the agreement sweep: a path whose hexes were not adjacent raised an internal error."""
    units = {"piemonte4": "0711", "carabinieri": "0601", "kinsky1": "0901", **FAR}
    state = position(units=units, levels={"federici": "advance"})
    who, kind = ("carabinieri", "cavalry") if command["type"] == "charge" else ("federici", "leader")
    t = Table(activated(state, who, kind))
    assert "not next to" in t.refuse("italian", command, rule="caricat §6").message
