"""`arbitro report` (issue 13): every shipped game in logs/ is told whole, turn by turn, with its result, by the umpire
and by each seat; a seat's report is built from what that seat was served only (non-interference: two games differing
in a hidden fact give the other seat the same bytes); notes, rulings and undos appear where the seat may read them."""

from __future__ import annotations

import html as markup
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from arbitro.adjudicator import cli_common, registry
from arbitro.adjudicator.cli_common import app_for
from arbitro.adjudicator.report_phrases import told
from arbitro.adjudicator.report import SCORES, report
from arbitro.adjudicator.report_pages import to_html, to_markdown
from arbitro.adjudicator.service import POSITION_FORMAT, Arbitro
from arbitro.cli import cli
from arbitro.events import random as rnd
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE
from tests.caldiero.harness import position as caldiero_position
from tests.marengo.harness import position as marengo_position
from tests.pictures.test_render import OOC, OTHER
from tests.monferrato.harness import Game, set_up
from tests.reports import golden
from arbitro.adjudicator.seat_numbers import events_of
from tests.conformance.leaks import leaked

LOGS = sorted((Path(__file__).resolve().parents[2] / "logs").glob("*.jsonl"))


def page(html: str) -> ET.Element:
    """The report's page, parsed: it is well-formed XML (the inline SVG pictures included)."""
    return ET.fromstring(html.removeprefix("<!DOCTYPE html>"))


@pytest.mark.parametrize("log", LOGS, ids=[log.stem for log in LOGS])
def test_every_shipped_game_is_told_whole_with_its_result_and_as_a_seat_saw_it(log: Path) -> None:
    app, game = app_for(str(log), ":memory:")
    story = report(app, game, UMPIRE, pictures="end")
    html = to_html(story)
    seqs = {int(s.text.lstrip("#")) for s in page(html).iter("span") if s.get("class") == "seq" and s.text}
    told_events = {e["seq"] for e in app.log(game) if told(e["type"])}
    assert seqs == told_events, "each event of the story is told once, with its number"
    outcome = registry.get(story.ruleset).outcome(app.state_at(game).rules)
    assert outcome is not None and outcome.reason in story.result and outcome.reason in markup.unescape(html)
    assert len(story.sections) >= 2 and story.sections[0].first == 1 and story.sections[-1].last == story.head
    final = app.view(game, UMPIRE)["state"]
    kept = next((final[key] for key, _ in SCORES if isinstance(final.get(key), dict) and final[key]), {})
    assert story.sections[-1].score == kept, "the score table ends on the game's final score"
    markdown, files = to_markdown(story, "pictures")
    assert outcome.reason in markdown.replace("\\", "")
    assert [p.at for p in story.sections[-1].pictures] == [story.head] and not story.pictures_note
    assert list(files) and f"](pictures/{list(files)[0]})" in markdown
    assert len([svg for svg in page(html).iter("{http://www.w3.org/2000/svg}svg")]) == 1
    for seat in app.game(game).seats:
        a_seat_s_report_holds_only_what_it_was_served(app, game, seat)


def a_seat_s_report_holds_only_what_it_was_served(app: Arbitro, game: str, seat: str) -> None:
    story = report(app, game, seat, pictures="none")
    html = to_html(story)
    served = events_of(app.log(game, seat))
    assert {line.seq for s in story.sections for e in s.entries for line in e.lines} == \
        {e["seq"] for e in served if told(e["type"]) and e["type"] != "hidden"}
    assert sum(e.hidden for s in story.sections for e in s.entries) == sum(e["type"] == "hidden" for e in served)
    # What is hidden now (a unit out of sight) the report may name only where the seat was served it, when it could
    # see it (each served event is checked against the secrets right after it: tests/conformance).
    secrets = registry.get(story.ruleset).secrets(app.state_at(game).rules, seat)
    served_text = json.dumps(served)
    assert sorted(set(leaked(html, secrets)) - set(leaked(served_text, secrets))) == []


