"""Whole games over real HTTP: two seats and an umpire, each with its own token, play a Marengo game and a Caldiero
game from their creation (seat entropy first) to their end (the Caldiero one ten turns, some 340 commands: seconds).
Each command is chosen from the seat's own `legal` endpoint, as the self-play does; each seat follows its live
stream, which must carry every event exactly as the seat's `events` endpoint serves it, tell it when it is awaited,
and end with the game's end; the exported game verifies."""

from __future__ import annotations

import hashlib
import threading
from typing import Any

import httpx

from arbitro.adjudicator.selfplay import Chooser, progressing
from arbitro.events.random import entropy_commitment
from tests.marengo.full_game import chooser as marengo_chooser

from .conftest import Server, sse_messages


class Follower(threading.Thread):
    """A seat reading its live stream until the game is over."""

    def __init__(self, server: Server, seat: str, game: str) -> None:
        super().__init__(daemon=True)
        self.client = httpx.Client(base_url=server.url, timeout=60,  # its own: it reads while the seat plays
                                   headers={"Authorization": f"Bearer {server.tokens[game][seat]}"})
        self.game = game
        self.messages: list[dict[str, Any]] = []
        self.connected = threading.Event()

    def run(self) -> None:
        with self.client.stream("GET", f"/games/{self.game}/stream") as response:
            assert response.status_code == 200
            self.connected.set()
            for message in sse_messages(response.iter_lines()):
                self.messages.append(message)
                if message["event"] == "awaiting" and message["data"]["kind"] == "game_over":
                    break
        self.client.close()


def play(server: Server, game: str, seats: tuple[str, ...], choose: Chooser, max_steps: int = 2000) -> int:
    """Play `game` to its end over HTTP: the awaited seat lists its legal commands and sends one, naming the head it
    expects (in its numbers: the last command's, engine-rules §V.6) and an idempotency key. Entropy rounds are answered with a commitment, then the entropy."""
    clients = {role: server.client(role, game) for role in (*seats, "umpire")}
    followers = {seat: Follower(server, seat, game) for seat in seats}
    for follower in followers.values():
        follower.start()
        assert follower.connected.wait(20)
    status = clients["umpire"].get(f"/games/{game}").json()
    awaiting, head, steps, cmd = status["awaiting"], status["head"], 0, 0
    while awaiting["kind"] != "game_over":
        assert steps < max_steps, "the game did not end"
        seat = next(s for s in awaiting["seats"] if clients[s].get(f"/games/{game}/legal").json())
        legal = clients[seat].get(f"/games/{game}/legal").json()
        if awaiting["kind"] == "entropy":
            entropy = hashlib.sha256(f"{game}|{seat}".encode()).hexdigest()
            answer = ({"commitment": entropy_commitment(entropy)} if legal[0]["type"] == "commit_entropy"
                      else {"entropy": entropy})
            response = clients[seat].post(f"/games/{game}/entropy", json=answer)
        else:
            command = choose(seat, legal, steps)
            response = clients[seat].post(f"/games/{game}/commands", json={
                "command": command, "expected_seq": cmd, "key": f"step-{steps}"})
        assert response.status_code == 200, response.text
        result = response.json()
        awaiting, head, steps, cmd = result["awaiting"], result["head"], steps + 1, result["cmd"]
        # a seat's head and receipt name its command, never the log's event number (engine-rules §V.6)
        assert head == cmd == result["receipt"]["cmd"] and "seq" not in result["receipt"] and result["receipt"]["signature"]
    for seat, follower in followers.items():
        follower.join(30)
        assert not follower.is_alive(), f"{seat}'s stream did not tell it the game was over"
        check_stream(clients[seat], game, seat, follower.messages, cmd)
    return steps


def check_stream(client: httpx.Client, game: str, seat: str, messages: list[dict[str, Any]], head: int) -> None:
    """The stream carried every command's item once, in order, as the seat's events endpoint serves it, numbered as
    the commands #0 (the creation) to `head` (engine-rules §V.6); it told the seat each time it was awaited, and last
    that the game was over."""
    served = client.get(f"/games/{game}/events").json()
    streamed = [m for m in messages if m["event"] == "event"]
    assert [m["data"] for m in streamed] == served and [e["seq"] for e in served] == list(range(head + 1))
    assert [int(m["id"]) for m in streamed] == list(range(head + 1))
    notices = [m["data"] for m in messages if m["event"] == "awaiting"]
    assert notices[-1]["kind"] == "game_over" and notices[-1]["seq"] == head
    assert len(notices) > 5 and all(seat in n["seats"] for n in notices[:-1])


def verified(server: Server, game: str, role: str) -> dict[str, Any]:
    export = server.client(role, game).get(f"/games/{game}/export")
    assert export.status_code == 200 and export.headers["content-type"].startswith("application/x-ndjson")
    report = server.client(role, game).post("/verify", content=export.content)
    assert report.status_code == 200, report.text
    return report.json()  # type: ignore[no-any-return]


def test_a_whole_marengo_game_over_http(server: Server) -> None:
    game = server.new("marengo", "marengo", seat_entropy=True)
    steps = play(server, game, ("austria", "france"), marengo_chooser("http"))
    assert steps > 100
    status = server.client("france", game).get(f"/games/{game}").json()
    assert status["outcome"] and status["awaiting"]["kind"] == "game_over"
    assert verified(server, game, "umpire")["passed"] is True
    assert verified(server, game, "france")["passed"] is True  # a seat checks the file it was served


def test_a_whole_caldiero_game_over_http(server: Server) -> None:
    game = server.new("caldiero", "historical", seat_entropy=True)
    steps = play(server, game, ("france", "austria"), progressing("http"))
    assert steps > 200
    status = server.client("austria", game).get(f"/games/{game}").json()
    assert status["outcome"]["rule"].startswith("caldiero §") and status["awaiting"]["kind"] == "game_over"
    assert verified(server, game, "umpire")["passed"] is True
    assert verified(server, game, "austria")["passed"] is True  # a seat checks the file it was served
