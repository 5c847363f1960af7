"""Issue 18's figures (bench/kernel_metrics.py, docs/architecture.md) never get worse than the last recorded ones:
each bound below is the figure when it was last lowered, so a change that adds a copy to both variants, a module
over 600 lines or a new pending-decision mechanism fails here. Lower a bound when the work lowers the figure."""

from __future__ import annotations

from bench.kernel_metrics import measure

# The recorded bounds (2026-11-29: names in both variants 0, Caldiero plays on the kernel World); the targets are 0, 0, 1 and 55 %.
MAX_NAMES_IN_BOTH_VARIANTS = 0
MAX_DECISION_MECHANISMS = 1
OVERSIZE_MODULES: set[str] = set()
MIN_KERNEL_SHARE_PERCENT = 57.2  # issue 18: 57.4 % in the twenty-second session (57.0 % at the twenty-first; target 55 %)


def test_issue_18_figures_do_not_regress() -> None:
    f = measure()
    assert f.game_reads_in_kernel == 0
    assert len(f.names_in_both_variants) <= MAX_NAMES_IN_BOTH_VARIANTS, f.names_in_both_variants
    assert len(f.decision_mechanisms) <= MAX_DECISION_MECHANISMS, f.decision_mechanisms
    oversize = {m.rsplit(" (", 1)[0] for m in f.modules_over_600}
    assert oversize <= OVERSIZE_MODULES, f"new modules over 600 lines: {sorted(oversize - OVERSIZE_MODULES)}"
    assert f.kernel_share_percent >= MIN_KERNEL_SHARE_PERCENT


def test_the_figures_see_what_they_measure() -> None:
    """The measure counts real things: both variants and the kernel have lines, the shared citation names are seen."""
    f = measure()
    assert f.caldiero_lines > 0 and f.arrivano_lines > 0 and f.kernel_lines > 0
    assert f.parabellum_lines == f.caldiero_lines + f.arrivano_lines + f.kernel_lines
    assert f.decision_mechanisms[0] == "the engine's decision stack"
