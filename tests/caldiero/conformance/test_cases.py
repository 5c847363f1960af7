"""docs/conformance/caldiero.md, case by case: each played from its position file (tests/caldiero/conformance/kit.py)."""

from __future__ import annotations

import pytest

from tests import numbered_cases as NC
from tests.caldiero.conformance.cases import CASES
from tests.caldiero.conformance.kit import KIT, Case


@pytest.mark.parametrize("case", NC.params(CASES))
def test_case(case: Case) -> None:
    KIT.run(case)


def test_cases_are_numbered_in_order_and_cover_every_section() -> None:
    NC.assert_numbered(CASES, {"§4-§6", "§5", "§7-§8", "§9-§10", "§11", "§12", "§12.5", "§12.6-§12.8", "§13-§16"})


def test_position_files_and_the_document_are_current() -> None:
    """The files a user loads are the ones the tests play: `python -m tests.caldiero.conformance.kit` rewrites them."""
    KIT.assert_current(CASES)
