"""What every ruleset's data loader shares: naming where in a JSON file a problem is."""

from __future__ import annotations

from collections.abc import Iterable


def json_path(loc: Iterable[int | str]) -> str:
    """A pydantic error location as a JSON path: ("units", 3, "hex") -> "$.units[3].hex"."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)
