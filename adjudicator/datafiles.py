"""What every ruleset's data loader shares: the one data-file error (:class:`DataError`, every problem of every
file at once, each naming the file, the JSON path and what is wrong), naming where in a JSON file a problem is,
reading a JSON file, the strict pydantic base, the hash of a set of data files, a game's own data (a user's
data folder) built once per process and content hash and bound while a ruleset works on that game, and what a
position's overrides of those data share (parsing one, finding and setting the entry it changes)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, Self, TypeVar, get_args
from pathlib import Path

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from arbitro.adjudicator.errors import BadPosition, JsonUnreadable, not_utf8_text, read_outside_json, read_utf8
from arbitro.adjudicator.memo import Memo


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
    """`data` (decoded JSON) as `model`, or a :class:`DataError` naming `source` with every problem the schema
    finds. Validated as JSON, so a strict model takes an array for a tuple but no "2" for 2 and no 1 for true."""
    try:
        return model.model_validate_json(json.dumps(data))
    except ValidationError as exc:
        raise DataError.in_file(source, pydantic_problems(exc)) from None


def read_text(path: Path, file: str) -> str:
    """The text of a data file, every loader's one reader; a missing or unreadable file, or one that is not UTF-8
    (errors.not_utf8_text's words, as for every file the CLI reads), is a :class:`DataError` naming ``file``."""
    return read_utf8(path, lambda e: DataError([DataProblem(file, "$", _unreadable(e))]))


def _unreadable(e: OSError | UnicodeDecodeError) -> str:
    if isinstance(e, UnicodeDecodeError):
        return not_utf8_text(e)
    return "file not found" if isinstance(e, FileNotFoundError) else f"cannot read file: {e.strerror}"


def read_json(path: Path, file: str) -> object:
    """The decoded JSON of a file; a missing, unreadable or malformed file is a :class:`DataError` naming ``file``."""
    text = read_text(path, file)  # its own DataError, a ValueError too: not to be taken for an overlong integer
    try:
        return read_outside_json(text)
    except JsonUnreadable as e:
        raise DataError([json_problem(file, e)]) from None


def json_problem(file: str, e: JsonUnreadable) -> DataProblem:
    """A data file's JSON unreadable (errors.read_outside_json) as a problem of the file, in the data checks' words
    (where: `$`, the whole), for every ruleset's data loader."""
    if e.kind == JsonUnreadable.TOO_DEEP:
        return DataProblem(file, "$", "JSON nested too deeply to read")
    if e.kind == JsonUnreadable.TOO_LONG:
        return DataProblem(file, "$", "a number in it is too long to read (over 4,300 digits)")
    return DataProblem(file, f"line {e.line} column {e.column}", f"not valid JSON: {e.msg}")


# A place inside a record: ("reduced",), ("change", "2"), or () for the record itself.
Where = tuple[str | int, ...]


class StrictModel(BaseModel):
    """A record of a data file. Unknown keys are errors (typos); scalars are strict (no "2" for 2, no 1 for true).
    What a record's fields must agree on is its `problems()`: every one found is reported with the file's other
    problems, each at its JSON path, never only the first (a model validator raising ValueError stops at one)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    def problems(self) -> list[tuple[Where, str]]:
        """What is wrong with the record once each field is valid on its own: (where in the record, what)."""
        return []

    @model_validator(mode="after")
    def _report_problems(self) -> Self:
        found = self.problems()
        if found:
            raise ValidationError.from_exception_data(type(self).__name__, [
                {"type": PydanticCustomError("data", "{problem}", {"problem": message}), "loc": where,
                 "input": getattr(self, str(where[0]), None) if where else None} for where, message in found])
        return self


@dataclass(frozen=True)
class Names:
    """Marks a string field (`Annotated[str, Names("hex")]`) as naming what another file defines (a map hex, a seat,
    a unit of the order of battle): `named` finds every such name in a record, so that a loader checks each kind of
    name once, in one place, whichever file gives it."""

    what: str


def named(value: object, path: str = "$", marks: tuple[Names, ...] = ()) -> Iterator[tuple[Names, str, str]]:
    """(mark, JSON path, name) for every string in `value` (a record, or a field's value) that its field's type marks
    with `Names`: a field's mark holds for every string in it, in lists and as dict values (never dict keys)."""
    if isinstance(value, BaseModel):
        for field, field_marks in _marks(type(value)).items():
            yield from named(getattr(value, field), f"{path}.{field}", field_marks)
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from named(item, f"{path}[{i}]", marks)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from named(item, f"{path}.{key}", marks)
    elif isinstance(value, str):
        yield from ((mark, path, value) for mark in marks)


@cache
def _marks(model: type[BaseModel]) -> dict[str, tuple[Names, ...]]:
    def found(annotation: object) -> tuple[Names, ...]:
        args = get_args(annotation)
        return tuple(a for a in args if isinstance(a, Names)) + tuple(m for a in args for m in found(a))
    return {name: found(f.rebuild_annotation()) for name, f in model.model_fields.items()}


Int = StrictInt
Bool = StrictBool
Str = StrictStr


def check_unique(values: tuple[str, ...], path: str, problems: list[Problem]) -> None:
    for i, value in enumerate(values):
        if value in values[:i]:
            problems.append(Problem(f"{path}[{i}]", f"{value!r} is declared twice"))


def data_digest(files: Sequence[tuple[str, bytes]]) -> str:
    """The hash of a set of data files, each as (name, content), in the order given. Each name and content is
    framed by its length (8 bytes, big-endian), so no two different sets of files give the same bytes to hash
    (joined with separators, a content holding the separator could pass for a file boundary)."""
    digest = hashlib.sha256()
    for name, content in files:
        for part in (name.encode(), content):
            digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


def files_digest(files: Mapping[str, str]) -> str:
    """The hash of a data folder's files (name -> text), whatever order they come in."""
    return data_digest(sorted((name, text.encode()) for name, text in files.items()))


def differing_files(carried: Mapping[str, str], base: Mapping[str, str]) -> list[tuple[str, str]]:
    """Each data file in which `carried` differs from `base` (the shipped files, or a user's folder), with how: a file
    is the same when its text is, or its JSON is (an override writes a file again in its own layout)."""
    out = [(name, "changed" if name in base else "added")
           for name in sorted(carried) if not _same_text(carried[name], base.get(name))]
    return out + [(name, "left out") for name in sorted(set(base) - set(carried))]


def _same_text(a: str, b: str | None) -> bool:
    if b is None or a == b:
        return a == b
    try:
        return bool(json.loads(a) == json.loads(b))
    except ValueError:
        return False


D = TypeVar("D")


class OwnData(Generic[D]):
    """A ruleset's data as a game carries them (`arbitro new RULESET SCENARIO --data DIR`): built from the files'
    texts once per process and content hash (never by folder or game name, so two games on different data in one
    process never share an answer), and the data in force (`current`) while a ruleset works on such a game
    (`bound`), else the shipped data."""

    KEPT = 16  # data folders built and kept per process (rev-fidelity 5: one a distinct folder grew without bound)

    def __init__(self, name: str, build: Callable[[Mapping[str, str]], D], shipped: Callable[[], D]) -> None:
        self._build, self._shipped = build, shipped
        self._by_hash = Memo(self.KEPT)  # the KEPT folders used last, so a server stays bounded
        self._bound: ContextVar[D | None] = ContextVar(name, default=None)
        # The files last loaded, their items as they were (held, so compared by identity) and their data: a ruleset
        # asks for a game's data many times per command with the one `data_files` of its state, and hashing every
        # file's text each time took 183 us a call for Arrivano's 18 files (189,240 characters); this takes 1.4 us.
        self._last: tuple[Mapping[str, str], tuple[tuple[str, str], ...], D] | None = None

    def load(self, files: Mapping[str, str]) -> D:
        last = self._last
        if last is not None and last[0] is files and _same_items(last[1], files):
            return last[2]
        data = self._by_hash.get((), files_digest(files), lambda: self._build(files))
        self._last = (files, tuple(files.items()), data)
        return data

    def current(self) -> D:
        bound = self._bound.get()
        return self._shipped() if bound is None else bound

    @contextmanager
    def bound(self, files: Mapping[str, str] | None) -> Iterator[D]:
        """Within the block, `current()` is the data of `files` (None or {}: the shipped data)."""
        token = self._bound.set(self.load(files) if files else None)
        try:
            yield self.current()
        finally:
            self._bound.reset(token)


OM = TypeVar("OM", bound="OverrideModel")


# --- a position's overrides of the data a game carries (issue 19 item 13; Ruleset.apply_override) ------------------
class OverrideModel(BaseModel):
    """One kind of override as a position file gives it: strict, unknown fields refused."""

    model_config = ConfigDict(extra="forbid", strict=True)


def overridden_files(files: Mapping[str, str], build: Callable[[Mapping[str, str]], object]) -> dict[str, str]:
    """A data folder's files as overrides left them, once `build` (the ruleset's reading of a folder) takes them
    whole: what a state then carries as its data_files. Every problem of the folder is one BadPosition."""
    try:
        build(files)
    except DataError as e:
        raise BadPosition("the data it leaves: " + "; ".join(map(str, e.problems))) from None
    return dict(sorted(files.items()))


def parse_override(models: Mapping[str, type[OM]], override: Mapping[str, object]) -> OM:
    """The override parsed by its kind's model, or BadPosition naming each field that is wrong."""
    try:
        return models[str(override["kind"])].model_validate(dict(override))
    except ValidationError as e:
        raise BadPosition("; ".join(f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors())) from None


def entry(items: list[dict[str, Any]], key: str, value: str, what: str) -> dict[str, Any]:
    """The data entry whose `key` is `value` (a counter, a zone...), or BadPosition: 'no {what} {value!r}'."""
    found = [item for item in items if item.get(key) == value]
    if not found:
        raise BadPosition(f"no {what} {value!r}")
    return found[0]


def set_fields(target: dict[str, Any], parsed: BaseModel, fields: tuple[str, ...]) -> list[str]:
    """The override's given `fields` written into the data entry `target`; the names of those it changes (at least
    one, else BadPosition)."""
    changed = [f for f in fields if getattr(parsed, f) is not None]
    if not changed:
        raise BadPosition(f"name what it changes: one or more of {', '.join(fields)}")
    for f in changed:
        value = getattr(parsed, f)
        target[f] = value.model_dump() if isinstance(value, BaseModel) else value
    return changed


def _same_items(kept: tuple[tuple[str, str], ...], files: Mapping[str, str]) -> bool:
    """The mapping holds exactly the names and texts kept (the very objects: a mapping changed in place is not)."""
    return len(kept) == len(files) and all(
        name is n and text is t for (name, text), (n, t) in zip(kept, files.items(), strict=False))
