"""The golden pictures of each scenario's set-up in docs/pictures/ (shown in the README) are what `arbitro render`
draws today (issue 13); tests/pictures/golden.py writes them."""

from __future__ import annotations

import pytest

from tests.pictures.golden import GOLDEN, path, picture


@pytest.mark.parametrize(("ruleset", "scenario", "seat"), GOLDEN)
def test_the_golden_set_up_picture_is_current(ruleset: str, scenario: str, seat: str) -> None:
    assert path(ruleset, scenario).exists(), "write it: python -m tests.pictures.golden"
    assert path(ruleset, scenario).read_text(encoding="utf-8") == picture(ruleset, scenario, seat), \
        f"{path(ruleset, scenario).name} is stale: python -m tests.pictures.golden, then look at the difference"
