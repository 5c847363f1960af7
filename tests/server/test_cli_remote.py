"""`arbitro remote` (adjudicator/cli_remote.py): the CLI as a client of a real server, holding only a token. What a
seat reads remotely is what the local CLI shows that seat from the database (`--as SEAT`), byte for byte; a command
the rules refuse exits as it does locally, with the same words; a bad token is "refused", never echoed; a server
that cannot be reached names its URL and exits 4."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result

from arbitro.adjudicator import cli_remote, cli_remote_client
from arbitro.adjudicator.cli_remote import UNREACHABLE_EXIT
from arbitro.events import signing
from arbitro.cli import cli

from .conftest import Server, serve


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    """One server for the module, over a database file the local CLI reads too."""
    path = tmp_path_factory.mktemp("remote") / "served.db"
    running = serve(path)
    yield running, path
    running.stop()


def local(db: Path, *args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, list(args), env={"ARBITRO_DB": str(db), "ARBITRO_STORE": None},
                                prog_name="arbitro")
    assert result.exit_code == code, result.output
    return result


def remote(server: Server, token: str, *args: str, code: int = 0, url: str | None = None) -> Result:
    result = CliRunner().invoke(cli, ["remote", *args], prog_name="arbitro",
                                env={"ARBITRO_SERVER": url or server.url, "ARBITRO_TOKEN": token})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == code, result.output
    return result


@pytest.mark.parametrize("command", ["status", "view", "legal", "log"])
def test_a_seat_reads_remotely_what_the_local_cli_shows_it(served: tuple[Server, Path], command: str) -> None:
    server, db = served
    game = server.new()
    for seat in ("red", "blue"):  # each holds a hidden card: each is shown its own only
        token = server.tokens[game][seat]
        for flags in ((), ("--json",)):
            here = local(db, command, game, "--as", seat, *flags).stdout
            assert remote(server, token, command, game, *flags).stdout == here, (command, seat, flags)


def test_remote_status_asks_the_clock_not_the_whole_view(served: tuple[Server, Path],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The status text's clock line (turn, phase, ...) comes from GET /clock, the seat view's clock fields alone: the
    whole view was fetched and sent for it. The text is still the local one's, byte for byte."""
    server, db = served
    game = server.new()
    asked: list[str] = []
    client = httpx.Client

    def recorded(*args: Any, **kwargs: Any) -> httpx.Client:
        kwargs.setdefault("event_hooks", {"request": [lambda request: asked.append(request.url.path)]})
        return client(*args, **kwargs)

    monkeypatch.setattr(cli_remote_client.httpx, "Client", recorded)
    for seat in ("red", "umpire"):
        asked.clear()
        there = remote(server, server.tokens[game][seat], "status", game).stdout
        assert there == local(db, "status", game, "--as", seat).stdout
        assert asked == [f"/games/{game}", f"/games/{game}/clock"], asked
    assert "round 1/6" in remote(server, server.tokens[game]["red"], "status", game).stdout.splitlines()


def test_a_seat_plays_and_exports_remotely(served: tuple[Server, Path], tmp_path: Path) -> None:
    server, db = served
    game = server.new()
    red = server.tokens[game]["red"]
    answer = json.loads(remote(server, red, "submit", game, '{"type": "attack", "aim": "high"}', "--json").stdout)
    assert answer["cmd"] == 1 and answer["awaiting"]["seats"] == ["blue"]
    assert remote(server, red, "log", game).stdout == local(db, "log", game, "--as", "red").stdout
    written = json.loads(remote(server, red, "export", game, "-o", str(tmp_path / "red.jsonl"), "--json").stdout)
    assert (tmp_path / "red.jsonl").read_text(encoding="utf-8") == local(db, "export", game, "--as", "red").stdout
    assert written == {"file": str(tmp_path / "red.jsonl"), "records": written["records"]}


