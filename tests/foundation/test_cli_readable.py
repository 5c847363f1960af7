"""Issue 14 point 12 through the CLI on a shipped ruleset: `view` reads like a wargame's status (the clock,
who is awaited, each side's pieces by formation with name, place and strength), `--json` is the full view,
`legal` groups by type and filters by type and by the piece ordered (`--unit`), provisional data is named once; and point 15, progress
bars on stderr only when it is a terminal, never in --json output."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arbitro.adjudicator import cli_common
from arbitro.adjudicator.cli_common import record_lines
from arbitro.adjudicator.cli_disputes import counted, knowledge_text
from arbitro.adjudicator.settling import Knowledge
from arbitro.adjudicator.cli_tables import awaiting_line, provisional_line
from arbitro.adjudicator.results import Awaiting
from arbitro.projections.knowledge import Change
from arbitro.adjudicator.ruleset import COMMAND_PIECE_FIELDS, pieces_named

from .conftest import Cli


def test_view_is_a_table_of_each_sides_pieces_and_json_the_full_view(run: Cli) -> None:
    run("new", "caldiero", "historical", "--no-seat-entropy", "--id", "c")
    text = run("view", "c", "--as", "umpire").stdout
    assert "turn 1/10 · phase setup · step setup · seat austria · weather 0" in text
    awaited = run.json("status", "c")["awaiting"]
    assert awaited["kind"] == "turn" and awaited["prompt"] == "command"  # the engine's bare word, said in full
    assert f"awaiting: {', '.join(awaited['seats'])}: its turn: any command `arbitro legal` lists" in text
    assert "turn 1/10 · phase setup" in run("status", "c").stdout
    banater = next(line for line in text.splitlines() if "(au-2-banater)" in line)
    assert banater.split()[:3] == ["austria", "hohenzollern", "2nd"]  # side, formation, the counter's name
    assert "infantry" in banater and "offmap" in banater and " 3 " in banater  # kind, state, strength
    callenberg = next(line for line in text.splitlines() if "(au-callenberg)" in line)
    assert "1707" in callenberg  # its hex
    full = run.json("view", "c", "--as", "umpire")
    assert full["state"]["units"]["au-2-banater"]["formation"] == "hohenzollern" and full["engine"]["seq"] >= 1
    assert '"units"' not in text  # the table, not the record


def test_legal_filters_by_type_and_unit_and_drops_empty_fields(run: Cli) -> None:
    run("new", "caricat", "pastrengo", "--no-seat-entropy", "--id", "k")
    seat = run.json("status", "k")["awaiting"]["seats"][0]
    every = run.json("legal", "k", "--as", seat)
    kinds = sorted({c["type"] for c in every})
    some = kinds[0]
    only = run.json("legal", "k", "--as", seat, "--type", some)
    assert only and {c["type"] for c in only} == {some} and len(only) == sum(c["type"] == some for c in every)
    named = next(p for c in every for p in pieces_named(c))
    for_unit = run.json("legal", "k", "--as", seat, "--unit", named)
    assert for_unit and for_unit == [c for c in every if named in pieces_named(c)]  # its listing, in order
    # --unit is the piece given an order (as `legal(game, seat, piece)` and `?piece=`), not any field naming it: a
    # string the listing names only elsewhere (a hex, a target) lists nothing
    elsewhere = next(v for c in every for k, v in c.items() if k not in ("type", *COMMAND_PIECE_FIELDS)
                     and isinstance(v, str) and not any(v in pieces_named(d) for d in every))
    assert run.json("legal", "k", "--as", seat, "--unit", elsewhere) == []
    text = run("legal", "k", "--as", seat).stdout
    assert f"{some} ({len(only)}):" in text and "null" not in text
    assert "nothing" in run("legal", "k", "--as", seat, "--type", "no_such_type").stdout


def test_status_names_provisional_data_once_and_lists_it_on_request(run: Cli) -> None:
    run("new", "marengo", "marengo", "--no-seat-entropy", "--id", "m")
    provisional = run.json("status", "m")["provisional"]
    assert len(provisional) > 3
    text = run("status", "m").stdout
    assert sum("PROVISIONAL" in line for line in text.splitlines()) == 1
    assert provisional[1] not in text and "status m --provisional" in text
    listed = run("status", "m", "--provisional").stdout
    assert all(p in listed for p in provisional)


# --- issue 14 point 15: progress bars on stderr, only on a terminal, never in --json output --------------
LOG = str(Path(__file__).resolve().parents[2] / "logs" / "marengo-full.jsonl")  # 1,067 events


def test_import_replay_and_verify_draw_a_bar_on_a_terminal_only(run: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    piped = run("replay", LOG, "--to", "5")
    assert "reading the log" not in piped.stderr and "importing" not in piped.stderr  # a pipe gets no bar
    assert "re-adjudicating" not in run("verify", LOG).stderr
    monkeypatch.setattr(cli_common, "stderr_is_terminal", lambda: True)
    assert "importing events" in run("import", LOG).stderr
    assert "reading the log" in run("replay", LOG, "--to", "5").stderr
    assert "re-adjudicating commands" in run("verify", LOG).stderr
    as_json = run("replay", LOG, "--to", "5", "--json")
    assert as_json.stderr == "" and json.loads(as_json.stdout)["seq"] == 5  # --json: no bar, even on a terminal


def test_check_draws_a_bar_over_the_games_on_a_terminal_only(run: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    run("new", "duel", "standard", "--id", "a")
    run("new", "duel", "standard", "--id", "b")
    assert "checking games" not in run("check").stderr
    monkeypatch.setattr(cli_common, "stderr_is_terminal", lambda: True)
    assert "checking games" in run("check").stderr
    assert run("check", "--json").stderr == ""


def test_view_of_a_seat_that_lists_its_pieces_names_only_what_it_is_served(run: Cli) -> None:
    run("new", "marengo", "marengo", "--no-seat-entropy", "--id", "m")
    served = json.dumps(run.json("view", "m", "--as", "austria"), ensure_ascii=False)
    text = run("view", "m", "--as", "austria").stdout
    assert "Colonna di Zach" in text and "(AUT_ZACH)" in text  # its own block, by the counter's name
    assert set(re.findall(r"\b(?:AUT|FRA)_[A-Z_]+\b", text)) <= set(re.findall(r"\b(?:AUT|FRA)_[A-Z_]+\b", served))


def test_a_prompt_that_cites_its_rule_is_not_told_the_rule_twice() -> None:
    """Caldiero's Ne choice prompts "... or keep Ne (caldiero §12.5.4)": `status` and `view` printed
    "(caldiero §12.5.4) [caldiero §12.5.4]"."""
    ne = Awaiting(seats=["france"], kind="ne_choice", rule="caldiero §12.5.4",
                  prompt="Ne with an Attack order: test efficiency (Ex if passed, Ad if failed) or keep Ne "
                         "(caldiero §12.5.4)")
    assert awaiting_line(ne) == ("awaiting: france: Ne with an Attack order: test efficiency (Ex if passed, Ad if "
                                 "failed) or keep Ne (caldiero §12.5.4)")
    move = Awaiting(seats=["france"], kind="move", rule="caldiero §8", prompt="move a formation")
    assert awaiting_line(move) == "awaiting: france: move a formation [caldiero §8]"


def test_the_provisional_line_names_each_file_once_even_when_its_title_holds_a_colon() -> None:
    """Caldiero's items name their file with a title that holds a colon: the line cut them there, printing
    "(caldiero/map.json (Caldiero 1796), caldiero/oob.json (Caldiero 1796, ...)"."""
    items = ["caldiero/map.json (Caldiero 1796): the whole file",
             "caldiero/oob.json (Caldiero 1796: order of battle (caldiero §21)): reconstructed: leaders (6)",
             "map.json: 25 of 25 zones", "map.json: the roads"]
    assert provisional_line("g", items) == (
        "PROVISIONAL DATA: 4 reconstructed items (caldiero/map.json, caldiero/oob.json, map.json), not the printed "
        "game's; `arbitro status g --provisional` lists them")


def test_a_long_field_wraps_at_its_commas_and_a_short_one_stays_compact() -> None:
    """A decision's context or a combat's table, compact JSON hundreds of characters long, was one word the log's
    lines could not wrap (342 characters in caldiero-full's command #12, as france); each value stays whole."""
    ctx = {"attackers": ["fr-5-legere", "fr-grenadiers-1"], "defenders": ["au-hungarian", "au-avguard-3pdr"],
           "stage": "resolve", "targets": ["1613", "1711"], "tested": [], "use_general": True, "elan": None}
    event = {"seq": 12, "seat": "austria", "type": "decision_revised",
             "event": {"type": "decision_revised", "ctx": ctx, "seats": ["france"]}}
    lines = record_lines(event)
    assert max(len(line) for line in lines) <= 100 and len(lines) > 1
    assert json.loads(" ".join(lines).split("ctx=", 1)[1].rsplit(" seats=", 1)[0]) == ctx  # whole, nothing cut
    assert 'seats=["france"]' in lines[-1]  # a short value as compact as before


def test_verify_names_its_provisional_data_in_one_short_line_and_json_lists_each(run: Cli) -> None:
    """verify printed every provisional item joined in one line: 1,423 characters for marengo-full."""
    run("new", "duel", "standard", "--id", "g")
    text = run("verify", "g").stdout
    assert ("  played with PROVISIONAL data: 1 reconstructed item (duel), not the printed game's (--json lists each)"
            in text.splitlines())
    assert run.json("verify", "g")["provisional"] == ["duel: the card deck is invented for tests"]


def test_knowledge_wraps_a_change_made_by_a_command_of_many_events() -> None:
    """A seat's change names every event its command's item holds: 483 characters on one line for marengo-full's
    command #221 as austria."""
    cause = ", ".join(["decision_resolved", "decision_opened", "blocks_revealed", "strength_lost"] * 6)
    k = Knowledge(game="g", seat="austria", at=231, about="b005", events=232, hidden=0, facts=[],
                  changes=[Change(seq=221, path="/state/enemy_blocks/b005/zone", shown=True, value="fontanone",
                                  event=cause, rule="marengo §9, marengo §12")])
    lines = knowledge_text(k).splitlines()
    assert max(len(line) for line in lines) <= 100
    assert " ".join(" ".join(lines).split()).endswith(  # each type once, with how many (--json: the list as served)
        "#221 decision_resolved ×6, decision_opened ×6, blocks_revealed ×6, strength_lost ×6 (marengo §9, marengo "
        "§12): /state/enemy_blocks/b005/zone = fontanone")
    assert counted("turn_ended, turn_began") == "turn_ended, turn_began"


def test_legal_names_the_command_that_answers_the_entropy_round_for_the_seat(run: Cli) -> None:
    """A new user's `legal` in a new game lists only `commit_entropy` with a placeholder commitment: it now names the
    command that draws, keeps and commits the entropy (and later reveals it). The top-level help shows the round."""
    run("new", "duel", "standard", "--id", "g", "--seat-entropy")
    text = " ".join(run("legal", "g", "--as", "red").stdout.split())
    assert "commit_entropy (1):" in text and "(`arbitro entropy g --as red` sends it for you:" in text
    assert run.json("legal", "g", "--as", "red") == [
        {"type": "commit_entropy", "commitment": "<SHA-256 hex of your entropy's UTF-8 bytes>"}]  # --json unchanged
    assert "arbitro entropy GAME --as austria" in run("--help").stdout
