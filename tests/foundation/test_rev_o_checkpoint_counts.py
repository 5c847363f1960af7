"""rev-o O2 (seventeenth session): the engine makes a checkpoint at the end of the first command after
CHECKPOINT_EVERY events without one (adjudicator/engine.py `_finish`: `due`, reason "every N events"), and a seat is
served that checkpoint (its state hash withheld) inside the command's item. Where the checkpoint falls is a function
of the log's event count, hidden events included, which engine-rules §V.6 says a seat may not learn ("how many events
a command made ... can be a hidden fact"; guaranteed on the log channel). The shipped fog logs hold such checkpoints
(caldiero-tempo-regge-fog 8, arrivano-montebello 7, arrivano-montebello-options 14): each tells the enemy that the
events since the last checkpoint, its own hidden ones and the stubs `seat_numbers.held` folds into one per kind
included, reached the count at that command.

The toy of tests/foundation/test_event_counts.py (red's ruby falcon makes one more event, hidden from blue) with the
count made small, so that its two commands cross it: the value only sets how often the window closes."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitro.adjudicator import engine
from arbitro.events.codec import canonical
from tests.foundation.test_event_counts import served_to_blue


def test_where_a_periodic_checkpoint_falls_does_not_tell_blue_how_many_hidden_events_red_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "CHECKPOINT_EVERY", 3)
    told, untold = (served_to_blue(tmp_path, card, monkeypatch) for card in ("ruby-falcon", "coral-wolf"))
    assert canonical(told) == canonical(untold), \
        "blue is served the periodic checkpoint in red's attack only when red's hidden card made an event more"
