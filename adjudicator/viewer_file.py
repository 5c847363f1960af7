"""The browser viewer's page (viewer.html), and that page as one self-contained file a seat can open offline
(`arbitro report --viewer`, issue 13).

The server serves the page as it is: it holds nothing of any game and reads the game from the seat's endpoints. The
file is the same page with one seat's game written into it, as a JSON data block the page reads instead of the
server: the events as that seat was served them (in plain words), the notes it may read, and its map picture after
every one of those events, drawn by `render` from its view. So the file holds exactly what that seat could read from
the server, nothing more, and needs no network: its Content-Security-Policy lets it run only its own script and
reach nothing.

The pictures of a game differ little from one event to the next, so each is stored as runs over one table of SVG
lines (`Frames`): a line is stored once per place it takes in a picture, and a picture is the lines it is made of."""

from __future__ import annotations

import base64
import difflib
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from arbitro.adjudicator.render import render
from arbitro.adjudicator.report_phrases import worded
from arbitro.adjudicator.service import Arbitro

PAGE = (Path(__file__).parent / "viewer.html").read_text(encoding="utf-8")
_SCRIPT = re.search(r"<script>(.*?)</script>", PAGE, re.S)
assert _SCRIPT is not None, "viewer.html holds its one inline script"
SCRIPT_HASH = base64.b64encode(hashlib.sha256(_SCRIPT.group(1).encode()).digest()).decode()


def content_policy(*, served: bool) -> str:
    """The page's Content-Security-Policy. Only its own script runs (an SVG or event text that held markup could run
    nothing); nothing is framed, posted or loaded from elsewhere. Served, its calls go to its server only; as a file
    (`report --viewer`) it reaches nothing at all."""
    reach = "connect-src 'self'; img-src 'self' data:" if served else "img-src data:"
    return (f"default-src 'none'; script-src 'sha256-{SCRIPT_HASH}'; style-src 'unsafe-inline'; {reach}; "
            "base-uri 'none'; form-action 'none'" + ("; frame-ancestors 'none'" if served else ""))


FILE_POLICY = content_policy(served=False)
DATA_ID = "game-data"  # the page reads its game from this block when it has one (viewer.html: `file`)
# What the page reads of a served event: not the chain's digests and salts, which serve an audit (`arbitro export`
# is the seat's audit copy), not a viewer.
SHOWN = ("seq", "cmd", "seat", "type", "event", "events", "words", "told")  # `events`: a seat's item's (§V.6)
KEY_EVERY = 64  # every so many pictures one is stored whole, so that showing any picture unfolds at most this many


@dataclass(slots=True)
class Frames:
    """Pictures stored once. `lines` holds each line of SVG text once for each place it takes (the k-th `</g>` of a
    picture is one entry, the (k+1)-th another), so a picture is a list of slots (indices into `lines`). A picture is
    stored as runs [start, count]: a start >= 0 takes `count` slots from `start` on; a start < 0 takes `count` slots
    of the picture before it, from its position -1 - start on (one event's picture differs little from the last).
    Every KEY_EVERY-th picture is stored by slots only. Each event number names one picture (`at`); consecutive
    events with the same picture share it."""

    lines: list[str] = field(default_factory=list)
    pictures: list[list[list[int]]] = field(default_factory=list)
    at: dict[int, int] = field(default_factory=dict)
    _slots: dict[tuple[str, int], int] = field(default_factory=dict)
    _last: list[int] = field(default_factory=list)

    def add(self, seq: int, svg: str) -> None:
        slots: list[int] = []
        seen: dict[str, int] = {}
        for line in svg.split("\n"):
            nth = seen[line] = seen.get(line, -1) + 1
            slot = self._slots.setdefault((line, nth), len(self.lines))
            if slot == len(self.lines):
                self.lines.append(line)
            slots.append(slot)
        if not self.pictures or slots != self._last:
            keyed = len(self.pictures) % KEY_EVERY == 0
            self.pictures.append(_runs(slots, [] if keyed else self._last))
            self._last = slots
        self.at[seq] = len(self.pictures) - 1

    def data(self) -> dict[str, Any]:
        return {"lines": self.lines, "pictures": self.pictures, "at": {str(k): v for k, v in self.at.items()},
                "key_every": KEY_EVERY}


def _runs(slots: list[int], last: list[int]) -> list[list[int]]:
    """`slots` as runs: the stretches it shares with `last` (difflib's matching blocks) as runs of `last`, the rest
    as runs of consecutive slots."""
    runs: list[list[int]] = []
    done = 0
    for a, b, size in difflib.SequenceMatcher(None, last, slots, autojunk=False).get_matching_blocks():
        for k in slots[done:b]:
            if runs and runs[-1][0] >= 0 and runs[-1][0] + runs[-1][1] == k:
                runs[-1][1] += 1
            else:
                runs.append([k, 1])
        if size:
            runs.append([-1 - a, size])
        done = b + size
    return runs


def game_file_data(app: Arbitro, game_id: str, seat: str,
                   progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """What the file holds of `game_id` for `seat`: only what the seat's endpoints serve it (status, events in words,
    notes, its picture after each of its events). `progress(done, total)` is called as the pictures are drawn."""
    status = app.status(game_id, seat)
    events = [{k: e[k] for k in SHOWN if k in e} for e in worded(app.log(game_id, seat))]
    frames = Frames()
    for done, event in enumerate(events, 1):
        frames.add(event["seq"], render(app, game_id, seat, event["seq"]).svg)
        if progress:
            progress(done, len(events))
    shown = {"game": status.game, "ruleset": status.ruleset, "version": status.version, "scenario": status.scenario,
             "seats": [seat], "seat": seat, "head": status.head, "parent": status.parent,
             "origin": {"at": status.origin["at"]} if status.parent and "at" in status.origin else {}}
    notes = [{"seq": n.seq, "seat": n.seat, "text": n.text, "private": n.private} for n in app.notes(game_id, seat)]
    return {"status": shown, "events": events, "notes": notes, "frames": frames.data()}


def offline_page(data: dict[str, Any]) -> str:
    """The viewer page with `data` in it (a JSON block: `<` written as \\u003c, so no text of the game can close
    it), under a policy that lets it reach nothing."""
    text = msgspec.json.encode(data).decode().replace("<", "\\u003c")
    block = f'<script type="application/json" id="{DATA_ID}">{text}</script>\n'
    policy = f'<meta http-equiv="Content-Security-Policy" content="{FILE_POLICY}">\n'
    page = PAGE.replace("<meta charset=\"utf-8\">\n", "<meta charset=\"utf-8\">\n" + policy, 1)
    return page.replace("<script>", block + "<script>", 1)
