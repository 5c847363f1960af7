"""Issue 14, through the CLI as each user would: the historian reads notes back (point 6), the disputant
examines one roll (point 8), the umpire is warned before a reveal (point 9), the engine's own commands are
documented and listed (point 11). The game is the duel test ruleset (tests/foundation/duel.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from arbitro.events import random as rnd

from .conftest import REPO, Cli, exchange, head, read_export, rechain, write_export

PUBLIC, SECRET = "Lannes should have blocked here", "bluff: my card is weak"


# --- point 6: notes read back ---------------------------------------------------------------------
def _annotated(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    run("annotate", "g", PUBLIC, "--as", "umpire", "--at", "6")
    run("annotate", "g", SECRET, "--as", "red", "--at", "2", "--private")  # a seat's: command #2, events #7-#10


def test_notes_lists_what_each_seat_may_read(run: Cli) -> None:
    _annotated(run)
    assert [n["text"] for n in run.json("notes", "g", "--as", "red")] == [PUBLIC, SECRET]
    assert [n["text"] for n in run.json("notes", "g", "--as", "blue")] == [PUBLIC]
    # The umpire reads every note, as its full export holds them and its disputes may cite them (arbitro §D.7).
    assert [n["text"] for n in run.json("notes", "g")] == [PUBLIC, SECRET]
    blue = run("notes", "g", "--as", "blue").stdout
    # a seat is told the command a note is on (engine-rules §V.6): #6 is the attack's, command 1; #10 the guard's, 2
    assert f"note 1 on #1 by umpire: {PUBLIC}" in blue and "bluff" not in blue
    assert f"private note 1 on #2 by red: {SECRET}" in run("notes", "g", "--as", "red").stdout  # its own chain's 1
    assert f"note 1 on #6 by umpire: {PUBLIC}" in run("notes", "g").stdout  # the umpire's numbers are the log's
    # the chain fields cover the log's numbers (engine-rules §V.6): the umpire's alone
    assert all(n["hash"] == n["at_hash"] == n["prev"] == "" for n in run.json("notes", "g", "--as", "red"))
    assert all(n["hash"] and n["at_hash"] for n in run.json("notes", "g"))
    assert "unknown seat 'green'" in run("notes", "g", "--as", "green", code=2).stderr
    assert "no game 'nope'" in run("notes", "nope", code=3).stderr


def test_log_shows_each_note_beneath_its_event(run: Cli) -> None:
    _annotated(run)
    lines = run("log", "g", "--as", "red").stdout.splitlines()  # red's records: one a command (engine-rules §V.6)
    at1 = next(i for i, line in enumerate(lines) if line.startswith("#1 "))
    assert PUBLIC in lines[at1 + 1] and lines[at1 + 2].startswith("#2 ")
    at2 = next(i for i, line in enumerate(lines) if line.startswith("#2 "))
    assert SECRET in lines[-1] and "private note 1" in lines[-1]  # beneath command 2's records (which may wrap)
    assert all(SECRET not in line for line in lines[:at2])
    blue = run.json("log", "g", "--as", "blue")
    assert [n["text"] for n in blue[1]["notes"]] == [PUBLIC] and "notes" not in blue[2]
    assert "bluff" not in json.dumps(blue) + run("log", "g", "--as", "blue").stdout
    red = run.json("log", "g", "--as", "red", "--from", "2", "--to", "2")
    assert [n["text"] for n in red[0]["notes"]] == [SECRET]


def test_view_and_replay_carry_the_notes(run: Cli, tmp_path: Path) -> None:
    _annotated(run)
    assert [n["text"] for n in run.json("view", "g", "--as", "red")["notes"]] == [PUBLIC, SECRET]
    assert [n["text"] for n in run.json("view", "g", "--as", "red", "--at", "1")["notes"]] == [PUBLIC]
    assert "bluff" not in run("view", "g", "--as", "blue").stdout
    assert PUBLIC in run("view", "g", "--as", "blue").stdout
    assert [n["text"] for n in run.json("replay", "g", "--as", "red")["notes"]] == [PUBLIC, SECRET]
    assert run.json("replay", "g", "--to", "5")["notes"] == []
    text = run("replay", "g", "--as", "blue").stdout
    assert f"note 1 on #1 by umpire: {PUBLIC}" in text and "bluff" not in text
    exported = tmp_path / "g.jsonl"
    run("export", "g", "-o", str(exported))
    assert any(r["record"] == "annotation" for r in read_export(exported))
    assert [n["text"] for n in run.json("replay", str(exported))["notes"]] == [PUBLIC, SECRET]  # the umpire reads all


# --- point 8: one roll explained, and a log that cuts nothing -----------------------------------------
def _revealed_seed(run: Cli, game: str) -> str:
    (event,) = [e for e in run.json("log", game) if e["type"] == "seed_revealed"]
    return event["event"]["seed"]  # type: ignore[no-any-return]


def test_roll_explains_the_dice_and_recomputes_them_once_revealed(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    logged = run.json("log", "g", "--from", "8", "--to", "8")[0]["event"]
    assert logged["type"] == "dice_rolled"
    r = run.json("roll", "g", "8")
    assert r["dice"]["values"] == logged["values"] and r["detail"] == {"aim": "high", "guard": "low"}
    commitment = run.json("log", "g", "--to", "1")[0]["event"]["seed_commitment"]
    d = r["derivation"]
    assert d["index"] == logged["index"] and d["seed_commitment"] == commitment and d["rule"] == "arbitro §R.1"
    assert [e["type"] for e in r["followed"]] == ["damage_dealt", "turn_ended"]
    assert "not revealed" in r["recomputed"]["status"] and "matches" not in r["recomputed"]
    text = run("roll", "g", "8").stdout
    assert f"2d6 -> {' '.join(map(str, logged['values']))}" in text and commitment in text
    run("reveal", "--expose-hidden", "g", "--reason", "dispute")
    seed = _revealed_seed(run, "g")
    assert rnd.commitment(seed) == commitment
    r = run.json("roll", "g", "8")
    assert r["recomputed"]["matches"] is True
    assert r["recomputed"]["values"] == list(rnd.roll(seed, "", logged["index"], 2, 6)) == logged["values"]
    assert "MATCHES the log" in run("roll", "g", "8").stdout
    assert "is a card_dealt, not a roll" in run("roll", "g", "3", code=2).stderr
    assert "no event #99" in run("roll", "g", "99", code=3).stderr


def test_roll_of_an_edited_and_rehashed_file_differs(run: Cli, tmp_path: Path) -> None:
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    run("reveal", "--expose-hidden", "g")
    path = tmp_path / "g.jsonl"
    run("export", "g", "-o", str(path))
    records = read_export(path)
    (dice,) = [r for r in records if r["record"] == "event" and r["body"]["event"]["type"] == "dice_rolled"]
    dice["body"]["event"]["values"] = [7 - v for v in dice["body"]["event"]["values"]]  # a forger's better roll
    rechain(records)
    write_export(path, records)
    r = run.json("roll", str(path), str(dice["seq"]), code=1)
    assert r["recomputed"]["matches"] is False and r["recomputed"]["values"] != r["dice"]["values"]
    assert "DIFFERS from the log" in run("roll", str(path), str(dice["seq"]), code=1).stdout


def test_roll_serves_a_seat_only_what_its_redacted_event_shows(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    red_card = run.json("log", "g", "--from", "2", "--to", "2")[0]["event"]["drawn"][0]
    # a seat names a roll by its command (#0, the creation, deals both cards) and its place among the rolls and
    # draws it was served there (engine-rules §V.6); the umpire by the event (#2, red's draw)
    mine = run.json("roll", "g", "0", "--as", "red")
    assert mine["dice"]["drawn"] == [red_card] and mine["withheld"] is False
    exchange(run, "g")
    run("reveal", "--expose-hidden", "g")
    # a private draw: red is served what it drew, not the deck it came from (arbitro §V.5), so it cannot recompute
    # the draw itself; the umpire can
    assert run.json("roll", "g", "0", "--as", "red")["recomputed"]["status"].startswith("a private draw")
    assert run.json("roll", "g", "2", "--as", "umpire")["recomputed"]["matches"] is True
    for args in (("--as", "blue"), ("--as", "blue", "--json")):
        shown = run("roll", "g", "0", *args).stdout
        assert red_card not in shown.replace("population", ""), "blue is served red's hidden card"
        assert "ruby-falcon" not in shown or red_card == "ruby-falcon"
    theirs = run.json("roll", "g", "0", "--as", "blue")
    assert theirs["withheld"] is True and theirs["dice"]["drawn"] is None and "matches" not in theirs["recomputed"]
    assert "(withheld)" in run("roll", "g", "0", "--as", "blue").stdout


def test_roll_names_the_seats_entropy_and_the_mix_it_made(tmp_path: Path) -> None:
    run = Cli(tmp_path / "e.db", env={"ARBITRO_SEAT_ENTROPY": "1"})
    run("new", "duel", "standard", "--id", "g")
    keep = {seat: tmp_path / f"{seat}.entropy" for seat in ("red", "blue")}
    for seat in ("red", "blue", "red", "blue"):  # commit, then reveal
        run("entropy", "g", "--as", seat, "--file", str(keep[seat]))
    entropy = {seat: keep[seat].read_text().strip() for seat in keep}
    (first,) = [e for e in run.json("log", "g") if e["type"] == "items_drawn"][:1]
    r = run.json("roll", "g", str(first["seq"]))
    mix = rnd.mix_round("", [(s, entropy[s]) for s in ("red", "blue")])
    assert r["derivation"]["mix"] == mix
    revealed = {e["seat"]: e["entropy"] for e in r["derivation"]["entropy"] if e["type"] == "entropy_revealed"}
    assert revealed == entropy
    assert any(e["type"] == "entropy_mixed" and e["mix"] == mix for e in r["derivation"]["entropy"])
    assert entropy["red"] in run("roll", "g", str(first["seq"])).stdout


def test_log_text_wraps_whole_records_and_hides_the_chain_unless_asked(run: Cli) -> None:
    run("new", "duel", "standard", "--id", "g")
    created = run.json("log", "g", "--to", "1")[0]
    text = run("log", "g", "--to", "1").stdout
    assert "..." not in text and created["event"]["data_hash"] in text
    # whole, a space after each comma so that the long value wraps there (cli_common.field_json)
    initial = json.dumps(created["event"]["initial"], separators=(", ", ":"), sort_keys=True)
    assert initial in text.replace("\n        ", " ")
    assert max(len(line) for line in text.splitlines()) <= 100
    assert created["hash"] not in text and created["event"]["seed_commitment"] in text
    chained = run("log", "g", "--to", "1", "--chain").stdout
    assert f"hash={created['hash']}" in chained and f"cmd_hash={created['cmd_hash']}" in chained
    assert all(k in run.json("log", "g", "--to", "1")[0] for k in ("hash", "prev", "cmd_hash"))


# --- point 9: a reveal ends the dice; the umpire is told before, and how to play on after ----------
def test_reveal_warns_before_and_prints_the_fork_that_continues(run: Cli) -> None:
    help_text = " ".join(run("reveal", "--help").stdout.split())
    assert "ENDS THE DICE IN GAME" in help_text and "makes no further roll" in help_text
    assert "arbitro fork GAME --at N" in help_text and "§R.5" in help_text
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    before = readme.index("**Before a reveal**")
    assert "ends the dice in that game" in readme[before:before + 400] and "fork" in readme[before:before + 600]
    run("new", "duel", "standard", "--id", "g")
    exchange(run, "g")
    lines = run("reveal", "--expose-hidden", "g").stdout.splitlines()
    assert lines[-2].startswith("g makes no further roll (arbitro §R.3). To play on, fork it: arbitro fork g --at 11")
    assert lines[-1].startswith("A reveal before the game's end: every seat then recomputes every roll and draw")
    printed = lines[-2].split("fork it: ")[1].split("  (")[0].split()
    assert printed[:2] == ["arbitro", "fork"]
    child = run(*printed[1:]).stdout.strip()  # the command as printed continues the game, with new dice
    assert run.json("status", child)["game"] == child
    exchange(run, child, attacker="blue")
    assert run.json("roll", "g", "8")["recomputed"]["matches"] is True
    assert run.json("reveal", "--expose-hidden", child)["continue"] == f"arbitro fork {child} --at {head(run, child)}"


def test_the_docs_say_why_a_single_roll_cannot_be_proven_by_arbitro_random_1_and_how_arbitro_random_2_does() -> None:
    rules = " ".join((REPO / "docs" / "engine-rules.md").read_text(encoding="utf-8").split())
    r5 = rules[rules.index("**§R.5**"):rules.index("## U:")]
    assert "every roll's HMAC key is the seed *S* itself" in r5
    assert "Merkle root" in r5 and "*K_i* = HMAC(*S*, `roll-key|` *i*)" in r5
    assert "`arbitro-random/2`" in r5 and "--provable-rolls" in r5 and '"type": "prove_roll"' in r5


# --- point 11: the engine's own commands, where a user looks for them ------------------------------------
ENGINE_COMMANDS = ("ruling", "enter_random", "consent", "commit_entropy", "reveal_entropy", "add_entropy",
                   "proceed_without_entropy", "undo", "reveal_seed", "prove_roll", "fork")


def test_the_engine_commands_are_in_submit_help_the_readme_and_the_unknown_type_error(run: Cli) -> None:
    help_text = run("submit", "--help").stdout
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for name in ENGINE_COMMANDS:
        assert f'"type": "{name}"' in help_text or f"{name} (umpire, §R.3): recorded by" in help_text, name
        assert f'"type": "{name}"' in readme.replace('\\"', '"') or f"`{name}`" in readme, name
    run("new", "duel", "standard", "--id", "g")
    error = run.json("submit", "g", "--as", "red", '{"type": "rulling", "reason": "x"}', code=2)
    assert error["error"] == "input/malformed-command" and "unknown command type 'rulling'" in error["message"]
    for name in ("attack", "guard", *ENGINE_COMMANDS):
        assert name in error["message"], name
    # a known type still gets its field-level message, and an engine command is not called unknown
    assert "aim" in run("submit", "g", "--as", "red", '{"type": "attack"}', code=2).stderr
    assert "unknown" not in run("submit", "g", "--as", "red", '{"type": "consent"}', code=2).stderr


def test_legal_lists_the_umpires_pending_entry_in_a_transcribed_game(run: Cli) -> None:
    run("new", "duel", "standard", "--transcribed", "--id", "t")
    assert run.json("status", "t")["awaiting"]["seats"] == ["umpire"]
    for _ in range(2):  # the opening's two card draws, then the attack's dice
        (entry,) = run.json("legal", "t", "--as", "umpire")
        assert entry["type"] == "enter_random" and len(entry["values"]) == 1
        assert run.json("legal", "t", "--as", "red") == []
        run.submit("t", "umpire", entry)  # what legal lists is accepted
    run.submit("t", "red", {"type": "attack", "aim": "high"})
    run.submit("t", "blue", {"type": "guard", "stance": "low"})
    assert run.json("legal", "t", "--as", "umpire") == [{"type": "enter_random", "values": [1, 1]}]
    assert "enter_random" in run("legal", "t", "--as", "umpire").stdout
    done = run.submit("t", "umpire", {"type": "enter_random", "values": [6, 5]})
    assert [e["event"]["values"] for e in done["events"] if e["type"] == "dice_rolled"] == [[6, 5]]


def test_interpretations_lists_the_readings_and_the_one_in_force(run: Cli) -> None:
    rows = {r["name"]: r for r in run.json("interpretations", "caldiero")}
    assert rows["dr_in_fortress"]["phrase"] == "in villaggio o fortificazioni diventa Ex"
    assert rows["dr_in_fortress"]["choices"] == ["ex", "dd"] and rows["dr_in_fortress"]["default"] == "ex"
    text = run("interpretations", "caldiero").stdout
    assert "dr_in_fortress (caldiero §12.5.4): default ex; choices ex, dd" in text and "«in villaggio" in text
    run("new", "duel", "standard", "--id", "g")
    (miss,) = run.json("interpretations", "duel", "g")
    assert miss["in_force"] == "plus_one" and miss["ruled"] is False and miss["phrase"] == "colpo scoperto"
    run.submit("g", "umpire", {"type": "ruling", "reason": "house rule", "interpretation": {"miss_bonus": "none"}})
    (miss,) = run.json("interpretations", "duel", "g")
    assert miss["in_force"] == "none" and miss["ruled"] is True
    assert "in force: none (ruled by the umpire)" in run("interpretations", "duel", "g").stdout
    assert "plays duel, not caldiero" in run("interpretations", "caldiero", "g", code=2).stderr
    assert "no ruleset 'chess'" in run("interpretations", "chess", code=3).stderr
    assert "no game 'nope'" in run("interpretations", "duel", "nope", code=3).stderr


# --- the README's historian and dispute sessions, run as printed -----------------------------------------
def _session(heading: str) -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    return readme.split(heading, 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]


def _run_session(script: str, cwd: Path) -> str:
    (cwd / "logs").symlink_to(REPO / "logs")  # "run from the repository", without writing a database there
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": str(REPO)}
    for name in ("ARBITRO_DB", "ARBITRO_SEAT_ENTROPY", "ARBITRO_RULESETS"):
        env.pop(name, None)
    done = subprocess.run(["bash", "-e", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{script}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_readmes_historian_session_runs_as_printed(tmp_path: Path) -> None:
    script = _session("A historian's session")
    assert "arbitro notes" in script and "arbitro replay" in script
    shown = _run_session(script, tmp_path)
    # france is told the command an event is in (engine-rules §V.6): #32 is in command #12 (#26-#35), #20 ends #10
    assert "note 1 on #12 by umpire: the 1-1 assault" in shown and "private note 1 on #12 by france: my note alone" in shown
    annotated = shown.split("\n#12 ", 1)[1].split("note 1", 1)[0]  # the note is on the assault it names (relogs move events)
    assert "assault_resolved" in annotated and "odds=1-1" in annotated, annotated
    assert shown.count("my note alone") == 4  # notes, log, replay and its step at #12, each as france
    assert "common history: caldiero-full to #10" in shown and "(forked from caldiero-full at #20)" in shown


def test_the_readmes_dispute_session_runs_as_printed(tmp_path: Path) -> None:
    script = _session("A dispute over a roll")
    shown = _run_session(script, tmp_path)
    assert "the seed is not revealed yet" in shown and "MATCHES the log" in shown
    assert re.search(r"makes no further roll \(arbitro §R.3\). To play on, fork it: arbitro fork arrivano-\w+ --at \d+",
                     shown)


def test_the_readmes_dispute_from_opening_to_ruling_runs_as_printed(tmp_path: Path) -> None:
    script = _session("A dispute from its opening to its ruling")
    for step in ("knowledge", "dispute open", "dispute reply", "dispute rule", "disputes", "verify"):
        assert f"arbitro {step} " in script, step
    shown = _run_session(script, tmp_path)
    assert "austria at #231 about b005:" in shown and "changes of what austria was shown about b005" in shown
    # france's listing in its numbers, commands (engine-rules §V.6): #221 made #654-#677, #231 #698-#700
    assert "dispute 1 [OPEN] by austria about #221" in shown and "france answers citing #221" in shown
    assert "austria claims with evidence: austria's position after #231" in shown
    assert "citing #221 with evidence: note 1 (on #221, by france)" in shown
    # the umpire's in the log's: each command a seat named by its last event
    assert "umpire rules: dismissed with evidence: france's position after #672" in shown
    assert "dispute 1 [DISMISSED] by austria about #677" in shown and "umpire rules: dismissed" in shown
    assert shown.rstrip().endswith("VERIFIED")
