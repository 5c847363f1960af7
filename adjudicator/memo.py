"""What the kernel and its games keep across positions, keyed by the identity of the data it was worked out from.

A game's data (its tables, its map) is validated once and never changed, so an answer worked out from one data
object holds as long as that object: a movement search, a CRT in the table kit's shape, a map's road steps. Data
objects are not hashable by value (pydantic models, maps), so the key names them by `id`, and the entry holds the
objects themselves: while the entry lives no other object can take their ids, and a hit checks they are the same
objects. Each memo keeps its most recently used `size` entries, so nothing it holds lives for the whole process."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")


class Memo:
    """Answers kept under (the ids of their `anchors`, `key`), the `size` most recently used. `anchors`: the data
    objects the answer is worked out from, held with it; `key`: everything else the answer reads. Answers are
    shared: callers must not modify them."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, tuple[tuple[object, ...], object]] = OrderedDict()
        self._lock = threading.Lock()  # the server judges and lists from several threads

    def get(self, anchors: tuple[object, ...], key: Hashable, work: Callable[[], T]) -> T:
        full = (tuple(id(a) for a in anchors), key)
        with self._lock:
            kept = self._kept.get(full)
            if kept is not None and all(a is b for a, b in zip(kept[0], anchors, strict=True)):
                self._kept.move_to_end(full)
                return kept[1]  # type: ignore[return-value]
        answer = work()
        with self._lock:
            self._kept[full] = (anchors, answer)
            self._kept.move_to_end(full)
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return answer

    def __len__(self) -> int:
        return len(self._kept)
