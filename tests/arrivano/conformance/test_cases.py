"""docs/conformance/arrivano.md, case by case: each played from its position file (tests/arrivano/conformance/kit.py)."""

from __future__ import annotations

import pytest

from tests import numbered_cases as NC
from tests.arrivano.conformance.cases import CASES, SECTIONS
from tests.arrivano.conformance.kit import KIT, Case


@pytest.mark.parametrize("case", NC.params(CASES))
def test_case(case: Case) -> None:
    KIT.run(case)


def test_cases_are_numbered_in_order_and_cover_every_section() -> None:
    NC.assert_numbered(CASES, SECTIONS)


def test_position_files_and_the_document_are_current() -> None:
    """The files a user loads are the ones the tests play: `python -m tests.arrivano.conformance.kit` rewrites them."""
    KIT.assert_current(CASES)
