"""Every Arrivano reading (adjudicator/arrivano/data/interpretations.json) has exactly one row in the interpretation
table of docs/rulesets/arrivano.md (its name first, in backquotes): an umpire reads there what each choice does. Two
rows of one name (the fifteenth session found road_cost_scope and campotenese_setup_ranges twice) or none fail."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_each_reading_has_one_row_in_the_ruleset_document() -> None:
    names = [r["name"] for r in json.loads((ROOT / "adjudicator/arrivano/data/interpretations.json").read_text("utf-8"))[
        "interpretations"]]
    rows = Counter(m.group(1) for m in re.finditer(r"^\| `([a-z0-9_]+)` \|", (ROOT / "docs/rulesets/arrivano.md")
                                                     .read_text("utf-8"), re.MULTILINE))
    assert {n: rows[n] for n in names if rows[n] != 1} == {}
