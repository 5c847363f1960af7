"""docs/rulesets/parabellum.md maps the difference catalogue onto the Variant: every data field and hook of the
kernel's Variant is in its table, and every member the table names exists (issue 18: each entry maps to exactly
one data field, hook or module)."""

from __future__ import annotations

import re
from pathlib import Path

from arbitro.adjudicator.parabellum.variant import Variant

DOC = Path(__file__).resolve().parents[2] / "docs" / "rulesets" / "parabellum.md"
ROW = re.compile(r"^\| (D\d+b?|§[\d.]+) \| `(\w+)` \| (hook|data) \|", re.M)


NAMES = ("book", "cite", "rules", "crt_name")


def members() -> dict[str, str]:
    """The Variant's public members: ClassVar data and hook methods (cite is a helper, book the citation prefix,
    rules the book's section numbers, crt_name the name its table reads record: names, no rule differences)."""
    out = {}
    for name, value in vars(Variant).items():
        if name.startswith("_") or name in NAMES:
            continue
        out[name] = "hook" if callable(value) else "data"
    out.update({n: "data" for n in Variant.__annotations__ if not n.startswith("_") and n not in NAMES})
    return out


def test_every_variant_member_is_in_the_catalogue_table_and_nothing_else() -> None:
    rows = {name: kind for _, name, kind in ROW.findall(DOC.read_text(encoding="utf-8"))}
    assert rows, "no catalogue rows found in docs/rulesets/parabellum.md"
    assert rows == members()


def test_each_member_appears_once() -> None:
    names = [name for _, name, _ in ROW.findall(DOC.read_text(encoding="utf-8"))]
    assert len(names) == len(set(names))
