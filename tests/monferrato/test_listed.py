"""Issue 11, "Done when": README and `arbitro rulesets` list Monferrato."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from arbitro.cli import cli
from arbitro.projections.monferrato import MonferratoProjection

README = Path(__file__).resolve().parents[2] / "README.md"


def test_arbitro_rulesets_lists_monferrato_with_its_scenario_and_seats(tmp_path: Path) -> None:
    env = {"ARBITRO_DB": str(tmp_path / "games.db"), "ARBITRO_STORE": None}
    out = CliRunner().invoke(cli, ["rulesets", "--json"], env=env, prog_name="arbitro")
    assert out.exit_code == 0, out.output
    row = {r["name"]: r for r in json.loads(out.stdout)}["monferrato"]
    assert row["available"] and row["version"] == MonferratoProjection.version
    assert row["scenarios"]["1628"]["seats"] == ["pro_france", "pro_spain"]
    text = CliRunner().invoke(cli, ["rulesets"], env=env, prog_name="arbitro").stdout
    assert f"monferrato {MonferratoProjection.version}: La Seconda Guerra del Monferrato" in text


def test_the_readme_lists_monferrato_and_its_rulebook_page() -> None:
    rows = [line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith("| `monferrato` |")]
    assert len(rows) == 1 and "`1628`" in rows[0] and "docs/rulesets/monferrato.md" in rows[0]
