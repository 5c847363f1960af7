"""Mutation testing of the modules arbitro's promises rest on, each against the tests that cover it.

    pip install -e '.[test,mutation]'
    python -m tests.mutate                        # every module below (tens of minutes: not in CI)
    python -m tests.mutate events/random.py       # one or more of them
    python -m tests.mutate --list                 # the modules and their tests
    python -m tests.mutate --report               # the scores of the last runs (from .mutmut-cache)

mutmut (2.x) changes one module at a time in place and restores it after each mutant; run it in a clean
checkout (`git status` clean before and after; if a run is killed, `git checkout -- MODULE`). The results stay
in .mutmut-cache: `mutmut results` lists the survivors, `mutmut show ID` shows one. docs/testing.md records
the scores and the surviving mutants judged equivalent.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FOUNDATION = "tests/foundation/"

# Each module with the tests that cover it: its own tests, not distant replays (a promise pinned only by a
# replay of a recorded game is pinned weakly).
MODULES: dict[str, tuple[str, ...]] = {
    "events/codec.py": ("tests/foundation/test_codec.py", FOUNDATION + "test_hidden_hashes.py",
                        FOUNDATION + "test_store_contract.py"),
    "events/records.py": (FOUNDATION + "test_engine.py", FOUNDATION + "test_hidden_hashes.py",
                          FOUNDATION + "test_store_contract.py", FOUNDATION + "test_anchor.py"),
    "events/random.py": ("tests/vectors/", FOUNDATION + "test_dice.py"),
    "events/sqlite.py": (FOUNDATION + "test_store_contract.py", FOUNDATION + "test_idempotency.py",
                         FOUNDATION + "test_durability.py", FOUNDATION + "test_store_access.py"),
    "events/signing.py": (FOUNDATION + "test_anchor.py",),
    "adjudicator/randomness.py": (FOUNDATION + "test_dice.py", FOUNDATION + "test_randomness.py"),
    "adjudicator/verify.py": (FOUNDATION + "test_engine.py", FOUNDATION + "test_anchor.py",
                              FOUNDATION + "test_hidden_hashes.py", FOUNDATION + "test_import_atomic.py",
                              FOUNDATION + "test_dice.py"),
    "projections/fold.py": (FOUNDATION + "test_engine.py", FOUNDATION + "test_store_contract.py",
                            FOUNDATION + "test_durability.py", FOUNDATION + "test_bad_input.py"),
    "projections/views.py": (FOUNDATION + "test_engine.py", FOUNDATION + "test_hidden_hashes.py",
                             "tests/caldiero/test_fog_served.py"),
}


def runner(tests: tuple[str, ...]) -> str:
    """Stop at the first failure: a mutant is killed by any failing test."""
    present = [t for t in tests if (REPO / t).exists()]
    return f"{sys.executable} -m pytest -x -q -p no:cacheprovider -p no:randomly {' '.join(present)}"


def run(module: str) -> int:
    command = [sys.executable, "-m", "mutmut", "run", "--paths-to-mutate", module, "--runner", runner(MODULES[module])]
    print(f"== {module}: {command[-1]}", flush=True)
    # mutmut's exit status says whether mutants survived; the report below says which.
    return subprocess.run(command, cwd=REPO).returncode


def scores() -> dict[str, dict[str, int]]:
    """Mutant statuses per module, from mutmut's cache."""
    cache = REPO / ".mutmut-cache"
    if not cache.exists():
        return {}
    with sqlite3.connect(cache) as db:
        rows = db.execute("SELECT s.filename, m.status, count(*) FROM Mutant m JOIN Line l ON m.line = l.id "
                          "JOIN SourceFile s ON l.sourcefile = s.id GROUP BY s.filename, m.status").fetchall()
    out: dict[str, dict[str, int]] = {}
    for filename, status, n in rows:
        out.setdefault(filename, {})[status] = n
    return out


def report() -> None:
    for filename, by_status in sorted(scores().items()):
        killed = by_status.get("ok_killed", 0) + by_status.get("bad_timeout", 0)
        total = sum(by_status.values())
        print(f"{filename}: {killed}/{total} killed ({by_status})")


def main(argv: list[str]) -> int:
    if "--list" in argv:
        for module, tests in MODULES.items():
            print(f"{module}: {' '.join(tests)}")
        return 0
    if "--report" not in argv:
        unknown = [m for m in argv if m not in MODULES]
        if unknown:
            print(f"not a module this tool mutates: {', '.join(unknown)} (see --list)", file=sys.stderr)
            return 2
        for module in argv or list(MODULES):
            run(module)
    report()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
