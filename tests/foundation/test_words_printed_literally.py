"""rev-r (twentieth session): words one party writes and another reads in a terminal (a seat's note, a dispute's claim,
a reveal's reason in its event) are printed literally. A note holding a line end printed a line of the reader's
`arbitro log` that reads as an event of the log ("#2 blue surrendered"), which a dispute may rest on; an ESC began
a control sequence of the reader's terminal (OSC 52 writes its clipboard; cursor moves print over what the log
said); a bidirectional override reversed what followed. cli_common.printable writes each as its escape."""

from __future__ import annotations

import pytest

from .conftest import Cli

FORGED = "#2     blue     surrendered            seat=blue (duel §9)"
WORDS = f"fine\n{FORGED}\x1b]52;c;ZWNobyBoaQ==\x07\x1b[1A\u202eevil"


def shown_literally(output: str) -> None:
    assert FORGED not in output.splitlines(), "a line of the log forged"
    assert not {"\x1b", "\x07", "\u202e"} & set(output), "a terminal's control character printed"
    assert "\\n#2" in output and "\\x1b]52" in output and "\\u202eevil" in output, output


@pytest.fixture
def game(run: Cli) -> str:
    run("new", "duel", "standard", "--id", "g")
    run.submit("g", "red", {"type": "attack", "aim": "high"})
    return "g"


@pytest.mark.parametrize("reader", [("log", "g", "--as", "blue"), ("log", "g"), ("view", "g", "--as", "blue")])
def test_a_note_reads_literally(run: Cli, game: str, reader: tuple[str, ...]) -> None:
    run("annotate", game, WORDS, "--as", "red", "--at", "1")
    shown_literally(run(*reader).stdout)


def test_a_claim_reads_literally(run: Cli, game: str) -> None:
    run("dispute", "open", game, WORDS, "--as", "red", "--at", "1")
    shown_literally(run("disputes", game).stdout)


def test_an_events_words_read_literally(run: Cli, game: str) -> None:
    run("reveal", game, "--reason", WORDS, "--expose-hidden")
    shown_literally(run("log", game, "--as", "blue").stdout)
