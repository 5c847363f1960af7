"""Issue 14: a seat's copy (the e-mail player's own database) holds its seat's history, so `view --at`, `replay --to`,
`replay --step` and `report` (and `report --viewer`) read a copy exactly as they read that seat's game on the
umpire's database, and never show more than the seat was served: two games differing only in a hidden fact give the
same copy bytes (digests aside, which are salted) and the same output of every one of those commands."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from arbitro.adjudicator.seatcopy import SeatCopy
from arbitro.adjudicator.service import Arbitro
from arbitro.cli import cli
from arbitro.events import signing
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.patch import apply_patch, patch_between
from tests.marengo.harness import position as marengo_position
from tests.seeds import same_secrets

from .conftest import Cli
from .test_historian import FRIMONT, PILATI

STEPS = "n\nn\np\n3\nn\nq\n"  # forward twice, back, to #3, forward, quit


@pytest.fixture
def played(tmp_path: Path) -> tuple[Cli, Cli, str]:
    """A Marengo game on the umpire's database where austria entered Frimont, took it back and entered Pilati (an
    undo in the history), and austria's copy of it in austria's own database."""
    umpire, austria = Cli(tmp_path / "umpire.db"), Cli(tmp_path / "austria.db")
    umpire("new", "marengo", "marengo", "--id", "g")
    umpire.submit("g", "austria", FRIMONT)
    umpire("undo", "g", "--as", "austria", "--to", "0")  # the creation, #1-#4: a seat names commands
    umpire.submit("g", "austria", PILATI)
    umpire("export", "g", "--as", "austria", "-o", str(tmp_path / "for-austria.jsonl"))
    austria("import", str(tmp_path / "for-austria.jsonl"))
    return umpire, austria, "g"


def stepped(run: Cli, *args: str) -> str:
    walked = run.runner.invoke(cli, ["replay", *args, "--step", "--as", "austria", "--db", str(run.db)], input=STEPS)
    assert walked.exit_code == 0, walked.output
    return walked.stdout


def test_view_and_replay_at_every_event_read_the_copy_as_the_umpire_serves_the_seat(
        played: tuple[Cli, Cli, str]) -> None:
    umpire, austria, game = played
    head = umpire.json("status", game, "--as", "austria")["head"]  # austria's numbers are commands' (§V.6)
    for at in map(str, range(0, head + 1)):
        assert austria.json("view", game, "--as", "austria", "--at", at) == \
            umpire.json("view", game, "--as", "austria", "--at", at), f"austria's view after #{at}"
        assert austria("view", game, "--as", "austria", "--at", at).stdout == \
            umpire("view", game, "--as", "austria", "--at", at).stdout  # who is awaited then, too
        assert austria.json("replay", game, "--as", "austria", "--to", at) == \
            umpire.json("replay", game, "--as", "austria", "--to", at)
    views = [austria.json("view", game, "--as", "austria", "--at", str(at))["state"] for at in (1, 2, head)]
    assert views[0] != views[1] != views[2], "the copy's view moves with its history"


def test_a_copy_answers_view_legal_and_status_for_its_seat_without_as(played: tuple[Cli, Cli, str]) -> None:
    """A seat's copy holds one seat's served game: `view`, `legal` and `status` read it as that seat when --as is
    left out, exactly as with --as naming it (before, view and legal asked for --as and status read as umpire)."""
    umpire, austria, game = played
    for command in ("view", "legal", "status"):
        assert austria.json(command, game) == austria.json(command, game, "--as", "austria"), command
        assert austria(command, game).stdout == austria(command, game, "--as", "austria").stdout, command
    assert umpire.json("view", game) == umpire.json("view", game, "--as", "umpire")  # the umpire's database: umpire


def test_replay_step_walks_a_copy_and_its_file_as_it_walks_the_seats_game(played: tuple[Cli, Cli, str],
                                                                         tmp_path: Path) -> None:
    umpire, austria, game = played
    served = stepped(umpire, game, "--from", "1")  # austria's command #1, Frimont's entry, voided by its undo
    assert "VOIDED by the undo at #2" in served and "blocks" in served
    assert stepped(austria, game, "--from", "1") == served
    assert stepped(austria, str(tmp_path / "for-austria.jsonl"), "--from", "1") == served


def test_report_and_its_viewer_from_a_copy_are_the_seats_report_from_the_umpires_database(
        played: tuple[Cli, Cli, str], tmp_path: Path) -> None:
    umpire, austria, game = played
    for kind, extra in (("report", ()), ("viewer", ("--viewer",))):
        files = {}
        for who, run in (("umpire", umpire), ("austria", austria)):
            files[who] = tmp_path / f"{kind}-{who}.html"
            run("report", game, "--as", "austria", *extra, "-o", str(files[who]))
        assert files["austria"].read_bytes() == files["umpire"].read_bytes(), kind
        unnamed = tmp_path / f"{kind}-unnamed.html"  # --as left out: a copy reads as its seat, and says so
        said = austria("report", game, *extra, "-o", str(unnamed)).stdout
        assert "as austria saw it" in said and unnamed.read_bytes() == files["austria"].read_bytes(), kind


def test_a_copy_refuses_an_export_that_rewrites_what_the_seat_was_shown(played: tuple[Cli, Cli, str],
                                                                        tmp_path: Path) -> None:
    umpire, austria, game = played
    umpire.submit(game, "austria", {"type": "end_turn"})
    lines = umpire("export", game, "--as", "austria").stdout.splitlines()
    points = [k for k, line in enumerate(lines) if '"record":"seat_view"' in line]
    assert len(points) == umpire.json("status", game, "--as", "austria")["head"] + 1, "one view for each command"
    edited = lines.copy()
    edited[points[2]] = edited[points[2]].replace('\\"op\\":\\"replace\\"', '\\"op\\":\\"add\\"', 1)
    assert edited[points[2]] != lines[points[2]]
    (tmp_path / "edited.jsonl").write_text("\n".join(edited) + "\n", encoding="utf-8")
    refused = austria("import", str(tmp_path / "edited.jsonl"), code=2).stderr
    assert "austria's view after #2: its digest does not follow from its patch" in refused  # the server's seal
    cut = [line for k, line in enumerate(lines) if k != points[-1]]
    (tmp_path / "cut.jsonl").write_text("\n".join(cut) + "\n", encoding="utf-8")
    assert "holds no view after each of its commands" in austria("import", str(tmp_path / "cut.jsonl"), code=2).stderr
    assert austria.json("status", game, "--as", "austria")["head"] == 3, "the copy held is unchanged"
    (tmp_path / "next.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    austria("import", str(tmp_path / "next.jsonl"))
    assert austria.json("view", game, "--as", "austria") == umpire.json("view", game, "--as", "austria")


def test_check_finds_a_copys_view_that_no_longer_applies(played: tuple[Cli, Cli, str], tmp_path: Path) -> None:
    _, austria, game = played
    assert austria.json("check", game)[0]["ok"] is True
    with sqlite3.connect(tmp_path / "austria.db") as db:
        (text,) = db.execute("SELECT export FROM seat_copies").fetchone()
        lines = text.splitlines()
        k = [i for i, line in enumerate(lines) if '"record":"seat_view"' in line][2]
        lines[k] = lines[k].replace('/view/engine/seq', '/view/engine/sequence', 1)  # replaces what is not there
        assert lines[k] != text.splitlines()[k]
        db.execute("UPDATE seat_copies SET export=?", ("\n".join(lines) + "\n",))
    (found,) = austria.json("check", game, code=1)
    assert not found["ok"] and found["problems"] == [  # check's words: 'nothing imported' is import's to say
        "views: austria's copy of g: austria's view after #2: operation 1: /view/engine/sequence does not exist (use add)"]


def test_a_copy_stored_damaged_is_named_as_that_seats_copy_of_that_game(played: tuple[Cli, Cli, str],
                                                                        tmp_path: Path) -> None:
    _, austria, game = played
    with sqlite3.connect(tmp_path / "austria.db") as db:
        (text,) = db.execute("SELECT export FROM seat_copies").fetchone()
        db.execute("UPDATE seat_copies SET export=?", (text.replace("\n", "\n{", 1),))
    said = austria("view", game, code=2).stderr
    assert said.startswith("error (input/bad-file): austria's copy of g, line 2: not JSON"), said


def test_replay_of_a_copy_holds_the_notes_up_to_the_event_replayed_to_as_the_umpires_does(
        played: tuple[Cli, Cli, str], tmp_path: Path) -> None:
    """Notes on #1 and on the head: a replay of the copy to each event holds the notes on that event and before it,
    from #1, exactly as the umpire's database serves austria's replay."""
    umpire, austria, game = played
    head = umpire.json("status", game)["head"]
    for at in ("1", str(head)):
        umpire("annotate", game, f"on #{at}", "--as", "umpire", "--at", at)
    umpire("export", game, "--as", "austria", "-o", str(tmp_path / "notes.jsonl"))
    austria("import", str(tmp_path / "notes.jsonl"))
    last = umpire.json("status", game, "--as", "austria")["head"]  # austria's numbers: commands (§V.6)
    for at in (0, 1, last):  # event #1 is command 0's, the head its last command's
        replayed = austria.json("replay", game, "--as", "austria", "--to", str(at))
        assert replayed == umpire.json("replay", game, "--as", "austria", "--to", str(at)), at
        assert [n["text"] for n in replayed["notes"]] == ["on #1", *([f"on #{head}"] if at == last else [])], at
        assert [n["seq"] for n in replayed["notes"]] == [0, *([last] if at == last else [])], at


