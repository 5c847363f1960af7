"""The example report in docs/reports/ (shown in the README): Caricat!'s Pastrengo log told as the Italian player
saw it, in Markdown with its final map picture, checked current by tests/reports/test_report.py. After a deliberate
change to the reports, write it again with `python -m tests.reports.golden` and look at the difference."""

from __future__ import annotations

from pathlib import Path

from arbitro.adjudicator.cli_common import app_for
from arbitro.adjudicator.report import report
from arbitro.adjudicator.report_pages import to_markdown

REPO = Path(__file__).resolve().parents[2]
LOG, SEAT = REPO / "logs" / "caricat-pastrengo.jsonl", "italian"
EXAMPLE = REPO / "docs" / "reports" / "caricat-pastrengo-italian.md"
PICTURES = EXAMPLE.with_name(EXAMPLE.stem + "-pictures")


def example() -> tuple[str, dict[str, str]]:
    app, game = app_for(str(LOG), ":memory:")
    return to_markdown(report(app, game, SEAT, pictures="end"), PICTURES.name)


def main() -> None:
    text, files = example()
    PICTURES.mkdir(parents=True, exist_ok=True)
    for old in PICTURES.iterdir():
        old.unlink()
    for name, svg in files.items():
        (PICTURES / name).write_text(svg, encoding="utf-8")
    EXAMPLE.write_text(text, encoding="utf-8")
    print(f"wrote {EXAMPLE} and {len(files)} picture(s) in {PICTURES}")


if __name__ == "__main__":
    main()
