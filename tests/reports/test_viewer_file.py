"""`arbitro report --viewer` (issue 13): the browser viewer as one self-contained HTML file a seat opens offline. It
holds only what the seat's endpoints serve it (non-interference: two games differing in a hidden fact give the other
seat the same bytes), every picture put together again is exactly `render`'s, and it reaches nothing.
tests/server/test_viewer.py opens such a file in Chromium."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from arbitro.adjudicator import service

from arbitro.adjudicator import viewer_file
from arbitro.adjudicator.render import render
from arbitro.adjudicator.report_phrases import worded
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.viewer_file import DATA_ID, PAGE, SHOWN, Frames, game_file_data, offline_page
from arbitro.cli import cli
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE
from tests.marengo.harness import position as marengo_position
from tests.reports.test_report import marengo_game
from tests.seeds import same_secrets

DATA = re.compile(rf'<script type="application/json" id="{DATA_ID}">(.*?)</script>', re.S)


def file_data(page: str) -> dict:
    found = DATA.search(page)
    assert found is not None, "the page holds its game in its data block"
    return json.loads(found.group(1))


def pictures(data: dict) -> dict[int, str]:
    """Every picture of the file, unfolded as the page does: a run [start, count] takes slots of the table of lines
    from start on, or (start < 0) slots of the picture before it from position -1 - start on."""
    frames, unfolded = data["frames"], []
    for k, runs in enumerate(frames["pictures"]):
        last = unfolded[-1] if k % frames["key_every"] else []
        unfolded.append([start + i if start >= 0 else last[-1 - start + i] for start, count in runs for i in range(count)])
    return {int(seq): "\n".join(frames["lines"][slot] for slot in unfolded[k]) for seq, k in frames["at"].items()}


def opaque(page: str) -> str:
    return re.sub(r'"position":"[0-9a-f]{64}"', '"position":"(digest)"', page)


def offline(app: Arbitro, seat: str) -> str:
    return offline_page(game_file_data(app, "marengo-g", seat))


def test_the_file_holds_the_seat_s_served_events_notes_and_render_s_picture_after_each() -> None:
    app = marengo_game({"FRA_CARRA": ("marengo", "reserve")})
    data = file_data(offline(app, "austria"))
    served = worded(app.log("marengo-g", "austria"))  # one item per command, as the server serves it (§V.6)
    assert data["events"] == json.loads(json.dumps([{k: e[k] for k in SHOWN if k in e} for e in served]))
    assert all(set(e) - set(SHOWN) <= {"hash", "prev", "cmd_hash", "salt"} for e in served)
    assert [n["text"] for n in data["notes"]] == ["Pilati waits in reserve"], "france's private note is not in it"
    drawn = pictures(data)
    assert sorted(drawn) == [e["seq"] for e in data["events"]]
    assert all(drawn[seq] == render(app, "marengo-g", "austria", seq).svg for seq in drawn)
    assert len(set(drawn.values())) > 1, "the picture changes along the game"
    assert data["status"]["seats"] == ["austria"] and data["status"]["head"] == app.game("marengo-g").head_cmd


def twin(swap: bool) -> Arbitro:
    """marengo_game's position with Champeaux's and Carra's faces under the same tokens in the same places, or
    exchanged (marengo §4: Austria sees where a face-down block stands, not what it is)."""
    pos = marengo_position({"AUT_PILATI": ("cascina_grossa", "reserve"), "FRA_CHAMPEAUX": ("san_giuliano", "reserve"),
                            "FRA_CARRA": ("marengo", "reserve")})
    if swap:
        blocks = pos["state"]["blocks"]
        for key in ("zone", "place", "token"):
            blocks["FRA_CHAMPEAUX"][key], blocks["FRA_CARRA"][key] = blocks["FRA_CARRA"][key], blocks["FRA_CHAMPEAUX"][key]
    app = Arbitro(SQLiteStore(":memory:"))
    app.create("marengo", position=pos, game_id="marengo-g")
    for command in ({"type": "move", "blocks": ["b001"], "to": "barbotta", "place": "reserve"}, {"type": "end_turn"}):
        app.submit("marengo-g", "austria", command)
    app.annotate("marengo-g", "austria", 1, "Pilati waits in reserve")  # command #1, the move (#2-#3)
    return app


def test_which_french_block_stands_where_changes_no_byte_of_austria_s_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """The twins share their seed and clock; the one value that differs is the position digest keyed by the
    secret seed (`origin.position`, arbitro §V.3), which a seat cannot test candidates against."""
    same_secrets(monkeypatch)
    monkeypatch.setattr(service, "now", lambda: "2026-11-28T08:00:00+00:00")
    first, second = twin(False), twin(True)
    assert opaque(offline(first, "austria")) == opaque(offline(second, "austria"))
    assert offline(first, "france") != offline(second, "france"), "france's own file shows the swap"
    assert offline(first, UMPIRE) != offline(second, UMPIRE)
    assert "FRA_CARRA" not in offline(first, "austria") and "FRA_CARRA" in offline(first, "france")


def test_frames_store_each_picture_exactly_and_share_what_pictures_share(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(viewer_file, "KEY_EVERY", 3)  # pictures 0 and 3 stored whole, the others from the last
    frames = Frames()
    a = "<svg>\n<g>\n<rect x=\"1\"/>\n</g>\n<g>\n<rect x=\"2\"/>\n</g>\n</svg>"
    b = a.replace('x="2"', 'x="3"')
    svgs = [a, a, b, a + "\n", b, "<svg>\n</svg>", a, b.replace("<g>\n", "", 1)]
    for seq, svg in enumerate(svgs, 1):
        frames.add(seq, svg)
    assert pictures({"frames": frames.data()}) == dict(enumerate(svgs, 1)), "the page's unfolding, written again"
    assert frames.at[1] == frames.at[2] != frames.at[3], "two events with one picture share it"
    assert len(frames.lines) == len(a.split("\n")) + 2, "b adds its one new line, the fourth picture its empty last"
    assert frames.pictures[1] == [[-1, 5], [8, 1], [-7, 2]], "b: a's first five lines, its own, a's last two"
    assert all(start >= 0 for k in (0, 3, 6) for start, _ in frames.pictures[k]), "stored whole"


def test_the_page_reaches_nothing_and_no_text_of_the_game_can_close_its_data_block() -> None:
    app = marengo_game({"FRA_CARRA": ("marengo", "reserve")})
    app.annotate("marengo-g", "austria", 1, "</script><script>alert(1)</script>")
    page = offline(app, "austria")
    assert page.count("</script>") == PAGE.count("</script>") + 1 and "alert(1)" in page
    assert [n["text"] for n in file_data(page)["notes"]][-1] == "</script><script>alert(1)</script>"
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    assert policy and "default-src 'none'" in policy.group(1) and "connect-src" not in policy.group(1)


def test_report_viewer_writes_one_html_file_and_refuses_markdown(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    app = Arbitro(SQLiteStore(str(db)))
    game = app.create("marengo", "marengo")
    for _ in range(2):
        app.submit(game, "austria", app.legal(game, "austria")[0])
    target = tmp_path / "austria.html"
    done = CliRunner().invoke(cli, ["report", game, "--as", "austria", "--viewer", "-o", str(target), "--db", str(db),
                                    "--json"])
    assert done.exit_code == 0, done.output
    said = json.loads(done.output)
    data = file_data(target.read_text(encoding="utf-8"))
    assert said["written"] == [str(target)] and said["events"] == len(data["events"]) == app.game(game).head_cmd + 1  # commands #0 to the head
    assert said["pictures"] == len(data["frames"]["pictures"]) > 1
    assert "FRA_" not in target.read_text(encoding="utf-8"), "the French At Start draw is hidden from Austria"
    refused = CliRunner().invoke(cli, ["report", game, "--viewer", "-o", str(tmp_path / "game.md"), "--db", str(db)])
    assert refused.exit_code == 2 and "--viewer writes one HTML file" in refused.output
    for pictures in ("end", "turns"):  # refused, not ignored: the viewer draws a picture after every event
        refused = CliRunner().invoke(cli, ["report", game, "--as", "austria", "--viewer", "--pictures", pictures, "-o",
                                           str(tmp_path / "v.html"), "--db", str(db)])
        assert refused.exit_code == 2 and f"--pictures {pictures} is the report's" in refused.output
    assert not (tmp_path / "v.html").exists()


def test_drawing_the_file_s_pictures_says_how_far_it_has_got() -> None:
    app = marengo_game({"FRA_CARRA": ("marengo", "reserve")})
    calls: list[tuple[int, int]] = []
    data = game_file_data(app, "marengo-g", "austria", progress=lambda done, total: calls.append((done, total)))
    assert calls == [(k, len(data["events"])) for k in range(1, len(data["events"]) + 1)]
