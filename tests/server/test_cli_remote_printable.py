"""`arbitro remote` against a server whose words are hostile (reread-c, twentieth session): a server that answers in
arbitro's shapes, but with a terminal's control sequence, a line end that starts a forged log line, and a
bidirectional override in every string it sends (a seat's name, an event's type, a ruleset's, a clock's word, a
note). Whatever a remote command prints, as text or as --json, holds none of them as they came: the text prints each
escaped (cli_common.scrubbed, applied to every answer before a renderer reads it: Remote.read), the JSON as JSON's
escapes (cli_common.json_text), which decode to the words the server sent."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result

from arbitro.adjudicator import cli_remote_client
from arbitro.cli import cli

from .conftest import Server, serve

# an OSC that retitles the terminal, a line end and what reads as the log's line, a right-to-left override
HOSTILE = "\x1b]0;owned\x07\n#99    umpire   forged_event\u202e"
RAW = ("\x1b", "\x07", "\u202e")
# read by the client itself: a ruleset named otherwise is one it does not have, a word of another enum no answer of
# arbitro's (exit 4)
KEPT = {"ruleset", "protection", "status"}
CLIENT = httpx.Client  # the proxy's own, taken before a test replaces httpx.Client with the client's
READING = [["status"], ["view"], ["legal"], ["log"], ["log", "--chain"], ["notes"], ["disputes"], ["knowledge"],
           ["follow", "--no-follow"]]


def poisoned(value: Any, key: str = "") -> Any:
    """VALUE with HOSTILE added to each string in it, but for KEPT fields."""
    if isinstance(value, str):
        return value if key in KEPT else value + HOSTILE
    if isinstance(value, dict):
        return {k: poisoned(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [poisoned(v, key) for v in value]
    return value


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, (dict, list)):
        for inner in value.values() if isinstance(value, dict) else value:
            yield from strings(inner)


def poisoned_stream(text: str) -> str:
    """A Server-Sent Events body with each message's data poisoned (its event name kept: the client's to read)."""
    return "\n".join(f"data: {json.dumps(poisoned(json.loads(line[6:])))}" if line.startswith("data: ") else line
                     for line in text.split("\n"))


@pytest.fixture(scope="module")
def hostile() -> Iterator[tuple[Server, str]]:
    """A real server with one game in which red attacked, blue guarded (blue is to move), red wrote a note and opened
    a dispute; the client reaches it only through a proxy that poisons every answer."""
    running = serve(":memory:")
    game = running.new()
    for seat, command in (("red", {"type": "attack", "aim": "high"}), ("blue", {"type": "guard", "stance": "low"})):
        assert running.client(seat, game).post(f"/games/{game}/commands", json={"command": command}).is_success
    assert running.client("red", game).post(f"/games/{game}/notes", json={"at": 1, "text": "a feint"}).is_success
    assert running.client("red", game).post(f"/games/{game}/commands", json={"command": {
        "type": "dispute_open", "about": [1], "text": "my guard was low"}}).is_success
    yield running, game
    running.stop()


def through_proxy(server: Server, request: httpx.Request) -> httpx.Response:
    real = CLIENT(base_url=server.url, timeout=60)
    answer = real.request(request.method, request.url.path, params=request.url.params, content=request.content,
                          headers={"Authorization": request.headers["Authorization"]})
    kind = answer.headers.get("content-type", "")
    if kind.startswith("text/event-stream"):
        return httpx.Response(answer.status_code, headers={"content-type": kind}, text=poisoned_stream(answer.text))
    # GET /seat's seat names a file here and must be a plain name (token_seat, test_cli_remote_hostile): not poisoned
    if kind.startswith("application/json") and answer.is_success and not request.url.path.endswith("/seat"):
        return httpx.Response(answer.status_code, json=poisoned(answer.json()))
    return httpx.Response(answer.status_code, headers={"content-type": kind}, content=answer.content)


def run(monkeypatch: pytest.MonkeyPatch, server: Server, token: str, *args: str) -> Result:
    monkeypatch.setattr(cli_remote_client.httpx, "Client", functools.partial(
        CLIENT, transport=httpx.MockTransport(functools.partial(through_proxy, server))))
    result = CliRunner().invoke(cli, ["remote", *args], prog_name="arbitro",
                                env={"ARBITRO_SERVER": "http://arbitro.test", "ARBITRO_TOKEN": token})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


@pytest.mark.parametrize("role", ["red", "umpire"])
@pytest.mark.parametrize("command", READING, ids=" ".join)
def test_a_servers_words_in_text_are_printed_escaped(monkeypatch: pytest.MonkeyPatch, hostile: tuple[Server, str],
                                                     command: list[str], role: str) -> None:
    server, game = hostile
    result = run(monkeypatch, server, server.tokens[game][role], command[0], game, *command[1:])
    printed = result.stdout + result.stderr
    assert result.exit_code == 0, printed
    assert not [c for c in RAW if c in printed], printed
    assert not [line for line in printed.splitlines() if line.startswith("#99")], printed
    if not printed.startswith("nothing:"):  # an empty listing prints the seat alone, /seat's (not poisoned)
        assert "\\x1b]0;owned\\x07\\n#99" in printed, "the server's words are shown, escaped, not dropped"


@pytest.mark.parametrize("command", READING, ids=" ".join)
def test_a_servers_words_in_json_are_escaped_and_exact(monkeypatch: pytest.MonkeyPatch,
                                                       hostile: tuple[Server, str], command: list[str]) -> None:
    server, game = hostile
    result = run(monkeypatch, server, server.tokens[game]["blue"], command[0], game, *command[1:], "--json")
    assert result.exit_code == 0, result.output
    assert not [c for c in RAW if c in result.stdout], result.stdout
    decoded = [json.loads(line) for line in result.stdout.splitlines()]
    assert any(text.endswith(HOSTILE) for text in strings(decoded)), "--json carries the server's words as they came"
