"""`arbitro remote` against a server that does not answer as arbitro's does (rev-r, twentieth session): a redirect (a
proxy sending http to https), JSON of another shape (a list, a string, an object without the fields), a wrong error
body. Each is the remote/unreachable error naming what was asked, exit status 4 (cli_remote.UNREACHABLE_EXIT): never
a traceback, never the user's input blamed (input/bad, exit 2), never an export written from what is not one.
Every command of the `remote` group is walked, so that a command added later is held to the same."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner, Result

from arbitro.adjudicator import cli_remote_client
from arbitro.adjudicator.cli_remote import UNREACHABLE_EXIT, remote
from arbitro.cli import cli

URL = "http://arbitro.test"
ARGS = {"submit": ["g", '{"type": "end_turn"}'], "register-key": ["g", "ab" * 32],  # else GAME alone
        "withdraw-key": ["g", "--seat", "red", "--reason", "lost"],
        "annotate": ["g", "a note", "--at", "1"], "undo": ["g", "--to", "0"], "consent": ["g", "--accept"],
        "fork": ["g", "--at", "1"], "amend": ["g", '{"type": "end_turn"}', "--at", "1"],
        "dispute": ["open", "g", "a claim", "--at", "1"], "roll": ["g", "1"]}
COMMANDS = sorted(remote.commands)
JSON = {"Content-Type": "application/json"}
Answer = Callable[[httpx.Request], httpx.Response]

ANSWERS: dict[str, Answer] = {
    "redirect": lambda r: httpx.Response(302, headers={"Location": "https://arbitro.test/games/g"}),
    "a list": lambda r: httpx.Response(200, json=[1, 2]),
    "a string": lambda r: httpx.Response(200, json="x"),
    "an empty object": lambda r: httpx.Response(200, json={}),
    "items of another shape": lambda r: httpx.Response(200, json=[1] if r.url.path.endswith("legal") else [{}]
                                                       if r.url.path.endswith("events") else {"head": "x", "state": 3}),
}


def run(monkeypatch: pytest.MonkeyPatch, answer: Answer, *args: str) -> Result:
    monkeypatch.setattr(cli_remote_client.httpx, "Client", functools.partial(httpx.Client,
                                                                      transport=httpx.MockTransport(answer)))
    return CliRunner().invoke(cli, ["remote", *args], prog_name="arbitro",
                              env={"ARBITRO_SERVER": URL, "ARBITRO_TOKEN": "a-token"})


@pytest.mark.parametrize("answer", sorted(ANSWERS))
@pytest.mark.parametrize("command", COMMANDS)
def test_an_answer_not_arbitros_is_unreachable_not_a_traceback(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                               command: str, answer: str) -> None:
    written = tmp_path / "out.jsonl"
    extra = ["-o", str(written)] if command == "export" else []
    result = run(monkeypatch, ANSWERS[answer], command, *ARGS.get(command, ["g"]), *extra)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == UNREACHABLE_EXIT, result.output
    assert result.stderr.startswith(f"error (remote/unreachable): {URL}"), result.stderr
    assert "a-token" not in result.output and not written.exists()


def test_a_redirect_names_where_it_points_and_is_not_followed(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        return ANSWERS["redirect"](request)

    result = run(monkeypatch, answer, "status", "g")
    assert asked == [f"{URL}/games/g"], "the token goes to --server alone"
    assert "HTTP 302, a redirect to https://arbitro.test/games/g" in result.stderr
    assert result.exit_code == UNREACHABLE_EXIT


def test_a_wrong_error_body_is_unreachable(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error body whose code is not a string (a list) is not arbitro's error: not printed as 'error (['a'])'."""
    body = json.dumps({"error": ["a"], "message": {"x": 1}}).encode()
    result = run(monkeypatch, lambda r: httpx.Response(400, content=body, headers=JSON), "status", "g")
    assert result.exit_code == UNREACHABLE_EXIT and result.stderr.startswith("error (remote/unreachable)"), result.stderr


