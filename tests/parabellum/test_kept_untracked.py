"""What is kept across positions leaves the garbage collector little to walk (issue 15): every full collection walks
every tracked object alive, and the movement searches kept across positions (`parabellum/movement.SEARCHES`, a Memo)
were most of them while a game was served (Arrivano's legal() maximum was such a collection). A kept search's key is
strings, numbers and bools (`Mover.key`, `movement.rule_key`, `search_key`), which the collector stops tracking, and
the memo holds its anchors once, not in a tuple per entry: what stays tracked is each answer (a `Reach` and its
`stops`). Before, each kept search left about seven tracked objects (its Mover and OrderMove, its key tuples and
the memo's entry tuples)."""

from __future__ import annotations

import gc

import pytest

from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum import movement as kernel_movement
from tests.parabellum.test_move_search_parts import movement_positions


def tracked() -> int:
    for _ in range(3):  # a tuple is let go once the tuples it holds are: nested keys take a collection per level
        gc.collect()
    return len(gc.get_objects())


@pytest.mark.parametrize("log", ["arrivano-montebello.jsonl", "caldiero-tempo-regge.jsonl"])
def test_kept_searches_leave_the_collector_their_answers_alone(log: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset, positions = movement_positions(log, 6)
    kept = Memo(1024)
    monkeypatch.setattr(kernel_movement, "SEARCHES", kept)
    ruleset.legal(positions[0], positions[0].seat)  # the ruleset's own tables made once, before counting
    before, searches = tracked(), len(kept)
    for rules in positions[1:]:
        ruleset.legal(rules, rules.seat)
    added = len(kept) - searches
    assert added > 20
    per_search = (tracked() - before) / added  # 9.0-9.6 before (06ee593), 2.7-3.4 now: a Reach, its stops, a table's step costs
    assert per_search < 5, f"{per_search:.1f} tracked objects left per kept search"
