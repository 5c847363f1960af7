"""The server's limits (body size, commands per seat per second, games per token), the live stream's waking and
resuming, and play by e-mail (a mailed command file, signed when the umpire posts it in a seat's name)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec

from arbitro.adjudicator.http_access import Limits
from arbitro.adjudicator.mail import write_mailed
from arbitro.adjudicator.service import Arbitro
from arbitro.events import signing
from arbitro.events.random import entropy_commitment
from arbitro.events.records import GameRecord
from arbitro.events.sqlite import SQLiteStore

from .conftest import FAST, Server, serve, sse_messages


def serving(limits: Limits, poll: float = 0.5) -> Iterator[Server]:
    server = serve(":memory:", limits, poll)
    try:
        yield server
    finally:
        server.stop()


def test_a_body_over_the_limit_is_refused_before_any_handler_reads_it() -> None:
    for server in serving(Limits(max_body=2000, commands_per_second=100)):
        game = server.new()
        red = server.client("red", game)
        padded = {"command": {"type": "end_turn"}, "key": "k" * 150, "signature": None, "expected_seq": 0}
        big = json.dumps(padded).encode() + b" " * 3000
        assert red.post(f"/games/{game}/commands", content=big).json()["error"] == "limit/body-too-large"
        chunked = red.post(f"/games/{game}/commands", content=iter([big[:1500], big[1500:]]))  # no Content-Length
        assert chunked.status_code == 413
        assert server.app.game(game).head_seq == 5
        fits = red.post(f"/games/{game}/commands", content=json.dumps(padded).encode(),
                        headers={"Content-Type": "application/json"})
        assert fits.status_code == 200, fits.text


def test_a_seat_s_commands_are_limited_per_second_and_other_seats_are_not_held_up() -> None:
    for server in serving(Limits(commands_per_second=0.01)):  # one command, then one each 100 s
        game = server.new()
        red, blue = server.client("red", game), server.client("blue", game)
        assert red.post(f"/games/{game}/notes", json={"at": 0, "text": "first"}).status_code == 201
        refused = red.post(f"/games/{game}/notes", json={"at": 0, "text": "second"})
        assert refused.status_code == 429 and refused.json()["error"] == "limit/too-many"
        assert [n["text"] for n in red.get(f"/games/{game}/notes").json()] == ["first"]
        assert blue.post(f"/games/{game}/notes", json={"at": 0, "text": "blue's"}).status_code == 201
        assert red.get(f"/games/{game}").status_code == 200  # reads are not charged


def test_games_per_token_bounds_creations_and_forks() -> None:
    for server in serving(Limits(games_per_token=2)):
        game = server.new()
        server.new()
        refused = server.host.post("/games", json={"ruleset": "duel", "scenario": "standard"})
        assert refused.status_code == 429 and len(server.app.store.games()) == 2
        umpire = server.client("umpire", game)
        assert umpire.post(f"/games/{game}/fork", json={"at": 5}).status_code == 201
        assert umpire.post(f"/games/{game}/fork", json={"at": 5}).status_code == 201
        assert umpire.post(f"/games/{game}/fork", json={"at": 5}).status_code == 429
        assert len(server.app.store.games()) == 4
    for server in serving(Limits(games_per_token=1)):  # a creation that fails does not count
        assert server.host.post("/games", json={"ruleset": "duel", "scenario": "nowhere"}).status_code == 404
        server.new()


def test_with_open_creation_anyone_may_create_games_each_address_up_to_the_limit() -> None:
    server = Server(Arbitro(SQLiteStore(":memory:")), Limits(games_per_token=2), open_creation=True)
    try:
        anyone = server.client()
        for _ in range(2):
            made = anyone.post("/games", json={"ruleset": "duel", "scenario": "standard"})
            assert made.status_code == 201 and sorted(made.json()["tokens"]) == ["blue", "red", "umpire"]
        assert anyone.post("/games", json={"ruleset": "duel", "scenario": "standard"}).status_code == 429
        assert anyone.get("/games").status_code == 401  # listing every game stays the host's
        assert server.host.post("/games", json={"ruleset": "duel", "scenario": "standard"}).status_code == 201
    finally:
        server.stop()


def test_a_stream_wakes_on_an_append_resumes_after_last_event_id_and_never_holds_up_an_append() -> None:
    for server in serving(Limits(commands_per_second=1000), poll=120.0):  # only a wake can deliver in time
        game = server.new()
        idle = [httpx.Client(base_url=server.url, timeout=60,
                             headers={"Authorization": f"Bearer {server.tokens[game]['blue']}"}) for _ in range(3)]
        unread = [client.stream("GET", f"/games/{game}/stream").__enter__() for client in idle]  # never read
        blue = httpx.Client(base_url=server.url, timeout=60,
                            headers={"Authorization": f"Bearer {server.tokens[game]['blue']}"})
        with blue.stream("GET", f"/games/{game}/stream") as response:
            messages = sse_messages(response.iter_lines())
            assert next(messages)["id"] == "0"  # the creation: a seat's stream is numbered by command (§V.6)
            for turn in range(3):  # red, blue, red end their turns: each append reaches the stream at once
                seat = ("red", "blue")[turn % 2]
                sent = server.client(seat, game).post(f"/games/{game}/commands", json={"command": {"type": "end_turn"}})
                assert sent.status_code == 200, sent.text
                head = sent.json()["cmd"]
                message = next(messages)
                while message["event"] != "event" or message["data"]["seq"] != head:
                    message = next(messages)
            notice = next(messages)
            assert notice["event"] == "awaiting" and notice["data"]["seats"] == ["blue"]  # blue's turn now
        for stream in unread:
            stream.close()
        resumed = list(sse_messages(server.client("blue", game).get(
            f"/games/{game}/stream", params={"follow": "false"}, headers={"Last-Event-ID": "1"}).iter_lines()))
        assert [m["id"] for m in resumed if m["event"] == "event"] == [str(s) for s in range(2, head + 1)]
        assert resumed[-1]["event"] == "awaiting" and resumed[-1]["data"]["seq"] == head
        for client in (*idle, blue):
            client.close()


def test_a_mailed_command_file_is_taken_as_the_cli_takes_it(server: Server) -> None:
    game = server.new()
    red, umpire = server.client("red", game), server.client("umpire", game)
    assert red.post(f"/games/{game}/mail", content=b'{"type": "end_turn"}').json()["cmd"] == 1
    broken = red.post(f"/games/{game}/mail", content=b'{"type": ')
    assert broken.status_code == 400 and "not JSON" in broken.json()["message"]
    private = signing.new_private_key()  # blue signs its command and mails it; the umpire posts it
    assert server.client("blue", game).post(f"/games/{game}/keys",
                                            json={"public_key": signing.public_key(private)}).status_code == 201
    head = server.app.game(game).head_cmd  # blue's head, in its numbers: the last command (engine-rules §V.6)
    command = {"type": "end_turn"}
    statement = signing.command_statement(game=game, seat="blue", expected_seq=head, key="mail-1", command=command)
    envelope = {"seat": "blue", "command": command, "expected_seq": head, "key": "mail-1",
                "signature": signing.sign(private, statement)}
    posted = umpire.post(f"/games/{game}/mail", content=json.dumps(envelope).encode())
    assert posted.status_code == 200, posted.text
    assert [e["seat"] for e in posted.json()["events"]] and server.app.store.command(game, 2).record.seat == "blue"
    forged = {**envelope, "key": "mail-2", "expected_seq": posted.json()["head"]}  # a signature over another key
    refused = umpire.post(f"/games/{game}/mail", content=json.dumps(forged).encode())
    assert refused.status_code == 403 and refused.json()["error"] == "authority/unsigned"
    unsigned = umpire.post(f"/games/{game}/mail", content=b'{"seat": "red", "command": {"type": "end_turn"}}')
    assert unsigned.status_code == 403 and unsigned.json()["message"] == (  # it read "in 'red''s name" (rev-q)
        "umpire may not submit in the name of 'red': only the umpire may post a mailed command for a seat, and only "
        "one that seat signed (arbitro §L.6)")



def test_the_cli_s_offline_command_file_is_posted_as_it_is(server: Server) -> None:
    """`arbitro submit --offline` writes an arbitro/mail-1 file (adjudicator/mail.py): the server takes it whole,
    and refuses one made for another game (400) or in another format."""
    game, other = server.new(), server.new()
    red = server.client("red", game)
    head = server.app.game(game).head_cmd  # red's head, in its numbers
    mailed = msgspec.to_builtins(write_mailed(game=game, seat="red", command={"type": "end_turn"}, expected_seq=head,
                                              key="k1", private_key=None))
    elsewhere = server.client("red", other).post(f"/games/{other}/mail", content=json.dumps(mailed).encode())
    assert elsewhere.status_code == 400 and f"a command for game {game}, not {other}" in elsewhere.json()["message"]
    future = red.post(f"/games/{game}/mail", content=json.dumps({**mailed, "format": "arbitro/mail-9"}).encode())
    assert future.status_code == 400 and "arbitro/mail-9" in future.json()["message"]
    posted = red.post(f"/games/{game}/mail", content=json.dumps(mailed).encode())
    assert posted.status_code == 200, posted.text
    assert server.app.store.command(game, posted.json()["cmd"]).record.key == "k1"


class AppendFirst(SQLiteStore):
    """A store that, once armed, lets another writer append right after the next reading of a game's record: the
    moment two seats committing entropy at once meet."""

    other_writer: Callable[[], object] | None = None

    def game(self, game_id: str) -> GameRecord:
        record = super().game(game_id)
        writer, self.other_writer = self.other_writer, None
        if writer is not None:
            writer()
        return record


def test_a_command_without_expected_seq_is_judged_again_when_another_seat_s_append_lands_first(tmp_path: Path) -> None:
    store = AppendFirst(tmp_path / "race.db")
    server = Server(Arbitro(store), Limits(commands_per_second=100))
    try:
        game = server.new(seat_entropy=True)
        other = Arbitro(SQLiteStore(tmp_path / "race.db"))  # another process's seat, on the same database
        store.other_writer = lambda: other.submit(game, "blue", {"type": "commit_entropy",
                                                                 "commitment": entropy_commitment("x")})
        red = server.client("red", game)
        sent = red.post(f"/games/{game}/entropy", json={"commitment": entropy_commitment("y")})
        assert sent.status_code == 200, sent.text  # judged again after blue's commitment, not refused as stale
        committed = [e["event"]["seat"] for item in red.get(f"/games/{game}/events").json() for e in item["events"]
                     if e["type"] == "entropy_committed"]  # a seat's log: one item per command (§V.6)
        assert committed == ["blue", "red"]
        store.other_writer = lambda: other.submit(game, "blue", {"type": "reveal_entropy", "entropy": "x"})
        head = server.app.game(game).head_cmd  # red's numbers (§V.6); blue's reveal lands as this reads: the head red asks for is behind
        crossed = red.post(f"/games/{game}/commands", json={"command": {"type": "reveal_entropy", "entropy": "y"},
                                                            "expected_seq": head})
        assert crossed.status_code == 200, crossed.text  # only the round's answers since: they cross (arbitro §L.2)
        stale = red.post(f"/games/{game}/commands", json={"command": {"type": "attack", "aim": "high"},
                                                          "expected_seq": head})
        assert stale.status_code == 409 and stale.json()["error"] == "store/stale-sequence"  # the head it asked for
    finally:
        server.stop()


class AppendsWhileReading(Arbitro):
    """A library whose next read of a log lets another seat's append land before it answers: the moment between a
    stream's read of the events and its notice of who is awaited."""

    interleave: tuple[str, str] | None = None  # (game, seat) whose end of turn lands inside the next read

    def log(self, game_id: str, seat: str = "umpire", first: int | None = None,
            last: int | None = None) -> list[dict[str, Any]]:
        events = super().log(game_id, seat, first, last)
        if self.interleave is not None:
            game, mover = self.interleave
            self.interleave = None
            self.submit(game, mover, {"type": "end_turn"})
        return events


