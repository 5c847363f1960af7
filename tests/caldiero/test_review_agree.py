"""rev-agree: a Caldiero attack decide accepts that no listed attack (nor its template) reaches (issue 19 item 7)."""

from __future__ import annotations

from tests.caldiero.harness import activate, fresh, position

PAIR = ["fr-1-cavalry", "fr-9-dragons"]  # in 1418 and 1417, both Attack orders, both next to 1517


def _table():
    aus = [u for u, x in fresh().units.items() if x.side == "austria" and x.arm == "infantry"][:10]
    state = position({"fr-9-dragons": "1417", "fr-1-cavalry": "1418", "fr-18-legere": "1516", **{a: "1517" for a in aus}},
                     leaders={"massena": "1317"}, orders={"massena": "attack"})
    for u in ("fr-9-dragons", "fr-1-cavalry", "fr-18-legere"):
        state.units[u].reduced = True
    t = activate(state, "massena", step="combat", interpretations={"forced_attack_below_1_5": "auto_ae"})
    t.state.activation.unit_orders["fr-18-legere"] = "advance"  # the one unit that makes the whole group refused
    return t


def test_an_accepted_attack_below_1_5_by_attack_order_units_of_two_hexes_is_reachable():
    """Under forced_attack_below_1_5=auto_ae (caldiero §12.4.2, D24) an attack worse than 1-5 is declarable only
    when every attacker has an Attack order: the whole joining group (with the Advance-order 18e légère) is refused,
    so legal() drops the template, yet the two Attack-order units of two hexes together are accepted. Nothing listed
    reaches them (neither a unit alone, a stack nor a template holding both)."""
    listed = [c for c in _table().legal("france") if c["type"] == "attack" and c["elan"] is None]
    cmd = {"type": "attack", "attackers": PAIR, "defenders": ["1517"]}
    t = _table()
    t.send("france", cmd, dice=[1] * 6)  # accepted: an automatic Ae
    assert any(c["defenders"] == ["1517"] and set(PAIR) <= set(c["attackers"]) for c in listed), listed
