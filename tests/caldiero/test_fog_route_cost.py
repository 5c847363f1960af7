"""rev-trust: a unit seen arriving is not served where it came from (caldiero §20.4), so two games that differ
only in where an examined French unit started, out of Austria's sight, must serve Austria the same bytes when it
walks into Austria's sight at 2318. served_route keeps cost_half, the whole route's cost, unseen hexes included."""

from tests.caldiero.test_fog_served import FOG, FOLD, activate, position, served


def arrival(start: str, path: list[str]) -> bytes:
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": start, "au-colloredo": "1917"}, leaders={"massena": "2418"},
                     orders={"massena": "manoeuvre"}, options=FOG)
    state.seen["austria"] = ["fr-40-ligne"]  # known by name: only where it came from is hidden
    t = activate(state, "massena")
    before = FOLD.copy(t.game)
    return served(before, t.send("france", {"type": "move", "units": ["fr-40-ligne"], "to": path[-1], "path": path}))[0]


def test_where_a_unit_seen_arriving_came_from_changes_nothing_served() -> None:
    two_hexes, one_hex = arrival("2518", ["2418", "2318"]), arrival("2418", ["2318"])
    assert two_hexes == one_hex, "Austria reads how far the unit walked out of its sight (cost_half)"
