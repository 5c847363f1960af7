"""docs/rulesets/monferrato.md's audit of issue 11's "Rules to enforce" names, for each rule, the code and the tests:
every function, test and conformance case it names exists, so the table cannot quietly rot."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rulesets" / "monferrato.md"
TESTS = Path(__file__).resolve().parent


def rows() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8").split("## Audit", 1)[1]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("| rule ")]


def test_the_audit_covers_every_section_the_issue_lists() -> None:
    rules = " ".join(r[0] for r in rows())
    for section in ("§2", "§4", "§5", "§6", "§7", "§8", "§9", "§10", "§11", "§12", "§13", "§14", "§15", "§16", "§17",
                    "scenario"):
        assert section in rules, section


def test_every_function_the_audit_names_exists() -> None:
    for rule, code, _ in rows():
        for module, name in re.findall(r"`(\w+)\.(\w+)`", code):
            if module in ("scenario", "map", "projections", "ctx"):  # data files, other packages, the engine's context
                continue
            if module[0].isupper():  # a class of the data module
                mod = getattr(importlib.import_module("arbitro.adjudicator.monferrato.data"), module)
            else:
                mod = importlib.import_module(f"arbitro.adjudicator.monferrato.{module}")
            assert hasattr(mod, name), (rule, module, name)


def test_every_test_and_case_the_audit_names_exists() -> None:
    defined = {path.stem: {n.name for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                           if isinstance(n, ast.FunctionDef)} for path in TESTS.glob("test_*.py")}
    cases = len(re.findall(r"^\d+\. \*\*", (ROOT / "docs" / "conformance" / "monferrato.md").read_text(encoding="utf-8"),
                           re.M))
    for rule, _, tests in rows():
        for part in tests.split(";"):
            part = part.strip().removeprefix("T: ")
            if "::" in part:
                file, names = part.split("::", 1)
                assert file in defined, (rule, file)
                for name in re.findall(r"test_\w+", names):
                    assert name in defined[file], (rule, file, name)
            for a, b in re.findall(r"\bcases? (\d+)(?:-(\d+))?", part):
                assert 1 <= int(a) <= int(b or a) <= cases, (rule, a, b)
