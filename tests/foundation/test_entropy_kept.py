"""rev-q (nineteenth session): `arbitro entropy` keeps a seat's entropy in a file before committing to it ("a
commitment whose entropy is lost can never be revealed"), and deleted that file on any failure of the commit. A
failure after the store appended the commitment (the connection lost before the answer came back) then lost the
entropy of a recorded commitment: the seat could never reveal it (arbitro §R.2), and its round waited for the
umpire's waiver. The file is deleted only when the commit was refused (an arbitro error: nothing was appended)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.service import Arbitro

from .conftest import Cli


def test_the_entropy_of_a_commitment_recorded_before_a_failure_is_kept(
    run: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    run("new", "duel", "standard", "--id", "g", "--seat-entropy")
    entropy = Arbitro.entropy

    def lost_after_the_append(self: Arbitro, *args: Any) -> Any:
        entropy(self, *args)
        raise ConnectionResetError("the store's connection was lost before its answer")

    monkeypatch.setattr(Arbitro, "entropy", lost_after_the_append)
    with pytest.raises(AssertionError, match="ConnectionResetError"):  # the Cli fixture: not an arbitro error
        run("entropy", "g", "--as", "red")
    monkeypatch.setattr(Arbitro, "entropy", entropy)
    assert (tmp_path / "g.red.entropy").is_file(), "the entropy of the recorded commitment is kept"
    run("entropy", "g", "--as", "blue")
    run("entropy", "g", "--as", "blue")
    revealed = run.json("entropy", "g", "--as", "red")  # red reveals what it committed to
    assert revealed["events"][0]["event"]["entropy"] == (tmp_path / "g.red.entropy").read_text(encoding="utf-8")


def test_a_refused_commitment_leaves_no_file(run: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As before: a refusal appends nothing, and the file made for it goes."""
    monkeypatch.chdir(tmp_path)
    run("new", "duel", "standard", "--id", "g")  # no entropy round
    run("entropy", "g", "--as", "red", code=1)  # refused: no entropy round (arbitro §R.2)
    assert not (tmp_path / "g.red.entropy").exists()
