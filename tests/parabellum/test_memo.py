"""What the kernel keeps across positions (parabellum/memo.py): an answer is kept for the very data objects it was
worked out from, never handed to an equal or later object that merely has a kept one's id, and a memo holds at
most its size, so a long-running server does not pin every table it ever read (rev-kernel-a 3)."""

from __future__ import annotations

from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import assault
from arbitro.adjudicator.parabellum.memo import Memo
from tests.parabellum.test_data import loaded_tables


class Data:
    """A data object equal by value to every other, as two loads of one file are."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Data)

    __hash__ = None  # type: ignore[assignment]  # like the games' data models: not hashable by value


def test_an_answer_is_kept_for_its_own_objects_only() -> None:
    memo, calls = Memo(4), []

    def work(tag: str) -> object:
        calls.append(tag)
        return object()

    a, b = Data(), Data()
    first = memo.get((a,), "k", lambda: work("a"))
    assert memo.get((a,), "k", lambda: work("again")) is first
    assert memo.get((b,), "k", lambda: work("b")) is not first  # equal data, another object: worked out afresh
    assert memo.get((a,), "other key", lambda: work("a other")) is not first
    assert calls == ["a", "b", "a other"]


def test_a_memo_keeps_only_its_most_recently_used() -> None:
    memo = Memo(2)
    kept = [Data() for _ in range(3)]
    answers = [memo.get((d,), "k", object) for d in kept]
    assert len(memo) == 2
    assert memo.get((kept[2],), "k", object) is answers[2]
    assert memo.get((kept[0],), "k", object) is not answers[0]  # the oldest was let go, its object with it


def test_one_crt_read_by_two_variants_is_named_by_each() -> None:
    """The kit table records its name in every table read (§12.5 in both): one data object read by two variants
    must not give the second the first one's name."""
    table, _ = loaded_tables(CALDIERO_VARIANT)
    assert assault.crt(CALDIERO_VARIANT, table).name == CALDIERO_VARIANT.crt_name
    assert assault.crt(ARRIVANO_VARIANT, table).name == ARRIVANO_VARIANT.crt_name
    assert assault.crt(CALDIERO_VARIANT, table) is assault.crt(CALDIERO_VARIANT, table)
