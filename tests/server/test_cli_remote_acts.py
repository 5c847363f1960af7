"""The rest of a seat's and the umpire's job over `arbitro remote` (adjudicator/cli_remote_acts.py,
cli_remote_disputes.py, cli_remote_follow.py): status --as, view --at, notes and annotate, undo and consent, the
entropy round, disputes and knowledge, fork and amend with their tokens, the live stream. What a seat reads remotely
is what the local CLI shows it from the database (`--as SEAT`), byte for byte; a token is printed only where a new
game's tokens are made (fork, amend), never in a refusal."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator import cli_remote_client

from .conftest import Server
from .test_cli_remote import local, remote, served

__all__ = ["served"]  # the module's server fixture, shared with test_cli_remote

ATTACK = {"type": "attack", "aim": "high"}


def fought(server: Server) -> str:
    """A game where red attacked and blue guarded (dice rolled: an undo past them needs blue's consent, §U.2)."""
    game = server.new()
    assert server.client("red", game).post(f"/games/{game}/commands", json={"command": ATTACK}).status_code == 200
    guard = server.client("blue", game).post(f"/games/{game}/commands",
                                             json={"command": {"type": "guard", "stance": "low"}})
    assert guard.status_code == 200, guard.text
    return game


def test_status_as_a_seat_is_the_local_status_as_that_seat(served: tuple[Server, Path]) -> None:
    """GET /games/{id} takes `seat=` now (the umpire's only): `remote status --as SEAT` equals `status --as SEAT`."""
    server, db = served
    game = fought(server)
    umpire, red = server.tokens[game]["umpire"], server.tokens[game]["red"]
    for seat in ("red", "blue"):
        for flags in ((), ("--json",)):
            here = local(db, "status", game, "--as", seat, *flags).stdout
            assert remote(server, umpire, "status", game, "--as", seat, *flags).stdout == here, (seat, flags)
    refused = remote(server, red, "status", game, "--as", "blue", code=2)
    assert refused.stderr.startswith("error (auth/forbidden): the token was refused by ")


def test_view_at_a_past_point_is_the_local_view_at_it(served: tuple[Server, Path]) -> None:
    server, db = served
    game = fought(server)
    for seat, points in (("red", ("0", "1", "2")), ("blue", ("1", "2")), ("umpire", ("1", "3"))):
        for at in points:
            for flags in ((), ("--json",)):
                here = local(db, "view", game, "--as", seat, "--at", at, *flags).stdout
                there = remote(server, server.tokens[game][seat], "view", game, "--at", at, *flags).stdout
                assert there == here, (seat, at, flags)
    past = remote(server, server.tokens[game]["red"], "view", game, "--at", "99", code=3)
    assert past.stderr == local(db, "view", game, "--as", "red", "--at", "99", code=3).stderr


def test_notes_written_remotely_read_as_locally(served: tuple[Server, Path]) -> None:
    server, db = served
    game = fought(server)
    red = server.tokens[game]["red"]
    assert remote(server, red, "notes", game).stdout == local(db, "notes", game, "--as", "red").stdout
    made = remote(server, red, "annotate", game, "a feint", "--at", "1", "--private").stdout
    assert made == "note 1 at #1 by red (private)\n"
    note = json.loads(remote(server, red, "annotate", game, "in the open", "--at", "1", "--json").stdout)
    assert (note["id"], note["private"], note["text"]) == (1, False, "in the open")
    for seat in ("red", "blue", "umpire"):
        for flags in ((), ("--json",)):
            here = local(db, "notes", game, "--as", seat, *flags).stdout
            assert remote(server, server.tokens[game][seat], "notes", game, *flags).stdout == here, (seat, flags)
    assert "a feint" not in remote(server, server.tokens[game]["blue"], "notes", game).stdout


def test_undo_asked_and_consented_remotely(served: tuple[Server, Path]) -> None:
    """Red takes back past blue's roll: blue is asked (§U.2) and consents remotely; the logs read as locally."""
    server, db = served
    game = fought(server)
    red, blue = server.tokens[game]["red"], server.tokens[game]["blue"]
    asked = remote(server, red, "undo", game, "--to", "0").stdout
    assert asked.startswith("command 3:\n"), asked
    assert remote(server, blue, "consent", game, code=2).stderr.startswith("error (input/bad): say --accept or")
    answer = json.loads(remote(server, blue, "consent", game, "--accept", "--json").stdout)
    assert answer["cmd"] == 4 and answer["awaiting"]["seats"] == ["red"], answer
    for seat in ("red", "blue", "umpire"):
        here = local(db, "log", game, "--as", seat).stdout
        assert remote(server, server.tokens[game][seat], "log", game).stdout == here, seat
    assert "VOIDED by the undo" in remote(server, red, "log", game).stdout


def test_undo_past_the_head_is_refused_as_locally(served: tuple[Server, Path]) -> None:
    """A judged command's number past the head is the rules' refusal (exit 1, rules/illegal, §U.3), as locally:
    docs/engine-rules.md §U.3 says why it is not NoSuchEvent."""
    server, db = served
    game = fought(server)
    for seat, to in (("red", "9"), ("umpire", "99")):
        flags = ("--reason", "a ruling") if seat == "umpire" else ()
        here = local(db, "undo", game, "--as", seat, "--to", to, *flags, code=1).stderr
        there = remote(server, server.tokens[game][seat], "undo", game, "--to", to, *flags, code=1).stderr
        assert there == here and there.startswith("error (rules/illegal): ") and "[arbitro §U.3]" in there


@pytest.fixture()
def elsewhere(tmp_path: Path) -> Iterator[Path]:
    """The seat's own machine: the working directory its entropy file is kept in by default."""
    before = Path.cwd()
    os.chdir(tmp_path)
    yield tmp_path
    os.chdir(before)


def test_the_entropy_round_remotely_keeps_the_entropy_here(served: tuple[Server, Path], elsewhere: Path) -> None:
    server, db = served
    game = server.new(seat_entropy=True)
    red, blue = server.tokens[game]["red"], server.tokens[game]["blue"]
    committed = remote(server, red, "entropy", game).stdout
    kept = elsewhere / f"{game}.red.entropy"
    assert committed.endswith(f"(entropy kept in {kept.name})\n") and "entropy_committed" in committed
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    refused = remote(server, red, "entropy", game, "--file", "other.entropy", code=2)  # the round awaits blue
    assert refused.stderr.startswith(f"error (input/bad): {game} awaits no entropy from red at #")
    assert f"(`arbitro remote status {game}` says whom it awaits)" in refused.stderr, refused.stderr  # not a local
    assert "import the umpire's latest export" not in refused.stderr  # command, nor a file, a remote seat has not
    assert not (elsewhere / "other.entropy").exists()  # made for a refused answer: deleted
    remote(server, blue, "entropy", game, "--file", "blue.entropy")
    revealed = json.loads(remote(server, red, "entropy", game, "--json").stdout)
    assert revealed["events"][0]["type"] == "entropy_revealed", revealed
    assert remote(server, red, "status", game).stdout == local(db, "status", game, "--as", "red").stdout


def test_disputes_remotely_read_as_locally(served: tuple[Server, Path]) -> None:
    server, db = served
    game = fought(server)
    red, umpire = server.tokens[game]["red"], server.tokens[game]["umpire"]
    opened = remote(server, red, "dispute", "open", game, "my guard was low", "--at", "1", "--private").stdout
    assert opened.startswith("accepted: command 3, head #"), opened
    remote(server, umpire, "dispute", "reply", game, "1", "reading the log", "--pause")
    for seat in ("red", "blue", "umpire"):
        for flags in ((), ("--json",), ("--open",)):
            here = local(db, "disputes", game, "--as", seat, *flags).stdout
            assert remote(server, server.tokens[game][seat], "disputes", game, *flags).stdout == here, (seat, flags)
        for flags in ((), ("--json",), ("--about", "red", "--at", "1")):
            here = local(db, "knowledge", game, "--as", seat, *flags).stdout
            assert remote(server, server.tokens[game][seat], "knowledge", game, *flags).stdout == here, (seat, flags)
    assert "my guard was low" not in remote(server, server.tokens[game]["blue"], "disputes", game).stdout
    no_outcome = remote(server, umpire, "dispute", "rule", game, "1", "the log stands", code=2)
    assert no_outcome.stderr.startswith("error (input/bad): say how the dispute is ruled")
    ruled = json.loads(remote(server, umpire, "dispute", "rule", game, "1", "the log stands", "--dismiss",
                              "--json").stdout)
    assert [e["type"] for e in ruled["events"]][0] == "dispute_ruled", ruled
    refused = remote(server, red, "dispute", "open", game, "late", "--at", "9", code=1)
    assert refused.stderr == local(db, "dispute", "open", game, "late", "--as", "red", "--at", "9", code=1).stderr


def test_a_fork_prints_its_tokens_once_and_they_play(served: tuple[Server, Path]) -> None:
    server, db = served
    game = fought(server)
    umpire = server.tokens[game]["umpire"]
    head = str(server.client("umpire", game).get(f"/games/{game}").json()["head"])
    lines = remote(server, umpire, "fork", game, "--at", head, "--id", f"{game}-f").stdout.splitlines()
    assert lines[0] == f"{game}-f" and [line.split(": ")[0] for line in lines[1:]] == ["red", "blue", "umpire"]
    tokens = dict(line.split(": ") for line in lines[1:])
    assert remote(server, tokens["red"], "status", f"{game}-f").stdout == local(db, "status", f"{game}-f", "--as",
                                                                                  "red").stdout
    as_json = json.loads(remote(server, umpire, "fork", game, "--at", head, "--json").stdout)
    assert sorted(as_json["tokens"]) == ["blue", "red", "umpire"]
    refused = remote(server, server.tokens[game]["red"], "fork", game, "--at", head, code=1)
    assert refused.stderr.startswith("error (authority/umpire-only): only the umpire may do this, not 'red'")
    assert all(token not in refused.output for token in server.tokens[game].values())


def test_an_amendment_prints_the_amended_games_tokens(served: tuple[Server, Path]) -> None:
    server, db = served
    game = fought(server)
    server.app.reveal(game, "for the amendment", seat="umpire", expose_hidden=True)  # amend needs it (arbitro §D.5)
    umpire = server.tokens[game]["umpire"]
    events = server.client("umpire", game).get(f"/games/{game}/events").json()
    at = str(next(e["seq"] for e in events if e["type"] == "attack_declared"))
    out = remote(server, umpire, "amend", game, '{"type": "attack", "aim": "low"}', "--at", at).stdout
    amended = out.splitlines()
    fork = amended[0].split(" replaced in ")[1]
    tokens = dict(line.split(": ") for line in amended if line.split(": ")[0] in ("red", "blue", "umpire"))
    assert amended[-4] == fork and sorted(tokens) == ["blue", "red", "umpire"], out
    assert remote(server, tokens["red"], "log", fork).stdout == local(db, "log", fork, "--as", "red").stdout


def test_follow_prints_the_log_then_what_is_awaited(served: tuple[Server, Path]) -> None:
    server, db = served
    game = fought(server)
    blue = server.tokens[game]["blue"]  # awaited: a stream tells a seat only what awaits it
    shown = remote(server, blue, "follow", game, "--no-follow").stdout
    log = local(db, "log", game, "--as", "blue").stdout
    assert shown.startswith(log) and shown[len(log):].startswith("after #2: awaiting: blue"), shown
    lines = [json.loads(line) for line in remote(server, blue, "follow", game, "--no-follow", "--json").stdout.splitlines()]
    assert [next(iter(m)) for m in lines] == ["event", "event", "event", "awaiting"]


def test_follow_goes_on_as_events_come(served: tuple[Server, Path]) -> None:
    """The stream stays open: blue is told it is awaited, then its command's event comes on the same stream."""
    server, _ = served
    game = fought(server)
    api = cli_remote_client.Remote(server.url, server.tokens[game]["blue"])
    stream = api.messages(f"/games/{game}/stream", {"from": 3, "follow": "true"})
    try:
        assert next(stream)[0] == "awaiting"
        ended = server.client("blue", game).post(f"/games/{game}/commands", json={"command": {"type": "end_turn"}})
        assert ended.status_code == 200, ended.text
        kind, number, data = next(stream)
        assert (kind, number, json.loads(data)["cmd"]) == ("event", "3", 3)
    finally:
        stream.close()


def test_ctrl_c_ends_follow_cleanly(served: tuple[Server, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    server, _ = served
    game = fought(server)

    def interrupted(self: Any, path: str, params: Any = None) -> Iterator[tuple[str, str, str]]:
        yield "awaiting", "2", json.dumps({"seq": 2, "seats": ["red"], "kind": "turn", "rule": "", "prompt": "x"})
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_remote_client.Remote, "messages", interrupted)
    shown = remote(server, server.tokens[game]["red"], "follow", game)
    assert shown.stdout == "after #2: awaiting: red: x\n" and shown.stderr == ""


def test_entropy_sent_without_an_answer_is_kept(served: tuple[Server, Path], elsewhere: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The commitment was sent and the connection dropped: it may be recorded, so the file stays (exit 4) and the
    next call sends the same entropy; a failure before anything is sent deletes the file it made."""
    server, _ = served
    game = server.new(seat_entropy=True)
    red = server.tokens[game]["red"]
    real = cli_remote_client.Remote.json

    def dropped(self: cli_remote_client.Remote, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
        if method == "POST":
            real(self, method, path, *args, **kwargs)  # recorded, then the answer lost
            raise cli_remote_client.Unreachable("cannot reach the arbitro server: the connection dropped")
        return real(self, method, path, *args, **kwargs)

    monkeypatch.setattr(cli_remote_client.Remote, "json", dropped)
    lost = remote(server, red, "entropy", game, code=cli_remote_client.UNREACHABLE_EXIT)
    assert "the answer may have been recorded: the entropy stays in" in lost.stderr, lost.stderr
    assert (elsewhere / f"{game}.red.entropy").exists()
    monkeypatch.setattr(cli_remote_client.Remote, "json", real)
    assert "entropy_committed" in server.client("umpire", game).get(f"/games/{game}/events").text


def test_a_local_fork_or_amendment_with_invite_prints_tokens_that_play(served: tuple[Server, Path]) -> None:
    """`arbitro fork --invite` and `arbitro amend --invite` make the new game's tokens, as the server's fork and
    amendment do, and print them after its id (--json: `tokens`); without --invite the id alone, as before."""
    server, db = served
    game = fought(server)
    server.app.reveal(game, "for the amendment", seat="umpire", expose_hidden=True)  # amend needs it (arbitro §D.5)
    head = str(server.client("umpire", game).get(f"/games/{game}").json()["head"])
    assert local(db, "fork", game, "--at", head, "--id", f"{game}-plain").stdout == f"{game}-plain\n"
    lines = local(db, "fork", game, "--at", head, "--id", f"{game}-i", "--invite").stdout.splitlines()
    tokens = dict(line.split(": ") for line in lines[1:])
    assert lines[0] == f"{game}-i" and sorted(tokens) == ["blue", "red", "umpire"]
    assert remote(server, tokens["blue"], "log", f"{game}-i").stdout == local(db, "log", f"{game}-i", "--as",
                                                                               "blue").stdout
    events = server.client("umpire", game).get(f"/games/{game}/events").json()
    at = str(next(e["seq"] for e in events if e["type"] == "attack_declared"))
    amended = json.loads(local(db, "amend", game, '{"type": "attack", "aim": "low"}', "--at", at, "--invite",
                               "--json").stdout)
    assert sorted(amended["tokens"]) == ["blue", "red", "umpire"] and amended["game"] == game
    assert remote(server, amended["tokens"]["red"], "status", amended["fork"]).stdout == \
        local(db, "status", amended["fork"], "--as", "red").stdout


def test_the_umpire_reveals_and_invites_remotely(served: tuple[Server, Path]) -> None:
    """`remote reveal` refuses as locally without --expose-hidden, and says how to play on (a remote fork);
    `remote invite --seat blue` prints blue's new token, which plays, while the old one is refused unprinted."""
    server, db = served
    game = fought(server)
    umpire, old_blue = server.tokens[game]["umpire"], server.tokens[game]["blue"]
    refused = remote(server, umpire, "reveal", game, code=1)
    assert refused.stderr == local(db, "reveal", game, code=1).stderr
    shown = remote(server, umpire, "reveal", game, "--reason", "post-mortem", "--expose-hidden").stdout
    head = server.client("umpire", game).get(f"/games/{game}").json()["head"]
    assert f"To play on, fork it: arbitro remote fork {game} --at {head}  (add --keep-dice" in shown, shown
    new = remote(server, umpire, "invite", game, "--seat", "blue").stdout
    assert new.startswith("blue: ") and new.count("\n") == 1
    blue = new.strip().split(": ")[1]
    assert remote(server, blue, "status", game).stdout == local(db, "status", game, "--as", "blue").stdout
    stale = remote(server, old_blue, "status", game, code=2)
    assert stale.stderr.startswith("error (auth/") and old_blue not in stale.output


def test_a_roll_explained_remotely_as_locally(served: tuple[Server, Path]) -> None:
    """`remote roll` reads the token's own export, checked here, and explains the roll as `arbitro roll --as SEAT`
    does from the database; the umpire's at its event."""
    server, db = served
    game = fought(server)
    events = server.client("umpire", game).get(f"/games/{game}/events").json()
    rolled = str(next(e["seq"] for e in events if e["type"] == "dice_rolled"))
    for seat, seq in (("blue", "2"), ("red", "2"), ("umpire", rolled)):
        for flags in ((), ("--json",)):
            here = local(db, "roll", game, seq, "--as", seat, *flags).stdout
            assert remote(server, server.tokens[game][seat], "roll", game, seq, *flags).stdout == here, (seat, flags)


def test_a_forks_log_reads_in_its_parents_numbers_as_locally(served: tuple[Server, Path]) -> None:
    """The umpire's log of a fork numbers each event in the parent's numbers too ([parent #...]), as `arbitro log`
    does from the database: read remotely from the fork's genesis (its origin), the range's or asked for."""
    server, db = served
    game = fought(server)
    head = str(server.client("umpire", game).get(f"/games/{game}").json()["head"])
    lines = remote(server, server.tokens[game]["umpire"], "fork", game, "--at", head).stdout.splitlines()
    fork, tokens = lines[0], dict(line.split(": ") for line in lines[1:])
    server.client(token=tokens["blue"]).post(f"/games/{fork}/commands", json={"command": {"type": "end_turn"}})
    for flags in ((), ("--from", "2"), ("--json",)):
        here = local(db, "log", fork, *flags).stdout
        assert remote(server, tokens["umpire"], "log", fork, *flags).stdout == here, flags
    assert f"forked from {game} at #{head}" in remote(server, tokens["umpire"], "log", fork).stdout
    assert remote(server, tokens["blue"], "log", fork).stdout == local(db, "log", fork, "--as", "blue").stdout
