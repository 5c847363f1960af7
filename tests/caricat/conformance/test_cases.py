"""docs/conformance/caricat.md, case by case: each played from its position file (tests/caricat/conformance/kit.py)."""

from __future__ import annotations

import pytest

from tests import numbered_cases as NC
from tests.caricat.conformance.cases import CASES
from tests.caricat.conformance.kit import DOC, Case, document, position_of, run


@pytest.mark.parametrize("case", NC.params(CASES))
def test_case(case: Case) -> None:
    run(case)


def test_cases_are_numbered_in_order_and_cover_every_section() -> None:
    NC.assert_numbered(CASES, {"§2-§3", "§3.1", "§4", "§5-§6", "§7.1", "§7.2", "§7.3-§7.5", "§8-§9", "§10-§12", "§13",
                               "§14"})


def test_position_files_and_the_document_are_current() -> None:
    """The files a user loads are the ones the tests play: `python -m tests.caricat.conformance.kit` rewrites them."""
    NC.assert_current(CASES, position_of, DOC, document(CASES))