def test_a_refused_command_exits_as_it_does_locally(served: tuple[Server, Path]) -> None:
    server, db = served
    game = server.new()
    command = '{"type": "end_turn"}'  # blue's, while red is to move
    here = local(db, "submit", game, "--as", "blue", command, code=1)
    there = remote(server, server.tokens[game]["blue"], "submit", game, command, code=1)
    assert there.stderr == here.stderr and there.stderr.startswith("error (turn/")
    as_json = remote(server, server.tokens[game]["blue"], "submit", game, command, "--json", code=1)
    assert json.loads(as_json.stdout) == json.loads(local(db, "submit", game, "--as", "blue", command, "--json",
                                                          code=1).stdout)


def test_an_unknown_game_exits_not_found(served: tuple[Server, Path]) -> None:
    """Another game's token is refused (403, it learns nothing), as is a game id no token of this server holds."""
    server, _ = served
    game = server.new()
    answer = remote(server, server.tokens[game]["umpire"], "status", "no-such-game", "--json", code=2)
    assert json.loads(answer.stdout)["error"] == "auth/forbidden"


def test_a_bad_token_is_refused_and_never_echoed(served: tuple[Server, Path]) -> None:
    server, _ = served
    game = server.new()
    secret = "not-a-token-of-this-server-0123456789"
    answer = remote(server, secret, "status", game, code=2)
    assert answer.stderr.startswith("error (auth/unauthenticated): the token was refused by " + server.url)
    assert secret not in answer.output
    assert secret not in remote(server, secret, "view", game, "--json", code=2).output


@pytest.mark.parametrize("around", ["\r", "\n", " ", "\u00e9"])
def test_a_token_no_header_can_carry_is_refused_unprinted(served: tuple[Server, Path], around: str) -> None:
    """A token read from a file with a Windows line end (or any character a header may not carry): httpx's
    refusal quoted the whole Authorization header, the token in it, as the reason the server could not be reached
    (reread-a). Now refused before any request, in words, exit 2, the token never printed."""
    server, _ = served
    game = server.new()
    secret = server.tokens[game]["red"]
    answer = remote(server, secret + around, "status", game, code=2)
    assert answer.stderr.startswith("error (input/bad): the token (--token or $ARBITRO_TOKEN) holds "), answer.stderr
    assert secret not in answer.output


def test_a_server_down_names_its_url_and_exits_four(served: tuple[Server, Path]) -> None:
    with socket.socket() as probe:  # a port nothing listens on: bound, never listening
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}"
        answer = remote(served[0], "t0ken-never-shown", "status", "g", url=url, code=UNREACHABLE_EXIT)
    assert answer.stderr.startswith(f"error (remote/unreachable): cannot reach the arbitro server at {url}: ")
    assert "t0ken-never-shown" not in answer.output


def test_the_log_carries_notes_and_voided_events_as_locally(served: tuple[Server, Path]) -> None:
    """A seat's note beneath the command it is about, and the commands its undo voided marked, as `arbitro log`."""
    server, db = served
    game = server.new()
    red = server.client("red", game)
    assert red.post(f"/games/{game}/commands", json={"command": {"type": "attack", "aim": "low"}}).status_code == 200
    assert red.post(f"/games/{game}/notes", json={"at": 1, "text": "feint", "private": False}).status_code == 201
    assert red.post(f"/games/{game}/undo", json={"to": 0, "reason": "misclick"}).status_code == 200
    for seat in ("red", "blue", "umpire"):
        for flags in ((), ("--json",), ("--from", "1", "--to", "1")):
            here = local(db, "log", game, "--as", seat, *flags).stdout
            assert remote(server, server.tokens[game][seat], "log", game, *flags).stdout == here, (seat, flags)
    shown = remote(server, server.tokens[game]["red"], "log", game).stdout
    assert "note 1 on #1 by red: feint" in shown and "VOIDED by the undo at #2" in shown, shown


