"""What every ruleset's data loader shares: naming where in a JSON file a problem is, the strict pydantic base,
reading a JSON file, and the error that lists every problem found."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr, ValidationError


def json_path(loc: Iterable[int | str]) -> str:
    """A pydantic error location as a JSON path: ("units", 3, "hex") -> "$.units[3].hex"."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a data file: where (a JSON path like ``$.roads[2].hexes[5]``) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class MapDataError(ValueError):
    """A map or movement-table file is invalid. Lists every problem found, each with its JSON path."""

    def __init__(self, source: str, problems: Iterable[Problem]) -> None:
        self.source = source
        self.problems = tuple(problems)
        lines = [f"{source}: {p}" for p in self.problems]
        super().__init__("\n".join(lines) if lines else f"{source}: invalid")


def pydantic_problems(error: ValidationError) -> list[Problem]:
    return [Problem(json_path(e["loc"]), e["msg"].removeprefix("Value error, ")) for e in error.errors()]


def read_json(path: Path, source: str) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MapDataError(source, [Problem("$", f"cannot read file: {exc.strerror}")]) from None
    except json.JSONDecodeError as exc:
        raise MapDataError(source, [Problem("$", f"not valid JSON: {exc.msg} at line {exc.lineno}")]) from None


class StrictModel(BaseModel):
    # Unknown keys are errors (typos); scalars are strict (no "2" for 2, no 1 for true).
    model_config = ConfigDict(extra="forbid", frozen=True)


Int = StrictInt
Bool = StrictBool
Str = StrictStr


def check_unique(values: tuple[str, ...], path: str, problems: list[Problem]) -> None:
    for i, value in enumerate(values):
        if value in values[:i]:
            problems.append(Problem(f"{path}[{i}]", f"{value!r} is declared twice"))
