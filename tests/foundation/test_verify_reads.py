"""Verification decodes a log once for its chain and once more to re-adjudicate it, and folds each event once
(issue 15; adjudicator/verify_reads.py): the chain check keeps what the seed and dice checks need (`Scan`), the
command and salt checks read each event's stamp again (`Stamps`, not a decoded event), and re-adjudication goes on
from the state the engine left after each command."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator import verify as verification
from arbitro.adjudicator import verify_reads
from arbitro.adjudicator.exchange import read_lines
from arbitro.events.codec import canonical, sha256_hex
from arbitro.events.records import StoredEvent
from arbitro.projections.fold import Fold

LOG = Path(__file__).resolve().parents[2] / "logs" / "marengo-full.jsonl"


def counted(monkeypatch: pytest.MonkeyPatch, *names: str) -> dict[str, int]:
    counts = dict.fromkeys(names, 0)
    for name in names:
        original = getattr(Fold, name)

        def wrapper(self: Fold, *args: Any, _original: Any = original, _name: str = name, **kwargs: Any) -> Any:
            counts[_name] += 1
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(Fold, name, wrapper)
    return counts


def test_each_event_is_decoded_twice_and_folded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = read_lines(LOG.read_text(encoding="utf-8").splitlines(), str(LOG))
    events = len(loaded.events)
    counts = counted(monkeypatch, "decode", "decode_checked", "apply_event")
    report = verification.verify(loaded)
    assert report.passed, report.checks
    names = [c.name for c in report.checks]
    assert {"hash chain", "command log", "salts", "dice protection", "re-adjudication"} <= set(names)
    assert counts["decode"] == events, "the chain check reads every event, once"
    # The opening's events are read and folded once more: the genesis is folded before the opening is judged.
    assert counts["decode_checked"] <= events + 2, "the checks decode whole events again, not their stamps"
    assert counts["apply_event"] <= events + 5, "re-adjudication folds the stored events again"


def forged_last(field: str, value: Any) -> Any:
    """The log with its last event's `field` set to `value`, re-hashed and made the head, as a forger would: the
    chain holds, so only the check that reads that field can tell."""
    loaded = read_lines(LOG.read_text(encoding="utf-8").splitlines(), str(LOG))
    last = loaded.events[-1]
    body = json.loads(last.body)
    body[field] = value
    data = canonical(body)
    loaded.events[-1] = StoredEvent(last.seq, data, sha256_hex(data))
    loaded.game = msgspec.structs.replace(loaded.game, head_hash=sha256_hex(data))
    return loaded


def check(report: verification.Report, name: str) -> verification.Check:
    return next(c for c in report.checks if c.name == name)


def test_the_stamps_read_again_are_what_the_salt_and_command_checks_judge() -> None:
    """A salt not derived from the seed, and an event naming another command's hash, are caught from each event's
    stamp read again after the chain check (arbitro §V.3, §L.1)."""
    intact = verification.verify(read_lines(LOG.read_text(encoding="utf-8").splitlines(), str(LOG)))
    assert check(intact, "salts").status == "passed" and check(intact, "command log").status == "passed"
    head = int(intact.checks[0].detail.split()[0])  # "N events, head ..."
    salted = verification.verify(forged_last("salt", "0" * 32))
    assert check(salted, "hash chain").status == "passed" and not salted.passed
    assert check(salted, "salts").status == "failed"
    assert check(salted, "salts").detail == f"event #{head} has a salt not derived from the seed"
    foreign = verification.verify(forged_last("cmd_hash", "f" * 64))
    assert check(foreign, "command log").status == "failed" and not foreign.passed
    assert check(foreign, "command log").detail.startswith(f"event #{head} names command ")


def test_full_collections_wait_while_a_log_is_verified_and_the_threshold_comes_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Full collections walk the ruleset's data again and again; while a log is verified they wait (issue 15), and
    the collector's thresholds are as they were once it is done, even when verifications nest or a check fails."""
    loaded = read_lines(LOG.read_text(encoding="utf-8").splitlines(), str(LOG))
    during: list[tuple[int, int, int]] = []
    real = verification._verify

    def watched(*args: Any, **kwargs: Any) -> Any:
        during.append(gc.get_threshold())
        with verify_reads.fewer_full_collections():  # nested: one pause, not undone by the inner end
            during.append(gc.get_threshold())
        during.append(gc.get_threshold())
        return real(*args, **kwargs)

    monkeypatch.setattr(verification, "_verify", watched)
    before = gc.get_threshold()
    try:
        gc.set_threshold(500, 7, 9)
        assert verification.verify(loaded).passed
        assert during == [(10_000, 7, 1_000)] * 3 and gc.get_threshold() == (500, 7, 9)
        monkeypatch.setattr(verification, "begun", lambda *a, **k: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            verification.verify(loaded)
        assert gc.get_threshold() == (500, 7, 9)
    finally:
        gc.set_threshold(*before)


def test_a_threshold_set_by_someone_else_during_a_verification_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pause restores the full threshold it found only if it is still the one the pause set: a threshold the
    program set meanwhile is not overwritten (rev-verify 4)."""
    before = gc.get_threshold()
    try:
        gc.set_threshold(500, 7, 9)
        with verify_reads.fewer_full_collections():
            assert gc.get_threshold() == (10_000, 7, 1_000)
            gc.set_threshold(10_000, 7, 42)
        assert gc.get_threshold() == (500, 7, 42)
        gc.set_threshold(500, 7, 9)
        with verify_reads.fewer_full_collections():
            gc.set_threshold(600, 8, 1_000)  # the pause's own full threshold: the pause still ends it
        assert gc.get_threshold() == (600, 8, 9)
        gc.set_threshold(20_000, 7, 9)  # a young threshold above the pause's: kept as it is
        with verify_reads.fewer_full_collections():
            assert gc.get_threshold() == (20_000, 7, 1_000)
        assert gc.get_threshold() == (20_000, 7, 9)
        gc.set_threshold(0, 7, 9)  # automatic collection switched off: a verification leaves it off
        with verify_reads.fewer_full_collections():
            assert gc.get_threshold() == (0, 7, 1_000)
        assert gc.get_threshold() == (0, 7, 9)
    finally:
        gc.set_threshold(*before)


def test_a_reader_without_its_read_cannot_be_made() -> None:
    """rev-speed2 7: a sequence read when asked that does not say how to read fails when made, not at its first read."""
    class Undecoded(verify_reads.Decoded[int]):
        pass

    class Unsliced(verify_reads.ReadWhenAsked[int]):
        def __len__(self) -> int:
            return 0

        def item(self, index: int) -> int:
            return index

    with pytest.raises(TypeError, match="decode"):
        Undecoded([])
    with pytest.raises(TypeError, match="items"):
        Unsliced()
