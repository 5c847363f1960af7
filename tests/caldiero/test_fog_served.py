"""Fog of war as served (caldiero §20.4, arbitro §V.4), proved by non-interference: two games that differ only in
what stands in a stack out of Austria's sight serve Austria the very same bytes when that stack tests to leave
its out-of-command Defence ("out of command at 2518 ... cavalry=4" named the stack's arm and efficiency), and
when a unit it has examined walks one route or another out of its sight."""

from __future__ import annotations

from typing import Any

from arbitro.events.codec import canonical
from arbitro.projections.game import GameState
from arbitro.projections.views import redact_event, seat_view
from arbitro.adjudicator.caldiero import FOG_HIDDEN
from tests.caldiero.harness import FOLD, RULESET, Table, activate, position

FOG = ("fog_of_war",)
FOG_HIDDEN_BYTES = canonical(FOG_HIDDEN)
OOC, OTHER = "2518", "2617"  # both far from Massena (out of command) and from Austria's sight


def austria_served(stacks: dict[str, str]) -> tuple[bytes, bytes]:
    """Austria's bytes and the umpire's when the stack at OOC tries to take a Manoeuvre order (a 6: it fails)."""
    state = position({"fr-18-ligne": "1417", **stacks, "au-colloredo": "1917"}, leaders={"massena": "1317"},
                     orders={"massena": "attack"}, options=FOG)
    assert RULESET.unexaminable(state, "austria", [OOC, OTHER]) == {OOC, OTHER}
    t = activate(state, "massena", step="orders")
    assert set(t.state.activation.out_of_command) == set(stacks)
    before = FOLD.copy(t.game)
    return served(before, t.send("france", {"type": "unit_order", "hex": OOC, "order": "manoeuvre"}, dice=[6], pad=0))


def served(before: GameState[Any], events: list[Any]) -> tuple[bytes, bytes]:
    """Austria's bytes and the umpire's: the events as each is served them (each with the state right after it),
    then its view."""
    out: dict[str, list[Any]] = {"austria": [], "umpire": []}
    game = FOLD.copy(before)
    for event in events:
        game = FOLD.apply_event(game, game.core.seq + 1, event)
        for seat in out:
            out[seat].append(redact_event(RULESET, event, seat, game))
    return tuple(canonical([*out[s], seat_view(RULESET, game, s)]) for s in ("austria", "umpire"))  # type: ignore[return-value]


def test_what_a_hidden_stack_holds_changes_nothing_served() -> None:
    infantry = austria_served({"fr-40-ligne": OOC, "fr-9-dragons": OTHER})
    cavalry = austria_served({"fr-9-dragons": OOC, "fr-40-ligne": OTHER})
    assert infantry[1] != cavalry[1], "the umpire's log names the arm and efficiency tested"
    assert infantry[0] == cavalry[0], "Austria can tell what the stack out of its sight holds"


def route_served(via: str) -> tuple[bytes, bytes]:
    """Austria's bytes and the umpire's when fr-40-ligne, a unit Austria has examined before, walks 2518 -> `via` ->
    2718, every hex of it out of Austria's sight."""
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": "2518", "au-colloredo": "1917"}, leaders={"massena": "2418"},
                     orders={"massena": "manoeuvre"}, options=FOG)
    state.seen["austria"] = ["fr-40-ligne"]  # known by name: not a secret, so only its route can be hidden
    route = {"2518", via, "2718"}
    assert RULESET.unexaminable(state, "austria", route) == route
    t = activate(state, "massena")
    before = FOLD.copy(t.game)
    return served(before, t.send("france", {"type": "move", "units": ["fr-40-ligne"], "to": "2718", "path": [via, "2718"]}))


def test_the_route_of_a_known_unit_out_of_sight_changes_nothing_served() -> None:
    """Two games that differ only in the path an examined unit takes out of Austria's sight (by 2618 or by 2619):
    Austria is served the same bytes, the move as a hidden event (projections/parabellum.served_route)."""
    north, south = route_served("2618"), route_served("2619")
    assert north[1] != south[1], "the umpire's log holds the path"
    assert north[0] == south[0], "Austria is served the route of a unit out of its sight"
    assert b"fr-40-ligne" not in north[0] and FOG_HIDDEN_BYTES in north[0]


def lone_commander_served(at: str) -> bytes:
    """France's view when Provera stands alone at `at`, out of France's sight."""
    state = position({"fr-18-ligne": "1417", "au-colloredo": "1617"}, leaders={"provera": at, "massena": "1317"},
                     options=FOG)
    assert RULESET.unexaminable(state, "france", [at]) == {at}
    return canonical(RULESET.view(state, "france"))


def test_where_a_lone_commander_out_of_sight_stands_changes_nothing_served() -> None:
    """Where a commander alone stands out of sight is not served (caldiero §20.4, "si può esaminare uno stack nemico
    solo se si ha una LoS"; the kernel's one view, ParaBellumRuleset.view), not even as a stack marker: a reading
    (docs/rulesets/parabellum.md), a marker being served where units stand. Caldiero's view
    judged only the hexes holding enemy units, and served a lone commander's hex wherever he stood."""
    assert lone_commander_served(OOC) == lone_commander_served(OTHER)
    seen = position({"fr-18-ligne": "1417", "au-colloredo": "1617"}, leaders={"provera": "1517"}, options=FOG)
    assert RULESET.view(seen, "france")["leaders"]["provera"]["hex"] == "1517", "one in sight is served"


def reorganisation_served(stacks: dict[str, str]) -> tuple[bytes, bytes]:
    """Austria's bytes and the umpire's when the disordered French stack at OOC, out of Austria's sight, tries to
    reorganise (caldiero §15.3: one die for the stack, §13.1.2; a 2 passes)."""
    state = position({"fr-18-ligne": "1417", **stacks, "au-colloredo": "1917"}, leaders={"massena": "1317"},
                     orders={"massena": "defence"}, options=FOG)
    for u in stacks:
        state.units[u].status = "disordered"
    state.phase, state.step, state.seat = "command", "reorganise", "france"
    assert RULESET.unexaminable(state, "austria", [OOC, OTHER]) == {OOC, OTHER}
    t = Table(state)
    before = FOLD.copy(t.game)
    return served(before, t.send("france", {"type": "reorganise", "hex": OOC}, dice=[2], pad=0))


def test_a_hidden_stack_s_efficiency_die_tells_nothing_of_what_it_holds() -> None:
    """The kernel's one wording of a stack's efficiency die (act.stack_roll: the table, the hex, the units' values,
    the modifier and its rule) is served to a seat that may not examine the stack without its words (arbitro §V.4):
    two games that differ only in which unit stands in the reorganising stack serve Austria the very same bytes."""
    infantry = reorganisation_served({"fr-40-ligne": OOC, "fr-9-dragons": OTHER})
    cavalry = reorganisation_served({"fr-9-dragons": OOC, "fr-40-ligne": OTHER})
    assert b'"table":"efficiency"' in infantry[1] and b"efficiency test: caldiero" in infantry[1]
    assert infantry[1] != cavalry[1], "the umpire's log holds what reorganised"
    assert infantry[0] == cavalry[0], "Austria can tell what the stack out of its sight holds"
    assert b'"table":"efficiency"' not in infantry[0]
