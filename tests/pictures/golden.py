"""The golden map pictures (issue 13): each scenario's set-up as docs/pictures/<ruleset>-<scenario>.svg, checked
current by tests/pictures/test_golden.py. After a deliberate change to the pictures or to a scenario's data, write
them again with `python -m tests.pictures.golden` and look at the difference before committing it."""

from __future__ import annotations

from pathlib import Path

from arbitro.adjudicator.render import render
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "pictures"
# (ruleset, scenario, seat): Marengo's as Austria sees it, since France's At Start draw (marengo §4) is random and
# Austria sees only where the drawn blocks stand, face down
GOLDEN = [("caldiero", "historical", UMPIRE), ("caldiero", "il_tempo_regge", UMPIRE),
          ("arrivano", "montebello", UMPIRE), ("arrivano", "campotenese", UMPIRE),
          ("caricat", "pastrengo", UMPIRE), ("caricat", "montebello", UMPIRE), ("marengo", "marengo", "austria"),
          ("monferrato", "1628", UMPIRE)]


def path(ruleset: str, scenario: str) -> Path:
    return FOLDER / f"{ruleset}-{scenario}.svg"


def picture(ruleset: str, scenario: str, seat: str) -> str:
    app = Arbitro(SQLiteStore(":memory:"))
    return render(app, app.create(ruleset, scenario), seat).svg


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for ruleset, scenario, seat in GOLDEN:
        path(ruleset, scenario).write_text(picture(ruleset, scenario, seat), encoding="utf-8")
        print(f"wrote {path(ruleset, scenario)}")


if __name__ == "__main__":
    main()
