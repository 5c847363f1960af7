"""What the Worlds of one position worked out, shared by every World of that position (issue 15).

legal(), decide() (and its "any options left" check after each command) and the fog checks each build their own
World of the state they are handed, and mostly of a position another has just worked on: a command is judged on
the position its seat's legal() listed, and the next legal() asks of the position the last command's check ended
on. A World answers only from its state, its game's data and the readings its state carries, so two Worlds of the
same class and data whose states encode to the same bytes give the same answers: the bytes name the position
exactly (equal bytes, equal content; a different order of the same content only misses). The most recently used
positions are kept. What a World works out is shared, so callers must not modify a cached answer (as before).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import msgspec

_encode = msgspec.msgpack.Encoder().encode


class Positions:
    """The memo of each recent position, by (World class, its data, the state's bytes)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[Any, ...], tuple[tuple[Any, ...], dict[Any, Any]]] = OrderedDict()
        self._lock = threading.Lock()  # the server judges and lists from several threads

    def memo(self, state: Any, kind: type, data: tuple[Any, ...]) -> dict[Any, Any]:
        """The memo of `state`'s position for Worlds of class `kind` over `data` (the objects it answers from)."""
        key = (kind, tuple(id(d) for d in data), _encode(state))
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and all(a is b for a, b in zip(kept[0], data, strict=True)):
                self._kept.move_to_end(key)
                return kept[1]
            memo: dict[Any, Any] = {}
            self._kept[key] = (data, memo)  # holding the data keeps its ids from naming other objects
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)
            return memo


POSITIONS = Positions(32)
