"""Mutation testing of the modules arbitro's promises rest on, each against the tests that cover it.

    pip install -e '.[test,mutation]'
    python -m tests.mutate                        # every module below (an hour or more: not in CI)
    python -m tests.mutate events/random.py       # one or more of them
    python -m tests.mutate --list                 # the modules and their tests
    python -m tests.mutate --report               # the scores of the last runs
    python -m tests.mutate --resume events/sqlite.py   # go on from the stage's results, with the checkout's code
    python -m tests.mutate adjudicator/seatcopy.py --names store_copy,SeatCopy._check   # those functions' mutants only

mutmut 3 mutates a copy and names each mutant by its module's import path. This repository is the package
`arbitro` itself (pyproject's package-dir), so each module is run in its own stage,
.mutation/<module>/, holding the sources under arbitro/ and the tests, docs and logs beside them: there the
tests import the mutated copy as `arbitro.…` and mutmut's names match. Nothing in the checkout is changed.
In a stage, `python -m mutmut results` lists the survivors and `python -m mutmut show NAME` shows one.
docs/testing.md records the scores and the surviving mutants judged equivalent.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHILDREN = 2  # mutants tested at once
FOUNDATION = "tests/foundation/"

# Each module with the tests that cover it: its own tests, not distant replays (a promise pinned only by a
# replay of a recorded game is pinned weakly).
MODULES: dict[str, tuple[str, ...]] = {
    "events/codec.py": ("tests/foundation/test_codec.py", FOUNDATION + "test_hidden_hashes.py",
                        FOUNDATION + "test_store_contract.py"),
    "events/records.py": (FOUNDATION + "test_engine.py", FOUNDATION + "test_hidden_hashes.py",
                          FOUNDATION + "test_store_contract.py", FOUNDATION + "test_anchor.py"),
    "events/random.py": ("tests/vectors/", FOUNDATION + "test_dice.py"),
    # not test_durability.py (it SIGKILLs writer processes mid-append, seconds a mutant; the pragmas it rests on are
    # pinned in-process by test_store_contract.py)
    "events/sqlite.py": (FOUNDATION + "test_sqlite_store.py", FOUNDATION + "test_store_contract.py",
                         FOUNDATION + "test_store_records.py", FOUNDATION + "test_idempotency.py",
                         FOUNDATION + "test_store_access.py", FOUNDATION + "test_note_numbers.py"),
    "events/signing.py": (FOUNDATION + "test_signing.py", FOUNDATION + "test_anchor.py",
                          FOUNDATION + "test_seat_seal.py", FOUNDATION + "test_seat_seal_review.py"),  # the seat seal
    # the seat's copy: its seal, its views and the chain it carries on (issue 14 point 5, the trust issue)
    "adjudicator/seatcopy.py": (FOUNDATION + "test_seat_seal.py", FOUNDATION + "test_seat_seal_review.py",
                                FOUNDATION + "test_email.py", FOUNDATION + "test_copy_history.py",
                                FOUNDATION + "test_copy_history_review.py", FOUNDATION + "test_seat_copy_server_key.py"),
    "adjudicator/randomness.py": (FOUNDATION + "test_dice.py", FOUNDATION + "test_randomness.py",
                                  FOUNDATION + "test_provable_rolls.py"),  # keyed supply, keys past N (§R.5)
    "adjudicator/verify.py": (FOUNDATION + "test_verify_checks.py", FOUNDATION + "test_verify_report.py",
                              FOUNDATION + "test_verify_forgeries.py",
                              FOUNDATION + "test_engine.py", FOUNDATION + "test_anchor.py",
                              FOUNDATION + "test_hidden_hashes.py", FOUNDATION + "test_import_atomic.py",
                              FOUNDATION + "test_dice.py", FOUNDATION + "test_verify_reads.py",
                              FOUNDATION + "test_verify_empty_log.py",  # a chain held to its record's head
                              FOUNDATION + "test_seat_export_ranges.py",  # a seat's export's commands
                              FOUNDATION + "test_verify_streamed.py",  # a file's or a store's log read as asked
                              "tests/marengo/test_data_folder.py"),  # the set-up rebuilt from a game's own data
    "adjudicator/verify_ranges.py": (FOUNDATION + "test_verify_event_ranges.py", FOUNDATION + "test_verify_checks.py",
                                     FOUNDATION + "test_import_atomic.py", FOUNDATION + "test_seat_export_ranges.py"),
    # seats' signatures on their own commands, in a full log and in a seat's export (the trust issue, arbitro §L.6)
    "adjudicator/verify_signatures.py": (FOUNDATION + "test_seat_export_signatures.py",
                                         FOUNDATION + "test_seat_export_against_the_host.py", FOUNDATION + "test_anchor.py",
                                         FOUNDATION + "test_verify_checks.py", FOUNDATION + "test_verify_report.py",
                                         # a key withdrawn in the game (§L.6's withdrawal: key periods, a seat's copy)
                                         FOUNDATION + "test_key_withdrawal.py", FOUNDATION + "test_stolen_token_key.py",
                                         # a key registered in the game: the chain's periods against the header
                                         FOUNDATION + "test_key_registration.py"),
    "adjudicator/verify_reads.py": (FOUNDATION + "test_verify_reads.py", FOUNDATION + "test_verify_checks.py",
                                    FOUNDATION + "test_verify_report.py", FOUNDATION + "test_verify_forgeries.py",
                                    FOUNDATION + "test_dice.py", "tests/marengo/test_data_folder.py",  # a game on its own data
                                    FOUNDATION + "test_verify_streamed.py"),  # a file's or a store's log read as asked
    # not the stores' tests (test_durability.py kills processes mid-append, minutes a mutant; test_store_contract.py
    # starts processes under mutmut's own, which mutmut 3.8 then reaps and crashes on): the fold's own tests
    # the kernel's view under the fog (caldiero §20.4, arrivano §11.3.2): what a seat is served of the pieces, by the
    # non-interference and leak tests of both games (not caldiero/test_fog.py's whole game: a minute a mutant)
    "projections/parabellum.py": ("tests/parabellum/test_fog_losses.py", "tests/parabellum/test_fog_losses_for_good.py",
                                  "tests/caldiero/test_fog_by_place.py", "tests/caldiero/test_fog_served.py",
                                  "tests/caldiero/test_fog_commander_to_come.py", "tests/arrivano/test_fog_served.py",
                                  "tests/arrivano/test_fog_exited.py", "tests/parabellum/test_fog_view_keys.py"),
    # the kernel's reinforcements (caldiero/arrivano §12.8 returns, §15.4.1-§15.4.2 entry: both games' own tests)
    "adjudicator/parabellum/reinforcements.py": ("tests/parabellum/test_reinforcements.py",
                                                 "tests/parabellum/test_elimination.py",
                                                 "tests/arrivano/test_reinforcements_in_command.py",
                                                 "tests/arrivano/test_sequence.py", "tests/caldiero/test_movement.py",
                                                 "tests/caldiero/test_sequence.py"),
    # the kernel's command (caldiero §4.3, arrivano §4.4, §15.4.1): who is in command, and why not
    "adjudicator/parabellum/command.py": ("tests/parabellum/test_command.py",
                                          "tests/arrivano/test_reinforcements_in_command.py",
                                          "tests/arrivano/test_movement.py",
                                          "tests/arrivano/test_command_notices_ordered_otherwise.py",
                                          "tests/caldiero/test_rev_k_fog_command_chain.py"),
    # the undo rule (arbitro §U): what bars a free take-back, the points a seat may take back to, the rolls voided
    "adjudicator/undo.py": (FOUNDATION + "test_engine.py", FOUNDATION + "test_undo_as_shown.py",
                            FOUNDATION + "test_undo_rulings.py", FOUNDATION + "test_undo_tells_the_other_nothing.py",
                            FOUNDATION + "test_dice.py", "tests/caldiero/test_undo_consent_under_fog.py",
                            FOUNDATION + "test_undo_refusals.py"),
    "projections/fold.py": (FOUNDATION + "test_fold.py", FOUNDATION + "test_engine.py", FOUNDATION + "test_bad_input.py"),
    # a commander's move, written once for both Para Bellum games (issue 18): its kernel tests, run for both variants
    "adjudicator/parabellum/commander_move.py": (
        "tests/parabellum/test_movement.py", "tests/parabellum/test_move_problems.py",
        "tests/parabellum/test_commander_walk.py", "tests/parabellum/test_commander_entry.py",
        "tests/parabellum/test_commander_allowance.py", "tests/parabellum/test_commander_may_move.py",
        "tests/parabellum/test_fog_chief_limit.py", "tests/parabellum/test_escape.py",
        "tests/parabellum/test_fog_refusals.py", "tests/parabellum/test_fog_stub_rules.py",
        "tests/caldiero/test_cinc_limits.py", "tests/caldiero/test_movement.py", "tests/arrivano/test_movement.py"),
    # the assault's stages both books write alike (§12.1 steps 3-4: the defensive fire's question, the Attack? tests)
    "adjudicator/parabellum/assault_stages.py": (
        "tests/caldiero/test_defensive_fire_asked.py", "tests/caldiero/test_defensive_fire_next_gun.py",
        "tests/caldiero/test_combat_frame.py", "tests/caldiero/test_combat.py",
        "tests/arrivano/test_attack_tests_after_the_fire.py", "tests/arrivano/test_assault_frame.py",
        "tests/arrivano/test_combat.py", "tests/parabellum/test_bombardment.py",
        "tests/parabellum/test_defensive_fire_cited.py",
        # the efficiency question (§12.3.1), asked where a hidden order could make a tie too (arrivano §17.2.7)
        "tests/parabellum/test_efficiency_tie.py", "tests/arrivano/test_weather_efficiency_fog.py"),
    "projections/views.py": (FOUNDATION + "test_views.py", FOUNDATION + "test_engine.py", FOUNDATION + "test_hidden_hashes.py",
                             "tests/caldiero/test_fog_served.py",
                             FOUNDATION + "test_position_carried_data.py"),  # an overridden game's data hash withheld
}

# Tests left out of a module's run: those that run the `arbitro` command as a process. The process imports the
# installed checkout, never the stage's mutant, so they cannot kill one and cost the most (20 s and more each).
# The PostgreSQL store's tests are left out everywhere (see prepare).
LEFT_OUT: dict[str, tuple[str, ...]] = {
    "events/sqlite.py": ("test_a_read_only_database_can_be_read", "test_concurrent_duplicates_through_the_cli_as_processes"),
}


STAGES = REPO / ".mutation"
SOURCES = ("events", "projections", "adjudicator", "cli.py")  # `arbitro`
BESIDE = ("tests", "docs", "logs", "bench", "README.md")  # what the tests read from the repository


def stage_of(module: str) -> Path:
    return STAGES / module.replace("/", "_").removesuffix(".py")


def _copy(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"), dirs_exist_ok=True)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)


def prepare(module: str, resume: bool = False) -> Path:
    """A stage for one module: mutmut's config names it and its tests. `resume` keeps a stage's results and copies
    the checkout's sources and tests over it: mutmut then tests the mutants without a result, and those of the
    functions that changed since (their results are reset); a survivor is tested again only when named."""
    stage = stage_of(module)
    if not resume:
        shutil.rmtree(stage, ignore_errors=True)
    for name in SOURCES:
        _copy(REPO / name, stage / "arbitro" / name)
    for name in BESIDE:
        _copy(REPO / name, stage / name)
    tests = [t for t in MODULES[module] if (REPO / t).exists()]
    left_out = " and ".join(f"not {name}" for name in ("postgres", *LEFT_OUT.get(module, ())))
    (stage / "pyproject.toml").write_text(
        "[tool.mutmut]\n"
        'source_paths = ["arbitro/"]\n'
        f'only_mutate = ["arbitro/{module}"]\n'
        # mutmut runs the tests in mutants/, which holds the sources and tests only: the logs, docs and bench they read
        f"also_copy = {json.dumps([name + '/' if (REPO / name).is_dir() else name for name in BESIDE if name != 'tests'])}\n"
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}\n"
        # not the PostgreSQL store's tests: they test events/postgres.py, never mutated here, and each test process
        # would start a server, once per mutant
        f'pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "no:xdist", "-q", "-k", {json.dumps(left_out)}]\n'
        "\n[tool.pytest.ini_options]\n"
        'testpaths = ["tests"]\n', encoding="utf-8")
    return stage


def mutant_patterns(module: str, names: list[str]) -> list[str]:
    """mutmut's name patterns for the mutants of the named functions of `module`: `store_copy` for a function,
    `SeatCopy._check` for a method (mutmut names them `x_store_copy__mutmut_N` and `xǁSeatCopyǁ_check__mutmut_N`)."""
    prefix = "arbitro." + module.removesuffix(".py").replace("/", ".")
    patterns = []
    for name in names:
        owner, _, function = name.rpartition(".")
        mangled = f"xǁ{owner}ǁ{function}" if owner else f"x_{function}"
        patterns.append(f"{prefix}.{mangled}__mutmut_*")
    return patterns


def run(module: str, children: int, resume: bool = False, names: list[str] | None = None) -> int:
    """Mutate `module` in its stage (afresh, or `resume`d), every mutant or those of the functions `names`."""
    stage = prepare(module, resume)
    print(f"== {module}: {' '.join(MODULES[module])} (in {stage.relative_to(REPO)})", flush=True)
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(children), *mutant_patterns(module, names or [])]
    code = subprocess.run(command, cwd=stage).returncode
    subprocess.run([sys.executable, "-m", "mutmut", "export-cicd-stats"], cwd=stage, stdout=subprocess.DEVNULL)
    return code


def report() -> None:
    for module in MODULES:
        stats = stage_of(module) / "mutants" / "mutmut-cicd-stats.json"
        if not stats.exists():
            continue
        s = json.loads(stats.read_text())
        killed = s.get("killed", 0) + s.get("timeout", 0)
        print(f"{module}: {killed}/{s.get('total', 0)} killed ({s})")


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.mutate", description=__doc__.split("\n\n")[0],
                                     epilog="example: python -m tests.mutate adjudicator/seatcopy.py --names "
                                            "store_copy,SeatCopy._check")
    parser.add_argument("modules", nargs="*", metavar="MODULE", help="modules to mutate (default: every one --list names)")
    parser.add_argument("--list", action="store_true", help="the modules and the tests each is run against")
    parser.add_argument("--report", action="store_true", help="the scores of the last runs")
    parser.add_argument("--resume", action="store_true", help="go on from the stage's results, the checkout's code copied over")
    parser.add_argument("--names", type=lambda text: [n for n in text.split(",") if n], default=[],
                        help="only these functions' mutants (comma-separated; Class.method for a method), of one MODULE")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = _arguments(argv)
    if args.list:
        for module, tests in MODULES.items():
            left_out = f" (left out: {', '.join(LEFT_OUT[module])})" if module in LEFT_OUT else ""
            print(f"{module}: {' '.join(tests)}{left_out}")
        return 0
    if not args.report:
        unknown = [m for m in args.modules if m not in MODULES]
        if unknown:
            print(f"not a module this tool mutates: {', '.join(unknown)} (see --list)", file=sys.stderr)
            return 2
        if args.names and len(args.modules) != 1:
            print("--names takes the functions of one module: name that module (see --list)", file=sys.stderr)
            return 2
        for module in args.modules or list(MODULES):
            run(module, CHILDREN, args.resume and stage_of(module).exists(), args.names)
    report()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
