"""What the rulesets' numbered conformance kits share (issue 19 point 17, the DATC model: docs/conformance/<ruleset>.md
and tests/<ruleset>/conformance/): a case's pytest parameter (a known failure is a strict xfail), a case's entry in
the document, writing the position files and the document, and the check that the files on disk are the ones the
tests play. Each ruleset's kit keeps what is its own: how a case is set up, played and checked."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import pytest


class NumberedCase(Protocol):
    n: int
    section: str
    title: str
    rule: str
    outcome: str
    reading: str
    xfail: str

    @property
    def file(self) -> Path: ...


def params(cases: Sequence[NumberedCase]) -> list[Any]:
    return [pytest.param(c, id=f"case-{c.n:02d}",
                         marks=[pytest.mark.xfail(reason=c.xfail, strict=True)] if c.xfail else [])
            for c in cases]


def document(header: str, cases: Sequence[NumberedCase], setting: Callable[[Any], str],
             steps: Callable[[Any], str]) -> str:
    """The page: `header`, then each case under its section: title, citation, position file and `setting`, the
    `steps`, the expected outcome, the reading assumed and any known failure."""
    lines = header.splitlines() + [""]
    section = ""
    for c in cases:
        if c.section != section:
            section = c.section
            lines += [f"## {section}", ""]
        lines.append(f"{c.n}. **{c.title}** ({c.rule}). Position: `positions/case-{c.n:02d}.json` ({setting(c)}).")
        lines.append("   " + steps(c) + ".")
        lines.append(f"   Expected: {c.outcome}")
        if c.reading:
            lines.append(f"   Reading assumed: {c.reading}")
        if c.xfail:
            lines.append(f"   **Known failure:** {c.xfail}")
        lines.append("")
    return "\n".join(lines)


def write(cases: Sequence[NumberedCase], position_of: Callable[[Any], dict[str, Any]], doc: Path, page: str) -> None:
    """Rewrite every case's position file and the document."""
    for c in cases:
        c.file.parent.mkdir(exist_ok=True)
        c.file.write_text(json.dumps(position_of(c), ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                          encoding="utf-8")
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(page, encoding="utf-8")


def assert_current(cases: Sequence[NumberedCase], position_of: Callable[[Any], dict[str, Any]], doc: Path,
                   page: str) -> None:
    """The files a user loads are the ones the tests play, and the document is the cases'."""
    for c in cases:
        assert json.loads(c.file.read_text(encoding="utf-8")) == json.loads(json.dumps(position_of(c))), c.file
    assert doc.read_text(encoding="utf-8") == page


def assert_numbered(cases: Sequence[NumberedCase], sections: set[str], at_least: int = 60) -> None:
    """Numbered 1..n in order, at least `at_least` of them, every section of the rulebook covered."""
    assert [c.n for c in cases] == list(range(1, len(cases) + 1)) and len(cases) >= at_least
    assert sections <= {c.section.split()[0] for c in cases}