def test_a_streams_notice_says_who_was_awaited_after_the_events_it_sent_not_after_a_later_append() -> None:
    """The notice that follows the events names who the game waited for right after the last of them: an append
    landing between the stream's two reads must not be announced before its own events are sent."""
    app = AppendsWhileReading(SQLiteStore(":memory:"))
    server = Server(app, FAST)
    try:
        game = server.new()
        head = app.game(game).head_seq
        assert app.awaiting(game).seats == ["red"]
        app.interleave = (game, "red")  # red ends its turn while the stream reads events 1..head
        messages = list(sse_messages(server.client("umpire", game).get(
            f"/games/{game}/stream", params={"follow": "false"}).iter_lines()))
        assert app.game(game).head_seq > head and app.awaiting(game).seats == ["blue"]  # the append did land
        assert [m["data"]["seq"] for m in messages if m["event"] == "event"] == list(range(1, head + 1))
        notice = messages[-1]
        assert notice["event"] == "awaiting" and notice["data"]["seq"] == head
        assert notice["data"]["seats"] == ["red"]  # as it was after event `head`, not blue's turn after the append
    finally:
        server.stop()


def test_a_last_event_id_beyond_the_head_is_refused_not_waited_on(server: Server) -> None:
    """A log never shrinks, so a Last-Event-ID past the seat's last number was sent by no stream of this game: the
    stream used to announce `awaiting` at that bogus number and send nothing until the head passed it (rev-p)."""
    game = server.new()
    refused = server.client("blue", game).get(f"/games/{game}/stream", params={"follow": "false"},
                                              headers={"Last-Event-ID": "7"})
    assert refused.status_code == 400, refused.text
    assert "Last-Event-ID 7: this game's last message to blue is #0" in refused.json()["message"]
    umpire = server.client("umpire", game).get(f"/games/{game}/stream", params={"follow": "false"},
                                               headers={"Last-Event-ID": "99"})
    assert umpire.status_code == 400 and "to umpire is #" in umpire.json()["message"], umpire.text


