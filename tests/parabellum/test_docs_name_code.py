"""The design docs name the code where a rule lives (`parabellum.results.ne_may_test`, `system_orders.x`): every
such name must still be found, unless its line says it is gone. rev-o (seventeenth session) found
docs/rulesets/arrivano.md naming `caldiero.system_command.reach` and `system_command.in_command` long after the module
went (21a9248a), and `parabellum.assault.capped`, which never was: a reader follows them to nothing."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

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
