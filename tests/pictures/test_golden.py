"""The golden pictures of each scenario's set-up in docs/pictures/ (shown in the README) are what `arbitro render`
draws today (issue 13); tests/pictures/golden.py writes them. Every scenario of every shipped game has one, and the
README shows each."""

from __future__ import annotations


import pytest

from arbitro.adjudicator import registry
from tests.pictures.golden import FOLDER, GOLDEN, path, picture

README = FOLDER.parents[1] / "README.md"
SHIPPED = ("arrivano", "caldiero", "caricat", "marengo", "monferrato")


@pytest.mark.parametrize(("ruleset", "scenario", "seat"), GOLDEN)
def test_the_golden_set_up_picture_is_current(ruleset: str, scenario: str, seat: str) -> None:
    assert path(ruleset, scenario).exists(), "write it: python -m tests.pictures.golden"
    assert path(ruleset, scenario).read_text(encoding="utf-8") == picture(ruleset, scenario, seat), \
        f"{path(ruleset, scenario).name} is stale: python -m tests.pictures.golden, then look at the difference"


def test_every_scenario_of_every_game_has_a_golden_picture_shown_in_the_readme() -> None:
    scenarios = {(name, scenario) for name in SHIPPED for scenario in registry.get(name).scenarios()}
    assert {(r, s) for r, s, _ in GOLDEN} == scenarios
    readme = README.read_text(encoding="utf-8")
    shown = {(r, s) for r, s in scenarios if f'<img src="{path(r, s).relative_to(README.parent)}"' in readme}
    assert shown == scenarios, f"show these in the README: {sorted(scenarios - shown)}"
    assert sorted(p.name for p in FOLDER.glob("*.svg")) == sorted(path(r, s).name for r, s in scenarios), \
        "a picture of no scenario is left in docs/pictures"