def test_a_copys_log_between_two_events_is_the_umpires_log_as_served_to_its_seat(played: tuple[Cli, Cli, str]) -> None:
    umpire, austria, game = played
    for span in (("--from", "1", "--to", "2"), ("--from", "2"), ("--to", "0")):  # austria's numbers: commands
        log = austria.json("log", game, "--as", "austria", *span)
        assert log == umpire.json("log", game, "--as", "austria", *span), span
    assert [e["seq"] for e in austria.json("log", game, "--from", "1", "--to", "2")] == [1, 2]
    copy = SeatCopy.find(SQLiteStore(str(austria.db)), game)  # the read call itself, as `replay --step` makes it
    assert copy is not None and [e["seq"] for e in copy.log(game, "austria", 1, 2)] == [1, 2]
    assert copy.log(game, "austria", 2, 2) == Arbitro(SQLiteStore(str(umpire.db))).log(game, "austria", 2, 2)


def test_who_a_copy_says_was_awaited_after_each_event_is_what_the_seat_was_shown_then(
        played: tuple[Cli, Cli, str], tmp_path: Path) -> None:
    umpire, austria, game = played
    umpire.submit(game, "austria", {"type": "end_turn"})  # france is awaited then
    umpire("export", game, "--as", "austria", "-o", str(tmp_path / "next.jsonl"))
    austria("import", str(tmp_path / "next.jsonl"))
    copy = SeatCopy.find(SQLiteStore(str(tmp_path / "austria.db")), game)
    app = Arbitro(SQLiteStore(str(tmp_path / "umpire.db")))
    assert copy is not None
    awaited = [copy.awaiting_at(game, at) for at in range(0, copy.numbers.head + 1)]
    assert awaited == [app.awaiting_at(game, at, "austria") for at in range(0, copy.numbers.head + 1)]
    assert len({json.dumps(msgspec.to_builtins(a), sort_keys=True) for a in awaited}) > 1, "who is awaited changes"
    assert copy.awaiting_at(game) == awaited[-1]