def marengo_game(french: dict[str, tuple[str, str]]) -> Arbitro:
    """A Marengo position with Pilati's Austrians and two French blocks face down, then three Austrian commands
    that reveal nothing (the same in every such game)."""
    app = Arbitro(SQLiteStore(":memory:"))
    app.create("marengo", position=marengo_position({"AUT_PILATI": ("cascina_grossa", "reserve"), **french}),
               game_id="marengo-g")
    for command in ({"type": "move", "blocks": ["b001"], "to": "barbotta", "place": "reserve"},
                    {"type": "end_turn"}):
        app.submit("marengo-g", "austria", command)
    app.annotate("marengo-g", "austria", 1, "Pilati waits in reserve")  # a seat's: command #1, the move (#2-#3)
    app.annotate("marengo-g", "france", 1, "they do not know which is Carra", private=True)
    return app


def reports(app: Arbitro, seat: str) -> bytes:
    story = report(app, "marengo-g", seat, pictures="turns")
    return (to_html(story) + to_markdown(story, "p")[0]).encode()


def test_which_french_block_stands_where_changes_no_byte_of_austria_s_report() -> None:
    cavalry = marengo_game({"FRA_CHAMPEAUX": ("san_giuliano", "reserve"), "FRA_CARRA": ("marengo", "reserve")})
    infantry = marengo_game({"FRA_CHAMPEAUX": ("marengo", "reserve"), "FRA_CARRA": ("san_giuliano", "reserve")})
    assert reports(cavalry, "france") != reports(infantry, "france"), "France's own report shows the swap"
    assert reports(cavalry, UMPIRE) != reports(infantry, UMPIRE)
    assert reports(cavalry, "austria") == reports(infantry, "austria")
    austria = reports(cavalry, "austria").decode()
    assert "Pilati waits in reserve" in austria and "which is Carra" not in austria, "France's private note"
    assert "which is Carra" in reports(cavalry, "france").decode()
    assert "FRA_CARRA" not in austria and "FRA_CHAMPEAUX" not in austria


def test_an_undo_strikes_out_the_commands_it_voided_and_a_ruling_is_told() -> None:
    app = Arbitro(SQLiteStore(":memory:"))
    game = app.create("caricat", "pastrengo", game_id="caricat-g")
    mark = app.game(game).head_seq
    tried = app.submit(game, "austrian", next(c for c in app.legal(game, "austrian") if c["type"] == "try_level"))
    app.undo(game, UMPIRE, mark, "entered by mistake")
    app.submit(game, UMPIRE, {"type": "ruling", "reason": "the Mincio bridges hold [arbitro §U.4]",
                              "interpretation": {"attack_fire": "one_die_fewer"}})
    story = report(app, game, "italian", pictures="none")
    entries = [e for s in story.sections for e in s.entries]
    voided = [e.cmd for e in entries if e.void]
    assert voided == [tried.cmd]
    undone = next(line for e in entries if e.kind == "undo" for line in e.lines if "entered by mistake" in line.text)
    ruling = next(e for e in entries if e.kind == "ruling")
    assert "the Mincio bridges hold [arbitro §U.4]" in ruling.lines[0].text
    assert story.interpretations["attack_fire"] == "one_die_fewer"
    html, markdown = to_html(story), to_markdown(story, "p")[0]
    assert f"voided by the undo at #{undone.seq}" in html and "<del>" in html
    assert "~~" in markdown and "\\[arbitro §U.4\\]" in markdown, "a citation's brackets stay text in Markdown"


