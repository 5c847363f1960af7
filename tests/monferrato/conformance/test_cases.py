"""docs/conformance/monferrato.md, case by case: each played from its position file (tests/monferrato/conformance/kit.py)."""

from __future__ import annotations

import pytest

from tests import numbered_cases as NC
from tests.monferrato.conformance.cases import CASES
from tests.monferrato.conformance.kit import DOC, Case, document, position_of, run


@pytest.mark.parametrize("case", NC.params(CASES))
def test_case(case: Case) -> None:
    run(case)


def test_cases_are_numbered_in_order_and_cover_every_section() -> None:
    NC.assert_numbered(CASES, {"§4", "§5", "§5.1,", "§6", "§7", "§8", "§9", "§10", "§11", "§12", "§13", "§14-§15"})


def test_position_files_and_the_document_are_current() -> None:
    """The files a user loads are the ones the tests play: `python -m tests.monferrato.conformance.kit` rewrites them."""
    NC.assert_current(CASES, position_of, DOC, document(CASES))
