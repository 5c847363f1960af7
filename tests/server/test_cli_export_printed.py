"""An export printed on the terminal (`arbitro export GAME`, `arbitro remote export GAME`, no -o) holds no character
a terminal acts on as it came (rev-s S6): a note's right-to-left override or line separator, a C1 control, and a
hostile server's raw ESC are printed as JSON's \\u escapes, so each line still decodes to the same record (the
seal and the hashes are over the decoded records: the printed export, redirected to a file, still verifies)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from arbitro.adjudicator import cli_remote_client
from arbitro.cli import cli

WORDS = "ok \u202eevil\u2028x \x9b31m"  # bidi override, line separator, C1 CSI: all valid raw in a JSON string
RAW = ("\x1b", "\u202e", "\u2028", "\x9b")


def test_a_local_export_on_the_terminal_prints_a_notes_controls_escaped(tmp_path: Path) -> None:
    db, runner = str(tmp_path / "t.db"), CliRunner()
    assert runner.invoke(cli, ["new", "marengo", "marengo", "--db", db, "--id", "g", "--no-seat-entropy"]).exit_code == 0
    assert runner.invoke(cli, ["annotate", "g", WORDS, "--db", db, "--as", "umpire", "--at", "1"]).exit_code == 0
    printed = runner.invoke(cli, ["export", "g", "--db", db]).stdout
    assert not [c for c in RAW if c in printed]
    (note,) = [json.loads(line) for line in printed.splitlines() if '"annotation"' in line]
    assert WORDS in json.dumps(note, ensure_ascii=False)  # the same words, decoded
    (tmp_path / "g.jsonl").write_text(printed, encoding="utf-8")
    checked = runner.invoke(cli, ["verify", str(tmp_path / "g.jsonl")])
    assert checked.exit_code == 0, checked.output


def test_a_hostile_servers_export_on_the_terminal_prints_no_escape_sequence(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [json.dumps({"record": "game", "id": "g"}), '{"record": "x", "text": "\x1b]52;c;cHduZWQ=\x07\x1b[2J"}']
    answer = functools.partial(httpx.Client, transport=httpx.MockTransport(
        lambda r: httpx.Response(200, text="\n".join(lines) + "\n")))
    monkeypatch.setattr(cli_remote_client.httpx, "Client", answer)
    result = CliRunner().invoke(cli, ["remote", "export", "g"], env={"ARBITRO_SERVER": "http://arbitro.test",
                                                                     "ARBITRO_TOKEN": "a-token"})
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout and "\\u001b]52" in result.stdout
