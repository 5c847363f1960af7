#!/usr/bin/env python
"""The figures of issue 18 ("one Para Bellum kernel"), measured on the tree this runs in:

    .venv/bin/python bench/kernel_metrics.py            # a table, each figure beside its target
    .venv/bin/python bench/kernel_metrics.py --json     # the same figures for scripts

Lines are physical lines of Python (blank and comment lines included, as `wc -l` counts them). A variant's own
lines are its package under adjudicator/ plus its events/ and projections/ modules; the kernel's are
adjudicator/parabellum/ plus events/parabellum.py and projections/parabellum.py. Cycles, upward and function-level
imports come from the ranked import graph of tests/foundation/test_import_graph.py; game reads in the kernel from
the scanner of tests/parabellum/test_kernel.py. "Submit reads and folds" is not measured here: it is a test
(tests/foundation, see docs/architecture.md). docs/architecture.md explains each figure.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.foundation.test_import_graph import MODULES, cycles, graph, imports, rank  # noqa: E402
from tests.parabellum.test_kernel import game_reads  # noqa: E402

VARIANTS = ("caldiero", "arrivano")
KERNEL = "parabellum"
MAX_MODULE_LINES = 600
# The pending-decision mechanisms the engine's stack replaced (issue 18), by the event class that marked each: all
# gone; kept here so that one coming back is counted again.
OTHER_MECHANISMS = {
    "EnginePending": "the engine's own pending list",
    "CombatStageSet": "Caldiero's combat stages",
    "DecisionAwaited": "Caldiero's frames",
    "PendingSet": "Arrivano's frames",
}


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def game_files(game: str) -> list[Path]:
    """A ruleset's (or the kernel's) Python: its adjudicator package, its events and projections modules."""
    files = sorted((ROOT / "adjudicator" / game).rglob("*.py"))
    files += [p for p in (ROOT / "events" / f"{game}.py", ROOT / "projections" / f"{game}.py") if p.exists()]
    return files


def top_level_names(files: list[Path]) -> set[str]:
    """Functions, classes and module-level constants a game defines (private names included: a copy is a copy)."""
    names: set[str] = set()
    for path in files:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name) and t.id.isupper())
    return names


def mechanisms() -> list[str]:
    """The decision mechanisms in use: the engine's stack, plus every other whose mark is still defined."""
    found = ["the engine's decision stack"]
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name in OTHER_MECHANISMS:
                found.append(f"{OTHER_MECHANISMS[node.name]} ({path.relative_to(ROOT)}:{node.name})")
    return found


@dataclass
class Figures:
    import_cycles: int
    function_level_imports: int
    upward_imports: int
    kernel_lines: int
    caldiero_lines: int
    arrivano_lines: int
    parabellum_lines: int
    kernel_share_percent: float
    game_reads_in_kernel: int
    names_in_both_variants: list[str]
    decision_mechanisms: list[str]
    modules_over_600: list[str]


def measure() -> Figures:
    edges = graph()
    local = sum(1 for p in MODULES.values() for _, inside in imports(p) if inside)
    upward = sum(1 for m, targets in edges.items() for t in targets if rank(t) > rank(m))
    per_game = {g: sum(lines(p) for p in game_files(g)) for g in (*VARIANTS, KERNEL)}
    total = sum(per_game.values())
    reads = sum(len(game_reads(p.read_text(encoding="utf-8"), p.name)) for p in game_files(KERNEL))
    both = top_level_names(game_files("caldiero")) & top_level_names(game_files("arrivano"))
    big = sorted(f"{p.relative_to(ROOT)} ({lines(p)})" for p in MODULES.values() if lines(p) > MAX_MODULE_LINES)
    return Figures(
        import_cycles=len(cycles(edges)), function_level_imports=local, upward_imports=upward,
        kernel_lines=per_game[KERNEL], caldiero_lines=per_game["caldiero"], arrivano_lines=per_game["arrivano"],
        parabellum_lines=total, kernel_share_percent=round(100 * per_game[KERNEL] / total, 1),
        game_reads_in_kernel=reads, names_in_both_variants=sorted(both), decision_mechanisms=mechanisms(),
        modules_over_600=big)


def table(f: Figures) -> str:
    rows = [
        ("import cycles", f.import_cycles, "0"),
        ("function-level imports of project modules", f.function_level_imports, "0"),
        ("upward imports", f.upward_imports, "0"),
        ("kernel share of Para Bellum lines (%)", f.kernel_share_percent, ">= 55"),
        ("kernel lines (adjudicator/parabellum + events, projections)", f.kernel_lines, ""),
        ("Caldiero's own lines", f.caldiero_lines, "<= 1,400"),
        ("Arrivano's own lines", f.arrivano_lines, "<= 2,400"),
        ("all Para Bellum lines", f.parabellum_lines, "<= 9,000"),
        ("game or flag reads in the kernel", f.game_reads_in_kernel, "0"),
        ("names defined in both variants", len(f.names_in_both_variants), "0"),
        ("decision mechanisms", len(f.decision_mechanisms), "1"),
        ("modules over 600 lines", len(f.modules_over_600), "0"),
    ]
    out = [f"{'figure':<62} {'now':>8}  target"]
    out += [f"{name:<62} {value!s:>8}  {target}" for name, value, target in rows]
    if f.names_in_both_variants:
        out.append("\nnames in both variants: " + ", ".join(f.names_in_both_variants))
    if len(f.decision_mechanisms) > 1:
        out.append("decision mechanisms: " + "; ".join(f.decision_mechanisms))
    if f.modules_over_600:
        out.append("modules over 600 lines: " + ", ".join(f.modules_over_600))
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures = measure()
    print(json.dumps(asdict(figures), indent=2) if args.json else table(figures))


if __name__ == "__main__":
    main()