def test_report_command_writes_html_or_markdown_and_prints_its_data(tmp_path: Path) -> None:
    runner = CliRunner()
    log = str(next(log for log in LOGS if log.name == "caricat-pastrengo.jsonl"))
    html, md = tmp_path / "game.html", tmp_path / "game.md"
    done = runner.invoke(cli, ["report", log, "--as", "italian", "--pictures", "end", "-o", str(html)])
    assert done.exit_code == 0, done.output
    assert "caricat-pastrengo as italian saw it" in done.output and page(html.read_text()).tag == "html"
    done = runner.invoke(cli, ["report", log, "--pictures", "40,200", "-o", str(md), "--json"])
    data = json.loads(done.output)
    assert done.exit_code == 0 and data["seat"] == UMPIRE
    assert [p["at"] for s in data["sections"] for p in s["pictures"]] == [40, 200]
    assert sorted(p.name for p in (tmp_path / "game-pictures").iterdir()) == \
        sorted(Path(w).name for w in data["written"][1:])
    assert all(Path(w).exists() for w in data["written"])


@pytest.mark.parametrize(("args", "message"), [
    (["--pictures", "soon"], "--pictures 'soon'"), (["--pictures", "0"], "event numbers start at 1"),
    ([], "say where to write the report"),
])
def test_report_command_refuses_bad_input_with_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["report", "no-such-game", *args])
    assert result.exit_code == 2 and message in result.output


def test_report_help_has_an_example() -> None:
    result = CliRunner().invoke(cli, ["report", "--help"])
    assert result.exit_code == 0 and "Example:" in result.output and "arbitro report" in result.output


def test_the_example_report_in_the_docs_is_current() -> None:
    text, files = golden.example()
    assert golden.EXAMPLE.read_text(encoding="utf-8") == text, "stale: python -m tests.reports.golden"
    assert {p.name: p.read_text(encoding="utf-8") for p in golden.PICTURES.iterdir()} == files


def test_a_report_says_how_far_it_has_got() -> None:
    app = marengo_game({"FRA_CARRA": ("marengo", "reserve")})
    calls: list[tuple[int, int]] = []
    story = report(app, "marengo-g", UMPIRE, pictures="turns", progress=lambda done, total: calls.append((done, total)))
    pictures = sum(len(s.pictures) for s in story.sections)
    assert pictures == len(story.sections) and len(calls) == 1 + pictures
    assert [d for d, _ in calls] == sorted({d for d, _ in calls}) and calls[-1][0] == calls[-1][1]


def monferrato_game(monkeypatch: pytest.MonkeyPatch, swap_hand: bool) -> Arbitro:
    """Monferrato on one seed, then an umpire's ruling (its patch not public) that swaps a hidden chit of
    Pro-France's hand for one in the cup, or two chits within the cup: the games differ in Pro-France's hand only."""
    monkeypatch.setattr(rnd, "new_seed", lambda: "5eed" * 16)
    monkeypatch.setattr(rnd, "new_salt_key", lambda: "a1" * 32)  # and its salt key
    app = Arbitro(SQLiteStore(":memory:"))
    app.create("monferrato", game_id="monferrato-g")
    set_up(Game(app, "monferrato-g"))  # the players' set-up choices (monferrato scenario), then the chits are dealt
    state = app.state_at("monferrato-g").rules
    held = next(i for i, c in enumerate(state.hands["pro_france"]) if c not in state.public_in_hand)
    swaps = ([(f"/hands/pro_france/{held}", state.chit_cup[0]), ("/chit_cup/0", state.hands["pro_france"][held])]
             if swap_hand else [("/chit_cup/0", state.chit_cup[1]), ("/chit_cup/1", state.chit_cup[0])])
    app.submit("monferrato-g", UMPIRE, {"type": "ruling", "reason": "a chit was misplaced [arbitro §U.4]",
                                        "patch": [{"op": "replace", "path": p, "value": v} for p, v in swaps]})
    return app


def test_what_pro_france_holds_changes_no_byte_of_pro_spain_s_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """monferrato §4: the chits in hand are hidden from the other player, and a ruling's patch from both."""
    swapped, kept = monferrato_game(monkeypatch, True), monferrato_game(monkeypatch, False)

    def told_to(app: Arbitro, seat: str) -> bytes:
        story = report(app, "monferrato-g", seat, pictures="turns")
        return (to_html(story) + to_markdown(story, "p")[0]).encode()

    assert swapped.view("monferrato-g", "pro_france")["state"]["hand"] != kept.view("monferrato-g", "pro_france")[
        "state"]["hand"], "the two games differ in Pro-France's hand"
    assert told_to(swapped, UMPIRE) != told_to(kept, UMPIRE)
    assert told_to(swapped, "pro_spain") == told_to(kept, "pro_spain")
    assert "a chit was misplaced" in told_to(kept, "pro_spain").decode()


