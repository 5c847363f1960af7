"""The design docs name the code where a rule lives (`parabellum.results.ne_may_test`, `system_orders.x`): every
such name must still be found, unless its line says it is gone. rev-o (seventeenth session) found
docs/rulesets/arrivano.md naming `caldiero.system_command.reach` and `system_command.in_command` long after the module
went (21a9248a), and `parabellum.assault.capped`, which never was: a reader follows them to nothing."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import msgspec
import pytest

from arbitro.events.core import Event

DOCS = Path(__file__).resolve().parents[2] / "docs"
PACKAGES = ("caldiero", "arrivano", "parabellum", "maps", "marengo", "monferrato", "caricat")
NAME = re.compile(r"`((?:%s)\.[a-z_]+(?:\.[A-Za-z_]+)+|system_[a-z_]+\.[A-Za-z_]+)" % "|".join(PACKAGES))
GONE = re.compile(r"\bgone\b|\bdeleted\b|\bformerly\b")


def _module(parts: list[str]) -> tuple[ModuleType | None, int]:
    for i in range(len(parts), 0, -1):
        try:
            return importlib.import_module("arbitro.adjudicator." + ".".join(parts[:i])), i
        except ImportError:
            continue
    return None, 0


def missing(name: str) -> str | None:
    """What of `name` (a dotted name under arbitro.adjudicator; `system_*` is Caldiero's) is not found, or None."""
    parts = (["caldiero"] if name.startswith("system_") else []) + name.split(".")
    obj, found = _module(parts)
    return "no such module" if obj is None else lacking(obj, ".".join(parts[:found]), parts[found:])


def lacking(obj: object, where: str, parts: list[str]) -> str | None:
    """The first of the dotted `parts` not found in `obj` (named `where`), or None."""
    for part in parts:
        if not hasattr(obj, part):
            return f"no {part!r} in {where}"
        obj = getattr(obj, part)
    return None


@pytest.mark.parametrize("doc", ["rulesets/arrivano.md", "rulesets/caldiero.md"])
def test_every_code_name_a_design_doc_gives_is_found_unless_its_line_says_it_is_gone(doc: str) -> None:
    lines = (DOCS / doc).read_text(encoding="utf-8").splitlines()
    assert any(NAME.search(line) for line in lines), f"{doc} names no code NAME finds: this test checks nothing there"
    lost = [f"{doc}:{n}: `{m.group(1)}`: {why}" for n, line in enumerate(lines, 1) if not GONE.search(line)
            for m in NAME.finditer(line) if (why := missing(m.group(1)))]
    assert not lost, "\n".join(lost)


# the design docs also name code by its module's path (`parabellum/retreat_frame.py`,
# `events/parabellum.AssaultUnderway`, `bench/fingerprints.json`) or, in a table of one package's modules, by its
# file alone (`act.py`); `events/<r>.py` is a pattern, not a name; a name by its module alone (`sight.sighted`) is
# not checked: which package's module it is only its context says
MODULE_PATH = re.compile(r"`((?:[a-z_]+/)*[a-z_][a-z0-9_]*)\.(py|json)`"
                         r"|`((?:[a-z_]+/)+[a-z_][a-z0-9_]*)\.([A-Za-z_]+(?:\.[A-Za-z_]+)*)")
ROOT = DOCS.parent
BASES = ("", "adjudicator", "adjudicator/parabellum", "adjudicator/pictures")
TRACKED = tuple(sorted(str(f.relative_to(ROOT)) for d in ("adjudicator", "events", "projections", "bench", "tests")
                       for f in (ROOT / d).rglob("*.*")))


def missing_path(module: str, tail: str) -> str | None:
    """What of `module`.`tail` (a module's path and a file suffix or a dotted name in it) is not found, or None."""
    if tail in ("py", "json"):
        name = f"{module}.{tail}"
        if any((ROOT / base / name).is_file() for base in BASES):
            return None
        if "/" not in name and tail == "py" and any(Path(f).name == name for f in TRACKED):
            return None  # a file alone, in a table of one package's modules (`rules.py`: each ruleset's)
        if any(f.endswith("/" + name) for f in TRACKED):
            return None  # a data file under its game's package (`campotenese/weather.json`)
        return "no such file"
    dotted = module.replace("/", ".")  # `parabellum/world` is adjudicator's, `events/parabellum` the top level's
    problems = [missing_dotted(prefix + dotted, tail.split(".")) for prefix in ("adjudicator.", "")]
    return None if None in problems else min(problems, key=lambda why: why.startswith("no module"))


def missing_dotted(module: str, parts: list[str]) -> str | None:
    try:
        obj = importlib.import_module("arbitro." + module)
    except ImportError:
        return f"no module {module}"
    return lacking(obj, module, parts)


@pytest.mark.parametrize("doc", ["rulesets/parabellum.md", "architecture.md", "rulesets/arrivano.md",
                                 "rulesets/caldiero.md"])
def test_every_module_path_a_doc_gives_is_found_unless_its_line_says_it_is_gone(doc: str) -> None:
    lines = (DOCS / doc).read_text(encoding="utf-8").splitlines()
    assert any(MODULE_PATH.search(line) for line in lines), f"{doc} names no module: this test checks nothing there"
    found = [(n, line, [g for g in m.groups() if g]) for n, line in enumerate(lines, 1)
             for m in MODULE_PATH.finditer(line)]
    lost = [f"{doc}:{n}: `{'.'.join(name)}`: {why}" for n, line, name in found
            if not GONE.search(line) and (why := missing_path(*name))]
    assert not lost, "\n".join(lost)


# A name by its module alone (`sight.sighted`, `retreat_ground.take`): found in some module of that name (any of
# adjudicator's packages, events/, projections/, the top level's `cli`). Where no module has that name it is an
# event's field (`order_changed.by`: some event of that type has the field) or the standard library's (`gc.freeze`);
# what is none of these is in NOT_CODE, saying what it names. rev-q (nineteenth session) found `flow.do_retreat`
# (arrivano.md, gone with 68190935) and `retreat.move_along` (caldiero.md, deleted in a61321bd) this way.
BY_MODULE = re.compile(r"`([a-z_][a-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?:\(\))?`")
NOT_CODE = {
    "variant.rules.RETREAT": "a Variant's rulebook, an attribute of the instance the kernel is given",
    "origin.data": "a key of game_created's origin",
    "meta.provisional": "a data file's meta object",
    "meta.default_provisional": "a data file's meta object",
    "victory.objectives": "a scenario file's key",
    "grid.edges": "a map file's key",
    "state.weather": "a state's field",
    "detail.rule": "a key of dice_rolled's detail",
    "combat_resolved.table": "Caldiero's assault event before 0.25.0 (assault_resolved since), in a line of history",
}


def _modules() -> dict[str, list[str]]:
    """Every module of the package by its last name: `sight` -> ["adjudicator.maps.sight", ...]."""
    found: dict[str, list[str]] = {"cli": ["cli"]}
    for top in ("adjudicator", "events", "projections"):
        for path in sorted((ROOT / top).rglob("*.py")):
            dotted = path.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")
            found.setdefault(path.stem, []).append(dotted)
    return found


def _event_fields() -> dict[str, set[str]]:
    """Each event type's fields (its tag -> the fields of every event struct of that tag, any game's)."""
    for module in ("core", "parabellum", "caldiero", "arrivano", "marengo", "monferrato", "caricat"):
        importlib.import_module(f"arbitro.events.{module}")
    fields: dict[str, set[str]] = {}
    kinds = list(Event.__subclasses__())
    while kinds:
        kind = kinds.pop()
        kinds += kind.__subclasses__()
        tag = kind.__struct_config__.tag
        if isinstance(tag, str):
            fields.setdefault(tag, set()).update(f.name for f in msgspec.structs.fields(kind))
    return fields


MODULES, EVENT_FIELDS = _modules(), _event_fields()


def missing_by_module(base: str, tail: str) -> str | None:
    """What of `base`.`tail` (a module's last name and a dotted name in it) is found nowhere, or None."""
    if f"{base}.{tail}" in NOT_CODE:
        return None
    parts = tail.split(".")
    if base in MODULES:
        problems = [lacking(importlib.import_module("arbitro." + m), m, parts) for m in MODULES[base]]
        return None if None in problems else "; ".join(p for p in problems if p)
    if base in EVENT_FIELDS:
        return None if parts[0] in EVENT_FIELDS[base] else f"no field {parts[0]!r} in a {base} event"
    try:
        return lacking(importlib.import_module(base), base, parts)
    except ImportError:
        return "no module, event or library of that name (if it names something else, add it to NOT_CODE)"


@pytest.mark.parametrize("doc", ["rulesets/parabellum.md", "architecture.md", "rulesets/arrivano.md",
                                 "rulesets/caldiero.md"])
def test_every_name_by_its_module_alone_is_found_unless_its_line_says_it_is_gone(doc: str) -> None:
    lines = (DOCS / doc).read_text(encoding="utf-8").splitlines()
    found = [(n, line, m.group(1), m.group(2)) for n, line in enumerate(lines, 1) for m in BY_MODULE.finditer(line)
             if m.group(1) not in PACKAGES and not m.group(1).startswith("system_") and m.group(2) not in ("py", "json")]
    assert any(base in MODULES for _, _, base, _ in found), f"{doc} names no code by its module: this checks nothing"
    lost = [f"{doc}:{n}: `{base}.{tail}`: {why}" for n, line, base, tail in found
            if not GONE.search(line) and (why := missing_by_module(base, tail))]
    assert not lost, "\n".join(lost)


def test_every_exception_is_still_named_by_a_doc() -> None:
    """NOT_CODE lists no name the docs no longer give (a stale exception would hide nothing, but mislead)."""
    text = "".join((DOCS / doc).read_text(encoding="utf-8") for doc in (
        "rulesets/parabellum.md", "architecture.md", "rulesets/arrivano.md", "rulesets/caldiero.md"))
    assert [name for name in NOT_CODE if f"`{name}`" not in text] == []
