"""The kit's structural leak checks (arbitro §V.3, §V.4): what a seat is served of a roll, a draw or a move, compared
with what the umpire's log holds and with what the ruleset says the seat may examine at that moment. A string
search for secrets cannot see these: a bare die value, a hex with no name in it, the start of a route."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from arbitro.adjudicator.service import Arbitro
from arbitro.events.codec import canonical, sha256_hex
from arbitro.projections.base import RulesetProjection

RANDOM = ("dice_rolled", "items_drawn")
MOVERS = ("unit", "leader", "units", "leaders")
TOKEN = re.compile(r"[A-Za-z0-9_-]+")
WORD = r"[\w-]"  # what a piece's or place's id is made of ("6e-legere", "ir57-i", "0813")


def leaked(served: Any, secrets: Iterable[str]) -> list[str]:
    """The secrets `served` holds as whole words, sorted: the one oracle of the generic leak tests. A substring
    search finds "6e-legere" in "16e-legere" (a false leak, which tempts a test to look away); a served id stands
    between quotes, spaces or punctuation, so the word search misses only a secret glued into a longer id. `served`: text, or anything
    msgspec encodes (a view, events), searched as its JSON."""
    text = served if isinstance(served, str) else msgspec.json.encode(msgspec.to_builtins(served)).decode()
    return [s for s in sorted(set(secrets)) if re.search(f"(?<!{WORD}){re.escape(s)}(?!{WORD})", text)]


def tokens(*parts: Any) -> set[str]:
    """Every word of the strings (and dict values, list items) given: hex and area ids are whole words."""
    out: set[str] = set()
    for part in parts:
        if isinstance(part, dict):
            out |= tokens(*part.values())
        elif isinstance(part, (list, tuple)):
            out |= tokens(*part)
        elif part is not None:
            out |= set(TOKEN.findall(str(part)))
    return out


def holds(data: Any, value: Any) -> bool:
    """Whether `value` occurs anywhere in `data` (a served event) as a whole value."""
    if data == value:
        return True
    if isinstance(data, dict):
        return any(holds(v, value) for v in data.values())
    if isinstance(data, list):
        return any(holds(v, value) for v in data)
    return False


def side_of(rules: Any, piece: str) -> str | None:
    for name in ("units", "leaders"):
        pieces = getattr(rules, name, None)
        if isinstance(pieces, dict) and piece in pieces:
            return getattr(pieces[piece], "side", None)
    return None


def fog_leaks(ruleset: RulesetProjection[Any], rules: Any, seat: str, stored: dict[str, Any], served: dict[str, Any]) -> list[str]:
    """What `served` (one event as served to `seat`) tells that `seat` could not see at the table; `stored`: the
    umpire's event; `rules`: the ruleset state right after it."""
    event = served.get("event") or {}
    where = f"#{served['seq']} {stored['type']}"
    leaks = []
    if stored["type"] in RANDOM:
        if stored.get("visible_to") is not None and seat not in stored["visible_to"]:
            for key in ("values", "drawn", "population"):
                if key in event:
                    leaks.append(f"{where}: the hidden roll's {key} served to {seat}")
            hidden = stored.get("values") or stored.get("drawn")
            if hidden and holds({k: v for k, v in event.items() if k != "index"}, list(hidden)):
                leaks.append(f"{where}: the hidden roll's faces {hidden} served to {seat}")
        unseen = ruleset.unexaminable(rules, seat, tokens(event.get("purpose"), event.get("detail"), event.get("about")))
        if unseen:
            leaks.append(f"{where}: a roll about {sorted(unseen)}, which {seat} may not examine, served with "
                         f"purpose {event.get('purpose')!r} and detail {event.get('detail')}")
    if "path" in event:
        movers = tokens(*(event.get(k) for k in MOVERS))
        if any(side_of(rules, m) not in (None, seat) for m in movers):
            unseen = ruleset.unexaminable(rules, seat, event["path"])
            if unseen:
                leaks.append(f"{where}: the route of {sorted(movers)} served to {seat} through {sorted(unseen)}, "
                             "which it may not examine")
    return leaks


def served_everything(app: Arbitro, game: str, seat: str) -> str:
    """All a seat can ask for about a game, as one text: its log, view, status and export."""
    return msgspec.json.encode([app.log(game, seat), app.view(game, seat), app.status(game),
                                list(app.export(game, seat))]).decode()


def hidden_content_hashes(app: Arbitro, game: str, seat: str, states: Iterable[str]) -> Iterator[tuple[str, str]]:
    """SHA-256 of the hidden-content records a seat could build by guessing, with what each is: the whole state (the
    caller gives its hashes) and the other seats' command records, without a salt and with one it could know."""
    for digest in states:
        yield "a whole state", digest
    for stored in app.store.commands(game):
        if stored.record.seat == seat:
            continue
        fields = {k: v for k, v in msgspec.to_builtins(stored.record).items() if k != "salt"}
        yield f"command {stored.record.cmd} without its salt", sha256_hex(canonical(fields))
        yield f"command {stored.record.cmd} with an empty salt", sha256_hex(canonical({**fields, "salt": ""}))


def log_fog_leaks(app: Arbitro, game: str) -> list[str]:
    """Every fog leak in a whole stored game, for every seat: one fold forward over the umpire's log."""
    ruleset = app.adjudicator(app.game(game).ruleset).ruleset
    replayer = app.replayer(game)
    seats = app.game(game).seats
    served = {seat: {e["seq"]: e for e in app.log_by_event(game, seat)} for seat in seats}
    leaks: list[str] = []
    state = None
    for body in replayer.bodies():
        state = replayer.fold.apply(state, body, replayer.state_at)
        stored = msgspec.to_builtins(body.event)
        for seat in seats:
            if body.seq in served[seat]:
                leaks += fog_leaks(ruleset, state.rules, seat, stored, served[seat][body.seq])
    return leaks
