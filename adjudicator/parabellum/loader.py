"""Reading a Para Bellum game's data files into the models of adjudicator/parabellum/data.py (and each game's
extensions of them): every file validated by its schema, then by its own whole-file `checks()`, every problem
collected with the file's name (relative to the game's data folder) and the JSON path, never only the first.
Maps and movement tables are read by the shared map kit (adjudicator/maps/hexmap.py, costs.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import pydantic
from arbitro.adjudicator.datafiles import DataError, DataProblem, json_path, read_json
from arbitro.adjudicator.maps.costs import MovementTable, load_movement_table
from arbitro.adjudicator.maps.hexmap import HexMap, load_map
from pydantic import BaseModel

_M = TypeVar("_M", bound=BaseModel)


def label(path: Path, data_dir: Path) -> str:
    """How problems name a file: its path inside the data folder (`montebello/oob.json`, `crt.json`)."""
    try:
        return path.relative_to(data_dir).as_posix()
    except ValueError:
        return str(path)


def load_model(path: Path, model: type[_M], data_dir: Path, problems: list[DataProblem]) -> _M | None:
    """One file as `model`, or None with every problem of the file added to `problems`."""
    name = label(path, data_dir)
    try:
        raw = read_json(path, name)
    except DataError as e:
        problems.extend(e.problems)
        return None
    try:
        loaded = model.model_validate(raw)
    except pydantic.ValidationError as e:
        for issue in e.errors(include_url=False):
            problems.append(DataProblem(name, json_path(tuple(issue["loc"])), issue["msg"].removeprefix("Value error, ")))
        return None
    # Whole-file checks with their own JSON paths (pydantic's model validators only report "$").
    checks = getattr(loaded, "checks", None)
    found = checks() if checks is not None else []
    problems.extend(DataProblem(name, where, message) for where, message in found)
    return None if found else loaded


def load_hexmap(path: Path, data_dir: Path, problems: list[DataProblem]) -> HexMap | None:
    """A map in the shared format (docs/hexmap-format.md), or None with its problems added."""
    try:
        return load_map(path, source=label(path, data_dir))
    except DataError as e:
        problems.extend(e.problems)
    return None


def load_movement(path: Path, hexmap: HexMap | None, data_dir: Path,
                  problems: list[DataProblem]) -> MovementTable | None:
    """A movement table in the shared format, checked against `hexmap` if given, or None with its problems added."""
    try:
        return load_movement_table(path, hexmap=hexmap, source=label(path, data_dir))
    except DataError as e:
        problems.extend(e.problems)
    return None
