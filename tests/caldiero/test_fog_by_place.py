"""Caldiero's fog of war (caldiero §20.4) hides by place, as Arrivano's does (ParaBellumRuleset.hidden_pieces,
`redact`), proved by non-interference: two games that differ only in where an enemy commander is set up out of
France's sight, where a unit France has examined is set up out of its sight, or what a stack of units Austria has
examined holds out of its sight, serve the other seat the same events (and the same view, but for the stack marker
a unit's stack shows where it stands). Found by review rev-a: the fog hid only what named a unit never examined."""

from __future__ import annotations

import json

from arbitro.adjudicator import registry
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from tests.caldiero.test_fog_served import OOC, OTHER, FOG, FOLD, RULESET, activate, position, served

CALDIERO = registry.get("caldiero")


def france_served_after(place: dict[str, str]) -> tuple[str, str]:
    """France's served items' events (not their hashes: a different command has a different hash) and view after Austria's
    set-up `place` under fog of war."""
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("caldiero", "historical", FOG, game_id="g", seed="00" * 32, salt_key="00" * 32)
    assert CALDIERO.unexaminable(app.state_at(game).rules, "france", [place["hex"]]) == {place["hex"]}
    app.submit(game, "austria", {"type": "place", **place})
    events = [item["events"] for item in app.log(game, "france")]
    return json.dumps(events, sort_keys=True), json.dumps(app.view(game, "france"), sort_keys=True)


def test_where_a_commander_is_set_up_out_of_sight_changes_nothing_served() -> None:
    a = france_served_after({"piece": "hohenzollern", "hex": "2218"})
    b = france_served_after({"piece": "hohenzollern", "hex": "2419"})
    assert a[1] == b[1], "the view"
    assert a[0] == b[0], "France is served where Hohenzollern is set up, out of its sight"


def test_where_an_examined_unit_is_set_up_out_of_sight_changes_nothing_served() -> None:
    """The view shows a stack marker where the unit stands (the counter is on the map; examining it is what the fog
    forbids), nothing else of it; the events tell nothing of where it went."""
    a = france_served_after({"piece": "au-hungarian", "hex": "1713"})
    b = france_served_after({"piece": "au-hungarian", "hex": "1714"})
    views = [json.loads(x[1]) for x in (a, b)]
    assert [v["state"]["hidden_stacks"].get(h) for v, h in zip(views, ("1713", "1714"))] == ["austria", "austria"]
    for v in views:
        v["state"].pop("hidden_stacks")
    assert views[0] == views[1], "the view, but for the stack marker"
    assert "au-hungarian" not in views[0]["state"]["units"]
    assert a[0] == b[0], "France is served where au-hungarian (examined at creation) is set up, out of its sight"


def austria_served_known(stacks: dict[str, str]) -> bytes:
    """As test_fog_served.austria_served, the two French units once examined by Austria (known by name)."""
    state = position({"fr-18-ligne": "1417", **stacks, "au-colloredo": "1917"}, leaders={"massena": "1317"},
                     orders={"massena": "attack"}, options=FOG)
    state.seen["austria"] = sorted(stacks)
    assert RULESET.unexaminable(state, "austria", [OOC, OTHER]) == {OOC, OTHER}
    t = activate(state, "massena", step="orders")
    before = FOLD.copy(t.game)
    return served(before, t.send("france", {"type": "unit_order", "hex": OOC, "order": "manoeuvre"}, dice=[6], pad=0))[0]


def test_what_a_stack_of_examined_units_out_of_sight_holds_changes_nothing_served() -> None:
    infantry = austria_served_known({"fr-40-ligne": OOC, "fr-9-dragons": OTHER})
    cavalry = austria_served_known({"fr-9-dragons": OOC, "fr-40-ligne": OTHER})
    assert infantry == cavalry, "Austria can tell what a stack out of its sight holds, once it examined its units"
