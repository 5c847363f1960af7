"""The browser viewer (issue 13), in a real browser: Playwright driving the system Chromium (Debian's `chromium`;
.ci/run installs it) against the server started in-process. One server and one browser for the module.

The page shows the seat's own map picture (the server's SVG for that seat at the selected event), steps through the
events as the seat is served them, follows the live stream, and never holds what the seat may not know: its DOM
is checked, not only the JSON. The same page as one offline file (`arbitro report --viewer`) is opened from disk."""

from __future__ import annotations

import os
import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.render import render
from arbitro.adjudicator.viewer_file import game_file_data, offline_page

from .conftest import Server

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
except ImportError:  # the [test] extra installs it
    sync_playwright = None

CHROMIUM = next((p for p in (os.environ.get("ARBITRO_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                             shutil.which("chromium-browser")) if p and os.path.exists(p)), None)
pytestmark = pytest.mark.xdist_group("viewer")  # one worker, one server and one browser for the module
CONSOLE_ERRORS: list[str] = []  # a script error, or what the page's Content-Security-Policy refused
WAIT = 20_000  # ms: the most an expectation waits (a picture is drawn in well under a second)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    missing = ("no Chromium (apt-get install chromium)" if CHROMIUM is None else
               "no playwright (pip install -e '.[test]')" if sync_playwright is None else "")
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser viewer's tests must run in CI: {missing}")
        pytest.skip(f"the browser viewer's tests need a browser: {missing}")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def quiet_console() -> Iterator[None]:
    CONSOLE_ERRORS.clear()
    yield
    assert not CONSOLE_ERRORS, f"errors in the viewer's console: {CONSOLE_ERRORS}"


def open_viewer(server: Server, browser: Browser, game: str, role: str) -> tuple[Page, list[Any]]:
    """The viewer page of `game` opened with `role`'s token in the URL fragment; the requests it made."""
    page = browser.new_page()
    requests: list[Any] = []
    page.on("request", lambda request: requests.append(request))
    page.on("console", lambda message: message.type == "error" and CONSOLE_ERRORS.append(message.text))
    token = server.tokens[game][role]
    page.goto(f"{server.url}/games/{game}/viewer#token={token}")
    expect(page.locator("#picture svg")).to_be_visible(timeout=WAIT)
    assert token not in page.url, "the token is taken out of the address bar"
    return page, requests


def svg_text(svg: str) -> str:
    return "".join(ET.fromstring(svg).itertext())


def shows_server_picture(page: Page, server: Server, game: str, role: str, seq: int) -> None:
    """The page shows event `seq` and exactly the server's picture of it for `role` (the same text and shapes)."""
    expect(page.locator("#picture")).to_have_attribute("data-seq", str(seq), timeout=WAIT)
    served = server.client(role, game).get(f"/games/{game}/picture", params={"at": seq})
    assert served.status_code == 200 and served.headers["content-type"].startswith("image/svg+xml")
    shown = page.locator("#picture svg")
    assert shown.text_content() == svg_text(served.text)
    assert shown.evaluate("svg => svg.querySelectorAll('*').length") == len(list(ET.fromstring(served.text).iter())) - 1


def played(server: Server, game: str, seat: str, commands: int) -> int:
    """`seat` sends its first legal command `commands` times; the game's last command's number after them."""
    for _ in range(commands):
        command = server.client(seat, game).get(f"/games/{game}/legal").json()[0]
        sent = server.client(seat, game).post(f"/games/{game}/commands", json={"command": command})
        assert sent.status_code == 200, sent.text
    return server.app.game(game).head_cmd


def test_the_viewer_shows_the_seat_s_set_up_picture_and_steps_through_the_events(server: Server,
                                                                                 browser: Browser) -> None:
    """A seat steps through what it was served command by command (engine-rules §V.6): the set-up is command #0."""
    game = server.new("marengo", "marengo")
    for role, text, private in (("france", "the line holds", False), ("austria", "a private plan", True)):
        noted = server.client(role, game).post(f"/games/{game}/notes", json={"at": 0, "text": text, "private": private})
        assert noted.status_code == 201, noted.text
    head = played(server, game, "austria", 3)
    page, requests = open_viewer(server, browser, game, "france")
    shows_server_picture(page, server, game, "france", head)
    assert page.locator("#events > li").count() == head + 1  # commands #0 to the head
    placed = page.locator('#events li[data-seq="0"]').inner_text()
    assert "At Start blocks are placed" in placed and "france: the line holds" in placed  # event #3 is in command #0
    assert "a private plan" not in page.content(), "austria's private note in france's viewer"
    last = page.locator("#picture svg").text_content()
    page.click("#first")
    shows_server_picture(page, server, game, "france", 0)  # the set-up: the French At Start blocks placed
    assert page.locator("#picture svg").text_content() != last, "stepping changes the picture"
    page.click("#next")
    page.keyboard.press("ArrowRight")
    shows_server_picture(page, server, game, "france", 2)
    page.locator("#slider").fill("2")
    shows_server_picture(page, server, game, "france", 1)
    origin = server.url + "/"
    assert all(r.url.startswith(origin) for r in requests), "the page reaches nothing but its server"
    calls = [r for r in requests if "/viewer" not in r.url]
    assert calls and all(r.headers.get("authorization") == "Bearer " + server.tokens[game]["france"] for r in calls)
    page.close()


def test_a_new_event_reaches_the_open_viewer_through_the_stream(server: Server, browser: Browser) -> None:
    game = server.new("marengo", "marengo")
    page, _ = open_viewer(server, browser, game, "france")
    expect(page.locator("#stream")).to_have_text(re.compile("live"), timeout=WAIT)
    new_head = played(server, game, "austria", 1)
    assert new_head == 1
    expect(page.locator("#head")).to_have_text(str(new_head), timeout=WAIT)
    assert page.locator("#events > li").count() == new_head + 1
    shows_server_picture(page, server, game, "france", new_head)  # it was following the last command
    page.close()


def test_a_seat_s_viewer_never_holds_what_only_the_umpire_may_see(server: Server, browser: Browser) -> None:
    """Austria may not know which French blocks were drawn for the At Start zones (marengo §6): their names are
    in the umpire's viewer and nowhere in Austria's, at any event."""
    game = server.new("marengo", "marengo")
    umpire, _ = open_viewer(server, browser, game, "umpire")
    assert "FRA_" in umpire.locator("#picture").inner_html() and "FRA_" in umpire.locator("#events").inner_text()
    umpire.select_option("#as", "austria")  # the umpire reads as a seat: that seat's picture and events
    expect(umpire.locator("#picture")).to_have_attribute("data-seat", "austria", timeout=WAIT)
    expect(umpire.locator("#events > li").first).to_be_attached(timeout=WAIT)
    assert "FRA_" not in umpire.locator("#picture").inner_html() + umpire.locator("#events").inner_text()
    served = server.client("umpire", game).get(f"/games/{game}/picture", params={"seat": "austria"}).text
    assert umpire.locator("#picture svg").text_content() == svg_text(served)
    umpire.close()
    head = played(server, game, "austria", 2)
    page, _ = open_viewer(server, browser, game, "austria")
    page.click("#first")
    for seq in range(head + 1):  # a seat's numbers are its commands' (§V.6)
        expect(page.locator("#picture")).to_have_attribute("data-seq", str(seq), timeout=WAIT)
        assert "FRA_" not in page.content(), f"a French block's name in Austria's viewer at #{seq}"
        page.keyboard.press("ArrowRight")
    assert "a draw hidden from you, for marengo §6 French At Start blocks" in page.locator('#events li[data-seq="0"]').inner_text()
    page.close()


def test_the_forks_of_a_game_are_listed_and_lead_to_the_event_they_left(server: Server, browser: Browser) -> None:
    game = server.new("marengo", "marengo")
    at = server.app.game(game).head_seq  # the set-up's end: a fork is made at the end of a command (arbitro §U.3)
    forked = server.client("umpire", game).post(f"/games/{game}/fork", json={"at": at})
    assert forked.status_code == 201, forked.text
    child = forked.json()["game"]
    server.tokens[child] = forked.json()["tokens"]
    command = server.client("austria", game).get(f"/games/{game}/legal").json()[0]
    assert server.client("austria", game).post(f"/games/{game}/commands", json={"command": command}).status_code == 200
    page, _ = open_viewer(server, browser, game, "france")
    fork = page.locator(f'#forks li[data-fork="{child}"]')
    expect(fork).to_have_attribute("data-at", "0", timeout=WAIT)  # france is told the command: the set-up (§V.6)
    assert fork.locator("a").get_attribute("href") == f"/games/{child}/viewer"
    expect(page.locator('#events li.fork')).to_have_count(1)
    assert page.locator("#picture").get_attribute("data-seq") != "0"
    fork.click()
    shows_server_picture(page, server, game, "france", 0)
    page.close()
    page, _ = open_viewer(server, browser, child, "france")
    # france is told the parent's command it left, the set-up, #0 (engine-rules §V.6), not its event #{at}
    expect(page.locator("#lineage")).to_have_text(f"⑂ forked from {game} at #0", timeout=WAIT)
    page.close()


def test_the_offline_file_steps_through_the_seat_s_pictures_and_reaches_nothing(server: Server, browser: Browser,
                                                                              tmp_path: Path) -> None:
    """`arbitro report --viewer`'s file, opened from disk: render's picture at each event, the seat's events, the
    forks it was told of, no request anywhere, no French block's name in Austria's file."""
    game = server.new("marengo", "marengo")
    at = server.app.game(game).head_seq
    forked = server.client("umpire", game).post(f"/games/{game}/fork", json={"at": at})
    assert forked.status_code == 201, forked.text
    head = played(server, game, "austria", 2)  # austria's numbers are its commands' (§V.6): the fork is #1
    target = tmp_path / "austria.html"
    target.write_text(offline_page(game_file_data(server.app, game, "austria")), encoding="utf-8")
    page = browser.new_page()
    requests: list[Any] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda message: message.type == "error" and CONSOLE_ERRORS.append(message.text))
    page.goto(target.as_uri())
    expect(page.locator("#picture")).to_have_attribute("data-seq", str(head), timeout=WAIT)

    def shows(seq: int) -> None:
        expect(page.locator("#picture")).to_have_attribute("data-seq", str(seq), timeout=WAIT)
        assert page.locator("#picture svg").text_content() == svg_text(render(server.app, game, "austria", seq).svg)

    shows(head)
    assert page.locator("#events > li").count() == head + 1 and page.locator("#stream").inner_text() == "offline file"
    expect(page.locator(f'#forks li[data-fork="{forked.json()["game"]}"]')).to_have_attribute("data-at", "0")
    page.click("#first")
    shows(0)
    for seq in range(1, head + 1):
        page.keyboard.press("ArrowRight")
        shows(seq)
        assert "FRA_" not in page.content(), f"a French block's name in Austria's file at #{seq}"
    assert requests == [target.as_uri()], "the file reaches nothing"
    page.close()