# --- non-interference: which French block stands where changes nothing of austria's copy nor what it shows ---------
def twin(db: Path, swap: bool) -> None:
    """A Marengo position with Champeaux's and Carra's faces under the same tokens in the same places, or exchanged
    (marengo §4: austria sees where a face-down block stands, not what it is); austria moves and ends its turn."""
    pos = marengo_position({"AUT_PILATI": ("cascina_grossa", "reserve"), "FRA_CHAMPEAUX": ("san_giuliano", "reserve"),
                            "FRA_CARRA": ("marengo", "reserve")})
    if swap:
        blocks = pos["state"]["blocks"]
        for key in ("zone", "place", "token"):
            blocks["FRA_CHAMPEAUX"][key], blocks["FRA_CARRA"][key] = blocks["FRA_CARRA"][key], blocks["FRA_CHAMPEAUX"][key]
    store = SQLiteStore(str(db))
    app = Arbitro(store, wall_clock=lambda: "2026-11-28T08:00:00+00:00")  # the twins share their clock
    app.create("marengo", position=pos, game_id="g")
    for n, command in enumerate(({"type": "move", "blocks": ["b001"], "to": "barbotta", "place": "reserve"},
                                 {"type": "end_turn"})):
        app.submit("g", "austria", command, key=f"key-{n}")
    store.close()


DIGEST = re.compile(r'"[0-9a-f]{64}"')


def opaque(text: str) -> str:
    """Salted digests (the chain's hashes, the position digest keyed by the secret seed, arbitro §V.3) masked: a
    seat cannot test candidates against them."""
    return DIGEST.sub('"(digest)"', text)