def test_a_long_report_draws_a_bar_on_a_terminal_whose_label_is_never_markup(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = str(next(log for log in LOGS if log.name == "marengo-full.jsonl"))
    out = str(tmp_path / "m.html")
    assert "telling the game" not in CliRunner().invoke(cli, ["report", log, "--pictures", "none", "-o", out]).stderr
    monkeypatch.setattr(cli_common, "stderr_is_terminal", lambda: True)
    assert "telling the game" in CliRunner().invoke(cli, ["report", log, "--pictures", "none", "-o", out]).stderr
    with cli_common.Progress("[arbitro §R.2] telling", threshold=1) as bar:  # a citation, as a label may hold
        bar(1, 2)
    assert "[arbitro §R.2] telling" in capsys.readouterr().err


def caldiero_game(monkeypatch: pytest.MonkeyPatch, stacks: dict[str, str]) -> Arbitro:
    """A Caldiero position under fog of war (caldiero §20.4) with two French units in stacks Austria may not
    examine (tests/pictures/test_render.py's OOC and OTHER), on one seed."""
    monkeypatch.setattr(rnd, "new_seed", lambda: "ca1d" * 16)
    monkeypatch.setattr(rnd, "new_salt_key", lambda: "a1" * 32)  # and its salt key
    state = caldiero_position({"fr-18-ligne": "1417", **stacks, "au-colloredo": "1917"}, leaders={"massena": "1317"},
                              orders={"massena": "attack"}, options=("fog_of_war",))
    app = Arbitro(SQLiteStore(":memory:"))
    app.create("caldiero", position={"format": POSITION_FORMAT, "ruleset": "caldiero", "scenario": "historical",
                                     "state": msgspec.to_builtins(state)}, game_id="caldiero-g")
    return app


def test_what_a_stack_hidden_by_fog_holds_changes_no_byte_of_austria_s_report(monkeypatch: pytest.MonkeyPatch) -> None:
    infantry = caldiero_game(monkeypatch, {"fr-40-ligne": OOC, "fr-9-dragons": OTHER})
    cavalry = caldiero_game(monkeypatch, {"fr-9-dragons": OOC, "fr-40-ligne": OTHER})

    def told_to(app: Arbitro, seat: str) -> bytes:
        story = report(app, "caldiero-g", seat, pictures="turns")
        return (to_html(story) + to_markdown(story, "p")[0]).encode()

    assert told_to(infantry, UMPIRE) != told_to(cavalry, UMPIRE), "the umpire's report shows the swap"
    assert told_to(infantry, "austria") == told_to(cavalry, "austria")
    assert b"fr-9-dragons" not in told_to(infantry, "austria")


def test_the_pictures_of_one_page_share_no_element_id() -> None:
    """Several pictures in one HTML page: no SVG element carries an id (the arrows' heads are drawn, not SVG markers
    referenced by id), so the page's ids, the sections' own, stay unique."""
    app, game = app_for(str(next(log for log in LOGS if log.name == "caricat-pastrengo.jsonl")), ":memory:")
    story = report(app, game, "italian", pictures="turns")
    root = page(to_html(story))
    svgs = list(root.iter("{http://www.w3.org/2000/svg}svg"))
    assert len(svgs) == len(story.sections) > 2
    assert [e.get("id") for svg in svgs for e in svg.iter() if e.get("id")] == []
    arrows = [e for svg in svgs for e in svg.iter() if e.get("data-move") or e.get("data-assault")]
    assert arrows and all(len(list(a)) == 2 for a in arrows), "each arrow is its line and its drawn head"
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert ids and len(ids) == len(set(ids))
