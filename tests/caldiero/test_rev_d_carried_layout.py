"""rev-d (review of k-data's 6e9f5d3): a stored game that carries its own data folder (`arbitro new caldiero
historical --data DIR`, made before the layout change) must still be verifiable: verify reports its failed checks,
it does not stop with a data error telling the auditor to move files that exist only inside the game's genesis.

The fixture is a real export made with main at e9ba9c3 (before 6e9f5d3): `arbitro new caldiero historical --data
<the then shipped flat folder> --id cold --no-seat-entropy`, one `place` submitted, `arbitro export cold`."""

from __future__ import annotations

import gzip
from pathlib import Path

from arbitro.adjudicator.exchange import read_lines
from arbitro.adjudicator.verify import verify

FIXTURE = Path(__file__).parent / "fixtures" / "caldiero-flat-data-e9ba9c3.jsonl.gz"


def test_a_log_carrying_a_folder_in_the_old_flat_layout_is_verified_not_refused() -> None:
    lines = gzip.decompress(FIXTURE.read_bytes()).decode("utf-8").splitlines()
    report = verify(read_lines(lines, FIXTURE.name))  # on main: raises DataError ("move it to tables/crt.json")
    assert not report.passed
    assert any(c.status == "failed" for c in report.checks)
