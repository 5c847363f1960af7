"""The one kind of cache arbitro keeps across positions and games: answers worked out from data that never change.

A key says everything an answer depends on. Where that is a game's data (its tables, its map), which are validated
once and never changed but are not hashable by value (pydantic models, maps), the key names them by `id`, and the
entry holds the objects themselves (`anchors`): while the entry lives no other object can take their ids, so a hit
(the caller's objects, alive too, with those ids) is for the very same objects. Where the key is content already (a
digest of data files, a hex and a tag of the data), there are no anchors. Each memo keeps its most recently used
`size` entries, so nothing it holds lives for the whole process however many data folders a server meets, and it
may be asked from several threads (the server judges and lists from several)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")
_NOTHING = object()  # no answer kept (None is an answer)


def _ids(anchors: tuple[object, ...]) -> tuple[int, ...]:
    """The anchors' identities, the key's first half; most keys are content alone (issue 15: ~15 % of a hit)."""
    return tuple(map(id, anchors)) if anchors else ()


class Memo:
    """Answers kept under (the ids of their `anchors`, `key`), the `size` most recently used. `anchors`: the data
    objects the answer is worked out from, held while any answer worked out from them is kept; `key`: everything
    else the answer reads. Answers are shared: callers must not modify them (but a `table`'s, by adding entries).

    The anchors are held once per set of them, not in each entry (issue 15): an entry is its key and its answer
    alone, so an entry whose key is strings and numbers holds nothing the garbage collector must walk but its
    answer. A tuple of two per entry, holding the anchors, kept every entry of the kept searches in every full
    collection's walk, most of the objects Arrivano's legal() maximum walked."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[tuple[int, ...], Hashable], object] = OrderedDict()
        self._anchors: dict[tuple[int, ...], tuple[object, ...]] = {}  # held: their ids stay theirs while used
        self._uses: dict[tuple[int, ...], int] = {}  # how many kept answers each set of anchors is held for
        self._lock = threading.Lock()

    def get(self, anchors: tuple[object, ...], key: Hashable, work: Callable[[], T]) -> T:
        ids = _ids(anchors)
        full = (ids, key)
        with self._lock:
            kept = self._kept.get(full, _NOTHING)  # an answer of None is kept as any other (speed11's note)
            if kept is not _NOTHING:  # the same ids: the same objects, since the caller's and the kept ones are alive
                self._kept.move_to_end(full)
                return kept  # type: ignore[return-value]
        answer = work()
        with self._lock:
            if full not in self._kept:  # another thread may have kept it meanwhile: its anchors are counted
                self._anchors[ids] = anchors
                self._uses[ids] = self._uses.get(ids, 0) + 1
            self._kept[full] = answer
            self._kept.move_to_end(full)
            if len(self._kept) > self.size:
                (gone, _), _ = self._kept.popitem(last=False)
                self._let_go(gone)
        return answer

    def _let_go(self, ids: tuple[int, ...]) -> None:
        """One answer fewer worked out from the anchors of these ids: the last lets go of them (under the lock)."""
        left = self._uses[ids] - 1
        if left:
            self._uses[ids] = left
        else:
            del self._uses[ids], self._anchors[ids]

    def table(self, anchors: tuple[object, ...], key: Hashable) -> dict[Hashable, object]:
        """A table kept as an answer under (`anchors`, `key`), filled by its callers as they ask it: the one answer a
        caller may change, and only by adding entries, each a function of `key` and its own key alone (the same
        whoever works it out, never changed once made), so a table partly filled answers as the whole one would (a
        dict's item set is atomic: two threads filling one entry write the same value)."""
        return self.get(anchors, key, dict)

    def kept(self, anchors: tuple[object, ...], key: Hashable) -> object | None:
        """The answer kept under (`anchors`, `key`), or None: nothing is worked out (a caller needing a part of an
        answer uses the whole one where it is kept, and works out only its part where it is not)."""
        full = (_ids(anchors), key)
        with self._lock:
            kept = self._kept.get(full)
            if kept is None:
                return None
            self._kept.move_to_end(full)
            return kept

    def __len__(self) -> int:
        return len(self._kept)
