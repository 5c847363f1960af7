"""The citations by concept are data (adjudicator/caldiero/rulebook.json, adjudicator/arrivano/rulebook.json), read
into the kernel's `Rulebook` by `read_rulebook`; a faulty file is reported whole, every problem at its JSON path."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from arbitro.adjudicator import arrivano, caldiero
from arbitro.adjudicator.arrivano import rules as arrivano_rules
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.caldiero import rules as caldiero_rules
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.datafiles import DataError, DataProblem
from arbitro.adjudicator.parabellum.rules import CONCEPTS, RulebookFile, read_citations, read_rulebook
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


def test_an_own_citation_named_as_a_concept_is_refused(variant: Variant, tmp_path: Path) -> None:
    """One name, one citation: an own citation may not take a concept's name (R.RETREAT is the concept's; the review
    once found §11.1 defined three ways: the concept, caldiero ARTILLERY_RETREAT, arrivano ARTILLERY_STACKED)."""
    raw = json.loads(FILES[variant.book].read_text(encoding="utf-8"))
    raw["own"]["RETREAT"] = {"section": "12.6", "summary": "the concept again"}
    raw["own"]["lower"] = {"section": "1", "summary": "not a name the modules may write"}
    path = tmp_path / "rulebook.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_rulebook(path)
    found = {p.path: p.problem for p in caught.value.problems}
    assert set(found) == {"$.own.RETREAT.[key]", "$.own.lower.[key]"}, found
    assert "RETREAT is the name of a concept of the kernel's Rulebook" in found["$.own.RETREAT.[key]"]


def test_a_game_cites_its_own_rules_and_the_concepts_by_one_name() -> None:
    """A game's rules.py serves its book's citations from rulebook.json: its own (`own`) and the concepts (`concepts`,
    the same Rule as `variant.rules`); a name the file lacks is an AttributeError, as a missing constant was."""
    assert caldiero_rules.SETUP == Rule("caldiero", "21", "set-up within one hex of the PI hex")
    assert arrivano_rules.ORDERS_PHASE == Rule("arrivano", "3.1 A-1",
                                               "orders sub-phase: commanders in chief change orders, the French first")
    assert caldiero_rules.RETREAT is not None and caldiero_rules.RETREAT == CALDIERO_VARIANT.rules.RETREAT
    assert arrivano_rules.BOMBARD_TABLE == ARRIVANO_VARIANT.rules.BOMBARD_TABLE
    with pytest.raises(AttributeError, match="no citation 'RETRAET'"):
        getattr(caldiero_rules, "RETRAET")


def _cited_names(path: Path) -> Iterator[tuple[str, str, int]]:
    """(game, name, line) of every citation a module names through a game's rules module: `R.NAME` where R is
    `from arbitro.adjudicator.<game> import rules as R` (or any alias), and `from arbitro.adjudicator.<game>.rules
    import NAME`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in (f"arbitro.adjudicator.{g}" for g in FILES):
            aliases |= {a.asname or a.name: node.module.rsplit(".", 1)[1] for a in node.names if a.name == "rules"}
        if isinstance(node, ast.ImportFrom) and node.module in (f"arbitro.adjudicator.{g}.rules" for g in FILES):
            yield from ((node.module.split(".")[2], a.name, node.lineno) for a in node.names)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            yield aliases[node.value.id], node.attr, node.lineno


def test_every_citation_a_module_names_is_in_its_rulebook() -> None:
    """What the constants of rules.py gave statically: every `R.NAME` in the project names a citation of that game's
    rulebook.json, so no refusal raises an AttributeError in place of its words."""
    root = Path(caldiero.__file__).parents[2]
    known = {g: read_citations(path).rules for g, path in FILES.items()}
    modules = [p for part in ("adjudicator", "events", "projections", "tests", "bench") for p in (root / part).rglob("*.py")]
    missing = [f"{p.relative_to(root)}:{line}: {game} {name}" for p in modules for game, name, line in _cited_names(p)
               if name not in known[game]]
    assert len(modules) > 300 and missing == []


def test_every_own_citation_is_cited_by_the_game() -> None:
    """Each game's own citations (rulebook.json `own`) are the rules only its book has that its code cites: every one
    is named by a module of the project (`R.NAME`), none kept for a rule enforced under another citation (a concept,
    a data file's `rule`) or not at all (issue 18: 44 such were deleted in the twenty-first session)."""
    root = Path(caldiero.__file__).parents[2]
    modules = [p for part in ("adjudicator", "events", "projections") for p in (root / part).rglob("*.py")]
    named = {(game, name) for p in modules for game, name, _ in _cited_names(p)}
    own = {g: RulebookFile.model_validate_json(path.read_text(encoding="utf-8")).own for g, path in FILES.items()}
    uncited = sorted(f"{g} {name}" for g, names in own.items() for name in names if (g, name) not in named)
    assert all(own.values()) and uncited == []
