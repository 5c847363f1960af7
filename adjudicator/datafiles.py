"""What every ruleset's data loader shares: the one data-file error (:class:`DataError`, every problem of every
file at once, each naming the file, the JSON path and what is wrong), naming where in a JSON file a problem is,
reading a JSON file, and the strict pydantic base."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TypeVar
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr, ValidationError


def json_path(loc: Iterable[int | str]) -> str:
    """A pydantic error location as a JSON path: ("units", 3, "hex") -> "$.units[3].hex"."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong inside a data file, found by a check that does not know the file's name: where (a JSON path
    like ``$.roads[2].hexes[5]``) and what. :meth:`DataError.in_file` names the file."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass(frozen=True, slots=True)
class DataProblem:
    """One thing wrong in a data file: the file, the JSON path (or line and column) inside it, and what is wrong."""

    file: str
    path: str
    problem: str

    def __str__(self) -> str:
        return f"{self.file}: {self.path}: {self.problem}"


class DataError(ValueError):
    """Data files are malformed or inconsistent. ``problems`` lists every problem found, in every file read (each
    names the file, the path inside it and what is wrong); ``file``, ``path`` and ``problem`` are the first one's."""

    def __init__(self, problems: Iterable[DataProblem]) -> None:
        self.problems = tuple(problems)
        if not self.problems:
            raise ValueError("a DataError needs at least one problem")
        first = self.problems[0]
        self.file, self.path, self.problem = first.file, first.path, first.problem
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def in_file(cls, file: str, problems: Iterable[Problem]) -> DataError:
        return cls(DataProblem(file, p.path, p.message) for p in problems)


def pydantic_problems(error: ValidationError) -> list[Problem]:
    return [Problem(json_path(e["loc"]), e["msg"].removeprefix("Value error, ")) for e in error.errors()]


Model = TypeVar("Model", bound=BaseModel)


def validated(model: type[Model], data: object, source: str) -> Model:
    """`data` as `model`, or a :class:`DataError` naming `source` with every problem the schema finds."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise DataError.in_file(source, pydantic_problems(exc)) from None


def read_json(path: Path, file: str) -> object:
    """The decoded JSON of a file; a missing, unreadable or malformed file is a :class:`DataError` naming ``file``."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError([DataProblem(file, "$", "file not found")]) from None
    except OSError as exc:
        raise DataError([DataProblem(file, "$", f"cannot read file: {exc.strerror}")]) from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise DataError([DataProblem(file, where, f"not valid JSON: {exc.msg}")]) from None


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