def test_a_stream_from_beyond_the_next_message_is_refused_not_announced_at_it(server: Server) -> None:
    """rev-p's Last-Event-ID case by the other door (rev-q): `from=N` past the reader's next number announced
    `awaiting` at N - 1, a number the game does not have, and then sent nothing until the head passed it. From the
    next number (the head + 1) a stream waits for it; beyond, it is refused as a position after the head is."""
    game = server.new()
    blue, umpire = server.client("blue", game), server.client("umpire", game)
    refused = blue.get(f"/games/{game}/stream", params={"follow": "false", "from": "8"})
    assert refused.status_code == 404, refused.text
    assert refused.json()["message"] == f"game {game}'s last message to blue is #0: a stream starts at #1 at the latest"
    head = umpire.get(f"/games/{game}").json()["head"]
    assert umpire.get(f"/games/{game}/stream", params={"follow": "false", "from": str(head + 2)}).status_code == 404
    nothing_yet = umpire.get(f"/games/{game}/stream", params={"follow": "false", "from": str(head + 1)})
    assert nothing_yet.status_code == 200 and f"id: {head}\r\nevent: awaiting" in nothing_yet.text, nothing_yet.text


def test_a_mailed_file_nested_too_deeply_is_bad_input_not_a_server_error(server: Server) -> None:
    """rev-q: RecursionError from json.loads was no JSONDecodeError: HTTP 500 (tests/foundation/test_deep_json.py)."""
    game = server.new()
    deep = server.client("red", game).post(f"/games/{game}/mail", content=("[" * 30_000 + "]" * 30_000).encode())
    assert deep.status_code == 400, deep.text
    assert deep.json()["message"].startswith("the mailed file: JSON nested too deeply to read")
    broken = server.client("red", game).post(f"/games/{game}/mail", content=b"{not json")
    assert broken.status_code == 400 and broken.json() == {"error": "input/bad-file", "message": "the mailed file is "
                                                           "not JSON: Expecting property name enclosed in double quotes "
                                                           "at line 1 column 2"}, broken.text


def test_numbers_too_long_to_read_are_refused_in_the_senders_words(server: Server) -> None:
    """A 5,000-digit number in a mailed file or a Last-Event-ID was refused in Python's words ("use
    sys.set_int_max_str_digits()"), as input/bad (rev-q)."""
    game = server.new()
    red = server.client("red", game)
    mailed = red.post(f"/games/{game}/mail", content=b'{"command": {"type": "end_turn"}, "expected_seq": %s}'
                      % (b"9" * 5000))
    assert mailed.status_code == 400 and mailed.json() == {
        "error": "input/bad-file", "message": "the mailed file: a number in it is too long to read (over 4,300 digits)"}
    resumed = red.get(f"/games/{game}/stream", params={"follow": "false"}, headers={"Last-Event-ID": "9" * 5000})
    assert resumed.status_code == 400 and resumed.json()["error"] == "input/bad-file", resumed.text
