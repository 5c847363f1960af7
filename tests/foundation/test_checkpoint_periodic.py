"""Which checkpoints a seat is not served: those the count of events made (views.serve_event; rev-o O2), told apart
from a ruleset mark's and the game's end by `Checkpoint.counted()`, which reads the reason the engine wrote
(`periodic_reason`). A typed field was the other way (ctx, nineteenth session), and was not taken: every stored game
and export made so far holds checkpoints without it, which would read as not counted and be served to the seats
again, reopening rev-o O2 for them; so the reason stays the record, read by one helper, and these tests pin that
helper to what the engine writes and to every checkpoint of the shipped logs."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from arbitro.adjudicator import engine
from arbitro.events import core

LOGS = sorted((Path(__file__).resolve().parents[2] / "logs").glob("*.jsonl"))


@pytest.mark.parametrize("every", [1, 3, 200, engine.CHECKPOINT_EVERY, 10_000])
def test_the_reason_the_engine_writes_for_a_window_reads_as_counted(every: int) -> None:
    assert core.Checkpoint(state_hash="0" * 64, reason=core.periodic_reason(every)).counted()


@pytest.mark.parametrize("reason", ["end of game", "after turn_ended", "after every", "every 200", "every x events",
                                    "every 200 events.", " every 200 events", "every -3 events", "every 2 0 events"])
def test_no_other_reason_does(reason: str) -> None:
    assert not core.Checkpoint(state_hash="0" * 64, reason=reason).counted()


def test_every_checkpoint_of_the_shipped_logs_is_read_as_the_engine_made_it() -> None:
    """A checkpoint is counted exactly where the engine made it for the count: no mark ("after ...") and not the
    end, and the window's events since the last checkpoint reached."""
    seen = 0
    for log in LOGS:
        last = 0
        for line in log.read_text(encoding="utf-8").splitlines():
            record = msgspec.json.decode(line)
            if record.get("record") != "event" or record["body"]["event"]["type"] != "checkpoint":
                continue
            seq, checkpoint = record["body"]["seq"], msgspec.convert(record["body"]["event"], core.Checkpoint)
            made_by_count = not checkpoint.reason.startswith("after ") and checkpoint.reason != "end of game"
            assert checkpoint.counted() == made_by_count, (log.name, seq, checkpoint.reason)
            assert not made_by_count or seq - 1 - last >= engine.CHECKPOINT_EVERY, (log.name, seq)
            last, seen = seq, seen + 1
    assert seen > 40 and core.periodic_reason(200) == "every 200 events"  # the shipped logs' words
