"""docs/conformance/monferrato.md, case by case: each played from its position file (tests/monferrato/conformance/kit.py)."""

from __future__ import annotations

import json

import pytest

from tests.monferrato.conformance.cases import CASES
from tests.monferrato.conformance.kit import DOC, Case, document, params, position_of, run


@pytest.mark.parametrize("case", params(CASES))
def test_case(case: Case) -> None:
    run(case)


def test_cases_are_numbered_in_order_and_cover_every_section() -> None:
    assert [c.n for c in CASES] == list(range(1, len(CASES) + 1)) and len(CASES) >= 60
    sections = {c.section.split()[0] for c in CASES}
    assert {"§4", "§5", "§5.1,", "§6", "§7", "§8", "§9", "§10", "§11", "§12", "§13", "§14-§15"} <= sections


def test_position_files_and_the_document_are_current() -> None:
    """The files a user loads are the ones the tests play: `python -m tests.monferrato.conformance.kit` rewrites them."""
    for c in CASES:
        assert json.loads(c.file.read_text(encoding="utf-8")) == json.loads(json.dumps(position_of(c))), c.file
    assert DOC.read_text(encoding="utf-8") == document(CASES)
