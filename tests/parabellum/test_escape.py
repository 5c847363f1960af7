"""A commander's flight (§8.2.3 in both books; arrivano §4.5.6) is one decision written once in the kernel
(parabellum/escape.py): both games' frames of kind `escape` list, take, refuse and settle it by the kernel's row, and
both games' players answer it with the one command `escape {to}` (Caldiero's answer was a `move_leader` with `path`
null, a second shape of the leaders' step's command)."""

from __future__ import annotations

from arbitro.adjudicator.arrivano import steps as arrivano_steps
from arbitro.adjudicator.caldiero import steps as caldiero_steps
from arbitro.adjudicator.parabellum import escape
from arbitro.adjudicator.parabellum.commands import Escape
from arbitro.adjudicator.parabellum.variant import Variant
from tests.arrivano import harness as arrivano
from tests.caldiero import harness as caldiero

ROWS = {"caldiero": caldiero_steps.ROWS, "arrivano": arrivano_steps.KINDS}


def test_both_games_flight_is_the_kernel_s_row_and_command(variant: Variant) -> None:
    """The row, its refusal and the command are the kernel's in both games; where he is lost with nowhere to go
    (escape.settled) both games' tests show (tests/caldiero/test_sequence.py: test_surrounded_lone_leader_is_captured,
    now settled as Arrivano's was, the frame opened first)."""
    assert ROWS[variant.book][escape.ESCAPE] is escape.ROW
    ruleset = (caldiero if variant.book == "caldiero" else arrivano).RULESET
    assert ruleset.parse_command({"type": "escape", "to": None}) == Escape(type="escape", to=None)