def test_a_servers_words_print_literally(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error's message is printed with its control characters escaped (cli_common.printable): a server's words
    cannot retitle or clear the user's terminal, nor write its clipboard."""
    body = json.dumps({"error": "lookup/no-such-game", "message": "no game\x1b]0;owned\x07\x1b[2J"}).encode()
    result = run(monkeypatch, lambda r: httpx.Response(404, content=body, headers=JSON), "status", "g")
    assert result.exit_code == 3 and "\x1b" not in result.stderr and "\\x1b]0;owned" in result.stderr, result.stderr


def committing(posted: httpx.Response) -> Answer:
    """A server whose entropy round awaits red's commitment, answering the commitment with POSTED."""
    def answer(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            return posted
        if request.url.path.endswith("/seat"):  # the token's seat
            return httpx.Response(200, json={"game": "g", "seat": "red"})
        return httpx.Response(200, json=[{"type": "commit_entropy", "commitment": "<sha256 of your entropy>"}])
    return answer


@pytest.mark.parametrize(("posted", "kept", "code"), [
    (httpx.Response(400, json={"error": "store/error", "message": "the connection was lost"}), True, 2),
    (httpx.Response(500, json={"error": "store/corrupt", "message": "cannot write"}), True, 2),
    (httpx.Response(503, json={"error": "store/read-only", "message": "read-only"}), True, 2),
    (httpx.Response(500, json={"error": "server/newer-kind", "message": "?"}), True, 2),
    (httpx.Response(422, json={"error": "rules/illegal", "message": "not now", "rule": "arbitro §R.2"}), False, 1),
    (httpx.Response(409, json={"error": "store/stale-sequence", "message": "moved", "head": 3}), False, 2),
], ids=["store-error", "corrupt", "read-only", "unknown-code", "illegal", "stale"])
def test_the_entropy_of_a_commitment_a_server_may_have_recorded_is_kept(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, posted: httpx.Response, kept: bool, code: int) -> None:
    """rev-r: `remote entropy` deleted its entropy file on any error the server answered. A store's failure may follow
    the append (rev-q's Q8: a PostgreSQL connection lost at the commit), and the server answers it with arbitro's
    error body: the commitment may be recorded, and its entropy, deleted, could never be revealed (arbitro §R.2). As
    the local `arbitro entropy` (cli_dice.REFUSED), only a refusal, after which nothing was appended, deletes it."""
    keep = tmp_path / "red.entropy"
    result = run(monkeypatch, committing(posted), "entropy", "g", "--file", str(keep))
    assert keep.exists() is kept, result.output
    assert result.exit_code == code, result.output
    assert (str(keep) in result.stderr) is kept, result.stderr


def test_a_seat_that_is_no_plain_name_names_no_file_here(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """rev-s S4: `remote entropy` keeps its entropy in GAME.SEAT.entropy, SEAT the server's word: "x/../../y" named a
    file outside the working directory (read and sent as the entropy where one was there). A seat is a plain name."""
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(f"{request.method} {request.url.path}")
        return httpx.Response(200, json={"game": "g", "seat": "x/../../y"})

    monkeypatch.chdir(tmp_path)
    (tmp_path / "g.x").mkdir()
    result = run(monkeypatch, answer, "entropy", "g")
    assert result.exit_code == UNREACHABLE_EXIT, result.output
    assert "answered a seat that is no plain name, 'x/../../y'" in result.stderr, result.stderr
    assert asked == ["GET /games/g/seat"] and sorted(p.name for p in tmp_path.iterdir()) == ["g.x"]


def test_an_error_code_holding_a_control_character_is_not_arbitros(monkeypatch: pytest.MonkeyPatch) -> None:
    """reread-c: the error's code is printed as it came ('error (CODE): ...', cli_common.handle_errors), and an ESC in
    it reached the user's terminal although the message beside it was escaped: a code is a stable name, so one that
    is not printable is no error body of arbitro's (remote/unreachable), and nothing of it is printed."""
    body = json.dumps({"error": "lookup/x\x1b]0;owned\x07", "message": "no game"}).encode()
    result = run(monkeypatch, lambda r: httpx.Response(404, content=body, headers=JSON), "status", "g")
    assert result.exit_code == UNREACHABLE_EXIT and "\x1b" not in result.stderr, result.stderr
    assert result.stderr.startswith(f"error (remote/unreachable): {URL} answered HTTP 404 without"), result.stderr


def test_a_streams_error_code_holding_a_control_character_is_not_arbitros(monkeypatch: pytest.MonkeyPatch) -> None:
    """reread-c: the live stream's "error" message (`remote follow`) is read by the same check as a refusal's body
    (cli_remote_client.is_error_body): its code, printed as it came, cannot carry an ESC to the user's terminal."""
    stream = 'event: error\ndata: {"error": "auth/x\\u001b]0;owned\\u0007", "message": "gone"}\n\n'.encode()
    result = run(monkeypatch, lambda r: httpx.Response(200, content=stream, headers={
        "Content-Type": "text/event-stream"}), "follow", "g")
    assert result.exit_code == UNREACHABLE_EXIT and "\x1b" not in result.stderr, result.stderr
    assert result.stderr.startswith("error (remote/unreachable): the stream sent an error without"), result.stderr
