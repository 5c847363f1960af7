"""The mutation tool (tests/mutate.py, docs/testing.md "Mutation testing") mutates what it says, against tests
that exist: a module or a test file renamed would otherwise drop out of a run unnoticed (the stage keeps only the
listed tests that exist), and a score would be recorded against fewer tests than `--list` shows."""

from __future__ import annotations

from tests import mutate


def test_every_listed_module_and_test_exists_in_the_checkout() -> None:
    missing = [path for module, tests in mutate.MODULES.items() for path in (module, *tests)
               if not (mutate.REPO / path).exists()]
    assert missing == []


def test_names_select_a_functions_or_a_methods_mutants_by_mutmuts_own_naming() -> None:
    assert mutate.mutant_patterns("adjudicator/seatcopy.py", ["store_copy", "SeatCopy._check"]) == [
        "arbitro.adjudicator.seatcopy.x_store_copy__mutmut_*",
        "arbitro.adjudicator.seatcopy.xǁSeatCopyǁ_check__mutmut_*",
    ]


def test_names_are_refused_without_exactly_one_module(capsys) -> None:
    assert mutate.main(["--names", "seal"]) == 2
    assert mutate.main(["events/random.py", "events/codec.py", "--names", "seal"]) == 2
    assert "one module" in capsys.readouterr().err


def test_an_unknown_module_is_refused_naming_it(capsys) -> None:
    assert mutate.main(["events/nothing.py"]) == 2
    assert "events/nothing.py" in capsys.readouterr().err
