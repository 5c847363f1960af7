"""Fog of war as served (caldiero §20.4, arbitro §V.4), proved by non-interference: two games that differ only in
what stands in a stack out of Austria's sight serve Austria the very same bytes when that stack tests to leave
its out-of-command Defence ("out of command at 2518 ... cavalry=4" named the stack's arm and efficiency)."""

from __future__ import annotations

from typing import Any

from arbitro.events.codec import canonical
from arbitro.projections.views import redact_event, seat_view
from tests.caldiero.harness import FOLD, RULESET, activate, position

FOG = ("fog_of_war",)
OOC, OTHER = "2518", "2617"  # both far from Massena (out of command) and from Austria's sight


def austria_served(stacks: dict[str, str]) -> tuple[bytes, bytes]:
    """Austria's bytes and the umpire's when the stack at OOC tries to take a Manoeuvre order (a 6: it fails)."""
    state = position({"fr-18-ligne": "1417", **stacks, "au-colloredo": "1917"}, leaders={"massena": "1317"},
                     orders={"massena": "attack"}, options=FOG)
    assert RULESET.unexaminable(state, "austria", [OOC, OTHER]) == {OOC, OTHER}
    t = activate(state, "massena", step="orders")
    assert set(t.state.activation.out_of_command) == set(stacks)
    before = FOLD.copy(t.game)
    events = t.send("france", {"type": "unit_order", "hex": OOC, "order": "manoeuvre"}, dice=[6], pad=0)
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