def test_the_umpire_reads_as_a_seat_and_a_seat_only_as_itself(served: tuple[Server, Path]) -> None:
    server, db = served
    game = server.new()
    umpire, red = server.tokens[game]["umpire"], server.tokens[game]["red"]
    for command in ("view", "legal"):  # the server's status is the token's own (GET /games/{id} takes no seat=)
        here = local(db, command, game, "--as", "blue", "--json").stdout
        assert remote(server, umpire, command, game, "--as", "blue", "--json").stdout == here, command
        here = local(db, command, game, "--as", "blue").stdout
        assert remote(server, umpire, command, game, "--as", "blue").stdout == here, command
    refused = remote(server, red, "view", game, "--as", "blue", code=2)
    assert refused.stderr.startswith("error (auth/forbidden): the token was refused by ")


def test_end_is_the_step_ending_command_as_locally(served: tuple[Server, Path]) -> None:
    server, _ = served
    game = server.new()
    answer = json.loads(remote(server, server.tokens[game]["red"], "submit", game, "end", "--json").stdout)
    assert answer["awaiting"]["seats"] == ["blue"]
    assert answer["cmd"] == 1


def test_a_seat_with_a_key_signs_remotely(served: tuple[Server, Path], tmp_path: Path) -> None:
    """A seat registers its key and from then on plays only signed, the key file never leaving its machine."""
    server, db = served
    game = server.new()
    red = server.tokens[game]["red"]
    private = signing.new_private_key()
    (tmp_path / "red.key").write_text(private.hex() + "\n", encoding="utf-8")
    answer = remote(server, red, "register-key", game, signing.public_key(private)).stdout
    assert answer.startswith(f"red signs its commands in {game} after command ")
    command = '{"type": "attack", "aim": "high"}'
    unsigned = remote(server, red, "submit", game, command, code=1)
    assert unsigned.stderr.startswith("error (authority/unsigned): ")
    assert unsigned.stderr == local(db, "submit", game, "--as", "red", command, code=1).stderr
    signed = json.loads(remote(server, red, "submit", game, command, "--sign", str(tmp_path / "red.key"),
                               "--json").stdout)
    assert signed["awaiting"]["seats"] == ["blue"]


def test_end_signed_asks_the_tokens_seat_once(served: tuple[Server, Path], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`submit GAME end --sign KEY` needs the token's seat twice (the end command, the signature): asked once
    (reread-a: a whole seat view was served twice), and of GET /seat, which reads nothing of the game (queue 3: it
    was a whole seat view for one name)."""
    server, _ = served
    game = server.new()
    red = server.tokens[game]["red"]
    private = signing.new_private_key()
    (tmp_path / "red.key").write_text(private.hex() + "\n", encoding="utf-8")
    remote(server, red, "register-key", game, signing.public_key(private))
    asked: list[str] = []
    real = cli_remote.Remote.json

    def counted(self: cli_remote.Remote, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(f"{method} {path}")
        return real(self, method, path, *args, **kwargs)

    monkeypatch.setattr(cli_remote.Remote, "json", counted)
    answer = json.loads(remote(server, red, "submit", game, "end", "--sign", str(tmp_path / "red.key"),
                               "--json").stdout)
    assert answer["awaiting"]["seats"] == ["blue"]
    assert asked.count(f"GET /games/{game}/seat") == 1 and f"GET /games/{game}/view" not in asked, asked


def test_the_seat_endpoint_names_the_tokens_role_and_nothing_else(served: tuple[Server, Path]) -> None:
    """GET /games/{id}/seat: the role a token holds, for the remote commands that need only the seat's name (end,
    --sign, entropy's file, legal's and notes' empty lines); another game's token learns nothing of this one."""
    server, db = served
    game, other = server.new(), server.new()
    for role in ("red", "blue", "umpire"):
        assert server.client(role, game).get(f"/games/{game}/seat").json() == {"game": game, "seat": role}
    refused = server.client("red", other).get(f"/games/{game}/seat")
    assert refused.status_code == 403 and refused.json()["error"] == "auth/forbidden"
    assert remote(server, server.tokens[game]["blue"], "legal", game).stdout == local(db, "legal", game, "--as",
                                                                                      "blue").stdout
