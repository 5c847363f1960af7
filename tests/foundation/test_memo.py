"""The one kind of cache arbitro keeps across positions and games (adjudicator/memo.py): an answer is kept for the
very data objects it was worked out from, never handed to an equal or later object that merely has a kept one's id;
a memo holds at most its size, letting go of the least recently used (not everything at once when full), so a
long-running server does not pin every table or data folder it ever read (rev-kernel-a 3, rev-fidelity 5)."""

from __future__ import annotations

import gc
import threading
import weakref

from arbitro.adjudicator.memo import Memo


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


def test_a_memo_keyed_by_content_lets_go_of_the_least_recently_used_one_at_a_time() -> None:
    """Keys that are content (a data folder's digest, a hex and the lines' data tag) need no anchors. A full memo
    forgets only its least recently used answer: the answers in use stay (a cache cleared when full worked out every
    line of sight again each time it filled)."""
    memo, calls = Memo(3), []

    def ask(key: str) -> str:
        return memo.get((), key, lambda: calls.append(key) or key.upper())

    assert [ask(k) for k in ("a", "b", "c", "a", "d")] == ["A", "B", "C", "A", "D"]
    assert calls == ["a", "b", "c", "d"] and len(memo) == 3  # "a" answered from the memo
    assert [ask(k) for k in ("a", "c", "d")] == ["A", "C", "D"] and calls == ["a", "b", "c", "d"]  # kept: used last
    assert ask("b") == "B" and calls[-1] == "b"  # "b", used least recently, was let go when "d" came


def test_a_memo_answers_threads_at_once_and_stays_within_its_size() -> None:
    """The server judges and lists from several threads, all asking the same memos."""
    memo = Memo(50)
    problems: list[str] = []

    def worker(offset: int) -> None:
        for i in range(2_000):
            key = (offset + i) % 120
            if memo.get((), key, lambda key=key: key * 2) != key * 2:
                problems.append(f"{key}")

    threads = [threading.Thread(target=worker, args=(n * 7,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert problems == [] and len(memo) == 50


def test_kept_answers_add_nothing_the_collector_walks_but_themselves() -> None:
    """Issue 15: every full collection walks every tracked object alive. An entry whose key is strings and numbers and
    whose answer is too (or is untracked) must leave nothing tracked behind: the anchors are held once for all the
    entries worked out from them, not in a tuple per entry (1,024 kept searches held ~2,000 such tuples)."""
    memo, data = Memo(500), Data()
    gc.collect()
    gc.collect()
    before = len(gc.get_objects())
    for n in range(400):
        memo.get((data,), ("search", str(n), n), lambda n=n: f"answer {n}")
    gc.collect()
    gc.collect()  # a tuple is untracked once the tuples it holds are: a nested key takes a second collection
    assert len(memo) == 400 and len(gc.get_objects()) - before < 20


def test_anchors_are_held_while_any_answer_worked_out_from_them_is_kept() -> None:
    memo = Memo(2)
    a, b = Data(), Data()
    seen = weakref.ref(a)
    memo.get((a,), "one", object)
    memo.get((a,), "two", object)
    memo.get((b,), "one", object)  # "one" of a let go, "two" still holds a
    del a
    gc.collect()
    assert seen() is not None
    memo.get((b,), "two", object)  # a's last answer let go
    gc.collect()
    assert seen() is None and len(memo) == 2


def test_a_table_is_one_answer_its_callers_fill() -> None:
    """`Memo.table`: the one answer callers change, only by adding final entries (the nearest enemy's distances, the
    step costs of a map and table): the next caller with the same objects and key finds what the first added; other
    objects, however equal, another table; it is let go with its anchors like any answer."""
    memo = Memo(2)
    a, b = Data(), Data()
    first = memo.table((a,), "distances")
    first["0101"] = 3
    assert memo.table((a,), "distances") == {"0101": 3}
    assert memo.table((b,), "distances") == {}
    memo.table((Data(),), "distances")  # a third: the least recently used (a's) is let go
    assert memo.table((a,), "distances") == {}



def test_an_answer_of_none_is_kept_as_any_other() -> None:
    """None is an answer (a search that finds nothing, a rule that does not apply): asked again, it is not worked out
    again (speed11's note: a None answer was stored but never found, so worked out at every call)."""
    memo, calls = Memo(4), []
    data = Data()
    for _ in range(3):
        assert memo.get((data,), "k", lambda: calls.append(1)) is None
    assert calls == [1]
