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
GONE = re.compile(r"\bgone\b|\bdeleted\b|\bwas\b|\bwere\b|\bformerly\b")


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
    if obj is None:
        return "no such module"
    for part in parts[found:]:
        if not hasattr(obj, part):
            return f"no {part!r} in {'.'.join(parts[:found])}"
        obj = getattr(obj, part)
    return None


# rulesets/parabellum.md and architecture.md name code by module alone (`sight.sighted`, `act.settle`): NAME finds
# none there, so they are not listed (each listed doc must give NAME something to check)
@pytest.mark.parametrize("doc", ["rulesets/arrivano.md", "rulesets/caldiero.md"])
def test_every_code_name_a_design_doc_gives_is_found_unless_its_line_says_it_is_gone(doc: str) -> None:
    lines = (DOCS / doc).read_text(encoding="utf-8").splitlines()
    assert any(NAME.search(line) for line in lines), f"{doc} names no code NAME finds: this test checks nothing there"
    lost = [f"{doc}:{n}: `{m.group(1)}`: {why}" for n, line in enumerate(lines, 1) if not GONE.search(line)
            for m in NAME.finditer(line) if (why := missing(m.group(1)))]
    assert not lost, "\n".join(lost)
