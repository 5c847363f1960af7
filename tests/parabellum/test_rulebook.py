"""The citations by concept are data (adjudicator/caldiero/rulebook.json, adjudicator/arrivano/rulebook.json), read
into the kernel's `Rulebook` by `read_rulebook`; a faulty file is reported whole, every problem at its JSON path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from arbitro.adjudicator import arrivano, caldiero
from arbitro.adjudicator.arrivano import rules as arrivano_rules
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.caldiero import rules as caldiero_rules
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.datafiles import DataError, DataProblem
from arbitro.adjudicator.parabellum.rules import CONCEPTS, read_rulebook
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.ruleset import Rule

FILES = {"caldiero": Path(caldiero.__file__).with_name("rulebook.json"),
         "arrivano": Path(arrivano.__file__).with_name("rulebook.json")}


def test_each_variant_cites_its_own_book_for_every_concept(variant: Variant) -> None:
    """Every concept the kernel cites has a section of the variant's book (caldiero §4.3 and arrivano §4.4 are both
    COMMAND_RANGE), read from the game's file."""
    rules = read_rulebook(FILES[variant.book])
    assert rules == variant.rules
    for concept in CONCEPTS:
        cited = getattr(rules, concept)
        assert cited.game == variant.book and cited.section and cited.summary, concept
        assert str(cited) == f"{variant.book} §{cited.section}"


def test_the_books_number_some_concepts_differently() -> None:
    """The reason the citations are per game: the same rule sits in different sections (caldiero §4.3 command
    range, arrivano §4.4; a commander's loss, caldiero §4.4, arrivano §4.5), while one concept names one rule in both
    books (the efficiency test is §13.1 in both; a side's efficiency in an assault §12.3.1 and the difference's die
    modifier §12.3.2 in both, where caldiero cited §12.3 and both cited §12.3.1 for the modifier before caldiero
    0.18.0 and arrivano 1.18.0)."""
    c, a = read_rulebook(FILES["caldiero"]), read_rulebook(FILES["arrivano"])
    assert (c.COMMAND_RANGE.section, a.COMMAND_RANGE.section) == ("4.3", "4.4")
    assert (c.LEADER_LOSS.section, a.LEADER_LOSS.section) == ("4.4", "4.5")
    assert (c.SIDE_EFFICIENCY.section, a.SIDE_EFFICIENCY.section) == ("12.3.1", "12.3.1")
    assert (c.EFFICIENCY_DRM.section, a.EFFICIENCY_DRM.section) == ("12.3.2", "12.3.2")
    assert (c.EFFICIENCY.section, a.EFFICIENCY.section) == ("13.1", "13.1")


def test_every_problem_of_a_rulebook_file_is_reported_at_once(variant: Variant, tmp_path: Path) -> None:
    raw = json.loads(FILES[variant.book].read_text(encoding="utf-8"))
    concepts = raw["concepts"]
    del concepts["RETREAT"]
    concepts["RETREATS"] = {"section": "12.6", "summary": "a typo of a concept"}
    concepts["ROUT"]["section"] = "§15.2"
    concepts["ZOC"]["summary"] = "  "
    concepts["LOS"]["page"] = 4
    path = tmp_path / "rulebook.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_rulebook(path)
    found = {(p.file, p.path) for p in caught.value.problems}
    assert found == {("rulebook.json", "$.concepts.RETREAT"), ("rulebook.json", "$.concepts.RETREATS"),
                     ("rulebook.json", "$.concepts.ROUT.section"), ("rulebook.json", "$.concepts.ZOC.summary"),
                     ("rulebook.json", "$.concepts.LOS.page")}
    rout = next(p for p in caught.value.problems if p.path == "$.concepts.ROUT.section")
    assert "'§15.2' is not a section number" in rout.problem


def test_a_rulebook_that_is_not_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "rulebook.json"
    path.write_text('{"book": "caldiero",\n "concepts": }', encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_rulebook(path)
    assert caught.value.problems == (DataProblem("rulebook.json", "line 2 column 14", caught.value.problem),)


def test_no_game_module_cites_a_concept_of_its_rulebook_again() -> None:
    """A citation the rulebook.json names as a concept is not defined a second time in the game's rules.py (the
    review found §11.1 defined three ways: the concept, caldiero ARTILLERY_RETREAT, arrivano ARTILLERY_STACKED)."""
    for module, variant in ((caldiero_rules, CALDIERO_VARIANT), (arrivano_rules, ARRIVANO_VARIANT)):
        concepts = {str(getattr(variant.rules, c)): c for c in CONCEPTS}
        again = sorted(f"{n} = {v} (the concept {concepts[str(v)]})" for n, v in vars(module).items()
                       if isinstance(v, Rule) and str(v) in concepts and n in ("ARTILLERY_RETREAT", "ARTILLERY_STACKED"))
        assert again == [], f"{module.__name__}: {again}"