def test_which_french_block_stands_where_changes_no_byte_of_austrias_copy_nor_what_it_shows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    same_secrets(monkeypatch)
    shown: dict[bool, list[str]] = {}
    frances: dict[bool, str] = {}
    for swap in (False, True):
        where = tmp_path / str(swap)
        where.mkdir()
        twin(where / "umpire.db", swap)
        umpire, austria = Cli(where / "umpire.db"), Cli(where / "austria.db")
        umpire("export", "g", "--as", "austria", "-o", str(where / "for-austria.jsonl"))
        austria("import", str(where / "for-austria.jsonl"))
        with sqlite3.connect(where / "austria.db") as db:
            (copy,) = db.execute("SELECT export FROM seat_copies").fetchone()
        copy = re.sub(r'"server_key":"[^"]*"', '"server_key":"(this server)"', copy)
        # The seal signs what austria holds (the served chain's head, its views, its seat state), with each server's
        # own key: a signature over masked digests, it tells austria nothing its masked inputs do not.
        copy = re.sub(r'"signature":"[0-9a-f]{128}"', '"signature":"(this server\'s)"', copy)
        head = austria.json("status", "g", "--as", "austria")["head"]
        outputs = [austria("view", "g", "--as", "austria", "--at", str(at)).stdout for at in range(1, head + 1)]
        outputs += [stepped(austria, "g", "--from", "1"), austria("replay", "g", "--as", "austria", "--to", "2").stdout]
        austria("report", "g", "--as", "austria", "--viewer", "-o", str(where / "viewer.html"))
        austria("report", "g", "--as", "austria", "-o", str(where / "report.html"))
        outputs += [(where / name).read_text(encoding="utf-8") for name in ("viewer.html", "report.html")]
        shown[swap] = [opaque(copy), *map(opaque, outputs)]
        frances[swap] = opaque(umpire("export", "g", "--as", "france").stdout)
        assert "FRA_CARRA" not in copy and "FRA_CHAMPEAUX" not in copy
        assert json.loads(copy.splitlines()[0])["redacted_for"] == "austria"
    assert shown[False] == shown[True]
    assert frances[False] != frances[True], "france's own export shows the swap"


# --- the patches a copy's history is written in -----------------------------------------------------------------
JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["a", "b/c", "~d", ""]),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(["x", "y", "z/w", "~v", "0"]), inner, max_size=4),
                    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["view", "awaiting", "seq"]), JSON), st.dictionaries(
    st.sampled_from(["view", "awaiting", "seq"]), JSON))
def test_a_patch_makes_one_view_into_the_next_keys_in_order(before: dict, after: dict) -> None:
    ops = patch_between(before, after)
    made = apply_patch(json.loads(json.dumps(before)), json.loads(json.dumps(ops)))
    assert made == after and json.dumps(made) == json.dumps(after), "the same values, and keys in the same order"
    assert (ops == []) == (json.dumps(before) == json.dumps(after))


def test_a_copy_verified_against_a_head_the_seat_recorded_says_whether_it_holds_it(played: tuple[Cli, Cli, str]) -> None:
    """`verify GAME --head HASH` on a seat's copy checks the hash the seat recorded, as on the exported file."""
    umpire, austria, game = played
    recorded = austria.json("log", game)[1]["hash"]  # command 1's link, as austria was served it
    checks = austria.json("verify", game, "--head", recorded)["checks"]  # named in austria's numbers (§V.6)
    assert {"name": "trusted head", "status": "passed",
            "detail": f"commands #0-#1 are the chain you recorded ({recorded[:12]}... at #1)"} in checks
    other = "ab" * 32
    failed = austria.json("verify", game, "--head", other, code=1)["checks"]
    assert {"name": "trusted head", "status": "failed", "detail": (
        "the hash you recorded (abababababab...) is not in this log: it is not the log you played")} in failed


def test_a_copy_verified_with_a_seats_key_the_file_does_not_carry_fails_the_signatures(
        played: tuple[Cli, Cli, str]) -> None:
    """`verify GAME --seat-key SEAT=KEY` on a seat's copy asserts the key, as on the exported file (arbitro §L.6)."""
    _, austria, game = played
    key = signing.public_key(signing.new_private_key())
    checks = austria.json("verify", game, "--seat-key", f"austria={key}", code=1)["checks"]
    assert {"name": "seat signatures", "status": "failed", "detail": (
        f"the file does not carry austria's key {key[:16]}... (it carries none): its commands in austria's name are "
        "not the ones that seat signed")} in checks
