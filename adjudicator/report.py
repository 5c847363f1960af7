"""`arbitro report`'s library call (issue 13): a game told turn by turn, built from what one seat was served and
nothing else: the events as `Arbitro.log` serves them to the seat, the notes it may read, the status it is given
and its map pictures (`render`, from its view). The umpire's report is the whole game.

The story is plain data (a Report); writers.py turns it into HTML or Markdown, `--json` prints it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import NotDrawn
from arbitro.adjudicator.history import voided_by
from arbitro.adjudicator.render import render
from arbitro.adjudicator.report_phrases import (HIDDEN_WORDS, LOSS_TYPES, NoteNames, details, evidence_words, is_combat,
                                                phrase, told)
from arbitro.adjudicator.seat_numbers import events_of
from arbitro.adjudicator.service import Arbitro
from arbitro.events.store import Annotation
from arbitro.projections.base import UMPIRE, Outcome
from arbitro.projections.disputes import WITHHELD

Kind = Literal["command", "combat", "ruling", "undo", "hidden", "end"]
DISPUTE_MESSAGES = ("dispute_opened", "dispute_replied", "dispute_ruled")
PictureChoice = Literal["turns", "end", "none"] | tuple[int, ...]  # after each turn, at the end, none, or these events


@dataclass(slots=True)
class Line:
    """One event told: its number, its sentence, the rule it cites, the fields the sentence leaves out."""

    seq: int
    text: str
    rule: str = ""
    details: str = ""
    dice: tuple[int, ...] = ()
    cited: list[str] = field(default_factory=list)  # a dispute's message: what it cites, named (citing())


@dataclass(slots=True)
class Note:
    seq: int
    seat: str
    text: str
    private: bool
    number: int = 0  # within its chain: public, or its writer's private one (arbitro §L.1)


@dataclass(slots=True)
class Entry:
    """One command's events as told (a command is what one seat did, with everything it caused)."""

    cmd: int
    seat: str
    kind: Kind
    first: int  # its first and last events' numbers
    last: int
    lines: list[Line] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    void: int = 0  # the event number of the undo that voided this command (0: it stands)
    hidden: int = 0  # how many of its events were served to this seat as hidden


@dataclass(slots=True)
class Picture:
    at: int
    caption: str
    svg: str


@dataclass(slots=True)
class Section:
    """A turn (or the set-up before the first): its commands, its losses by side and its map picture."""

    title: str
    first: int
    last: int = 0
    entries: list[Entry] = field(default_factory=list)
    losses: dict[str, int] = field(default_factory=dict)
    score: dict[str, int] = field(default_factory=dict)  # at the turn's end, by side (Report.score_label says what)
    pictures: list[Picture] = field(default_factory=list)


@dataclass(slots=True)
class Report:
    game: str
    title: str
    ruleset: str
    scenario: str
    seat: str
    seats: list[str]
    options: list[str]
    interpretations: dict[str, str]
    provisional: list[str]
    non_standard: list[str]
    head: int
    result: str
    sections: list[Section] = field(default_factory=list)
    score_label: str = ""  # what Section.score counts ("" where the seat's view keeps no score)
    pictures_note: str = ""

    @property
    def numbered(self) -> str:
        """What the report's numbers count: the log's events for the umpire, commands for a seat (engine-rules §V.6),
        whose sections may then share the command that ends one turn and begins the next."""
        return "event" if self.seat == UMPIRE else "command"


# What a game's view keeps as its running score, by side, tried in order: Caricat!'s and Monferrato's victory points
# (caricat §13, monferrato §16), Arrivano's steps lost (arrivano §17.1.8), Marengo's morale (marengo §13).
SCORES = (("vp", "victory points"), ("steps_lost", "steps lost"), ("morale", "morale"))


def report(app: Arbitro, game_id: str, seat: str, pictures: PictureChoice = "turns",
           progress: Callable[[int, int], None] | None = None) -> Report:
    """The report of `game_id` as `seat` was served it; `pictures`: where the map pictures go; `progress(done,
    total)` is called as the events are told and the pictures drawn."""
    status = app.status(game_id, seat)
    served = events_of(app.log(game_id, seat))  # a seat's: its items opened, numbered by command (§V.6)
    sides = _sides(app.view(game_id, seat)["state"])
    story = Report(
        game=game_id, title=registry.get(status.ruleset).title, ruleset=status.ruleset, scenario=status.scenario,
        seat=seat, seats=list(status.seats), options=list(status.options),
        interpretations=dict(status.interpretations), provisional=list(status.provisional),
        non_standard=list(status.non_standard), head=status.head,
        result=_result(status.outcome),
        sections=_sections(served, sides, citing(served, notes := app.notes(game_id, seat), seat)))
    _place_notes(story.sections, notes)
    story.score_label = _score(app, story)
    total = len(served) + len(_picture_points(story.sections, pictures))
    if progress:
        progress(len(served), total)
    story.pictures_note = _draw(app, story, pictures,
                                lambda done: progress(len(served) + done, total) if progress else None)
    return story


def _score(app: Arbitro, story: Report) -> str:
    """Each turn's score at its end, from the seat's view then (SCORES); what it counts, or "" if none is kept."""
    label = ""
    for section in story.sections:
        state = app.view(story.game, story.seat, section.last)["state"]
        for key, name in SCORES:
            kept = state.get(key)
            if isinstance(kept, dict) and kept and all(isinstance(v, int) for v in kept.values()):
                section.score, label = dict(sorted(kept.items())), name
                break
    return label


def _result(outcome: Outcome | None) -> str:
    if outcome is None:
        return "the game goes on"
    return f"{outcome.winner or 'nobody'} wins{'' if outcome.winner else ' (a draw)'}: {outcome.reason} ({outcome.rule})"


def citing(served: list[dict[str, Any]], notes: Iterable[Annotation],
           reader: str) -> Callable[[Mapping[str, Any]], list[str]]:
    """What a dispute's message cites (arbitro §D.2, §D.7), named for the report's reader: each event by its number
    and as the reader was told it, each piece of evidence, and a cited note as report_phrases.NoteNames names it
    (with its text where the reader may read it). Citations served withheld stay withheld."""
    told_as = {e["seq"]: phrase(e["event"]) if e.get("event") else HIDDEN_WORDS for e in served}
    note_names = NoteNames(notes, reader)

    def named(data: Mapping[str, Any]) -> list[str]:
        if data.get("type") not in DISPUTE_MESSAGES:
            return []
        word, seqs = ("about", data.get("about")) if data["type"] == "dispute_opened" else ("cites", data.get("cites"))
        evidence = data.get("evidence") or []
        if isinstance(seqs, str) or isinstance(evidence, str):
            return [f"what it cites is {WITHHELD}"]
        return [*(f"{word} #{seq}: {told_as.get(seq, HIDDEN_WORDS)}" for seq in seqs or ()),
                *(evidence_words(ref, note_names) for ref in evidence)]

    return named


def _sections(served: list[dict[str, Any]], sides: Mapping[str, str],
              cited: Callable[[Mapping[str, Any]], list[str]]) -> list[Section]:
    """The served events cut into turns: a turn begins at a `turn_began`, or after a `turn_ended` that no
    `turn_began` follows (Caricat! ends turns without beginning them)."""
    sections = [Section(title="Set-up", first=served[0]["seq"] if served else 0)]
    turn_over: int | None = None
    for event in served:
        data = event.get("event") or {}
        starts = event["type"] == "turn_began" or (turn_over is not None and event["type"] not in ("checkpoint",))
        if starts and sections[-1].entries:
            sections.append(Section(title=_turn_title(data, turn_over), first=event["seq"]))
        if starts:
            turn_over = None
        if event["type"] == "turn_ended" and "turn" in data and "round" not in data:
            turn_over = int(data["turn"]) + 1
            if len(sections) == 1:  # the game's first turn began with the game, without a turn_began
                sections[0].title = f"Set-up and turn {data['turn']}"
        _tell(sections[-1], event, sides, cited)
        sections[-1].last = event["seq"]
    voided = voided_by(served)  # struck through: they stay in the log and in the report (arbitro §U)
    for entry in (e for section in sections for e in section.entries):
        entry.void = voided.get(entry.first, 0)
    for section in sections[1:]:  # what follows the last turn's end: the final scoring, the result
        if all(e.kind == "end" or not e.lines for e in section.entries):
            section.title = "The end of the game"
    return [s for s in sections if s.entries]


def _turn_title(began: Mapping[str, Any], next_turn: int | None) -> str:
    if began.get("type") != "turn_began":
        return f"Turn {next_turn}"
    if "round" in began:  # Marengo: a round of two player turns, each at an hour of the day
        hour = f" at {began['hour']}:00" if "hour" in began else ""
        return f"Round {began['round']}{hour}, {began.get('side', '')}".rstrip(", ")
    name = f": {began['name']}" if began.get("name") else ""
    return f"Turn {began.get('turn', '?')}{name}"


def _tell(section: Section, event: Mapping[str, Any], sides: Mapping[str, str],
          cited: Callable[[Mapping[str, Any]], list[str]]) -> None:
    """Add one served event to its command's entry in the section."""
    if not section.entries or section.entries[-1].cmd != event["cmd"]:
        section.entries.append(Entry(cmd=event["cmd"], seat=event["seat"], kind="command", first=event["seq"],
                                     last=event["seq"]))
    entry = section.entries[-1]
    entry.last = event["seq"]
    if event["type"] == "hidden":
        entry.hidden += 1
        return
    data = event.get("event") or {}
    kind = str(data.get("type", ""))
    if not told(kind):
        return
    entry.kind = _kind(entry.kind, kind)
    dice = tuple(data.get("values", ())) if kind == "dice_rolled" else ()
    entry.lines.append(Line(seq=event["seq"], text=phrase(data), rule=str(data.get("rule", "")),
                            details=details(data), dice=dice, cited=cited(data)))
    if kind in LOSS_TYPES:
        side = _loser(data, sides)
        section.losses[side] = section.losses.get(side, 0) + 1


def _kind(current: Kind, event_type: str) -> Kind:
    if event_type == "ruling_made":
        return "ruling"
    if event_type in ("undone", "undo_requested", "undo_answered", "undo_declined"):
        return "undo"
    if event_type in ("game_ended", "game_over"):
        return "end"
    return "combat" if current == "command" and is_combat(event_type) else current


def _sides(view_state: Mapping[str, Any]) -> dict[str, str]:
    """Each piece the seat's final view names, with its side: units, leaders, blocks (a piece the view does not
    name is counted under 'unknown')."""
    sides: dict[str, str] = {}
    for pieces in (view_state.get(k) for k in ("units", "leaders", "blocks")):
        items: Iterable[tuple[str, Any]] = pieces.items() if isinstance(pieces, dict) else (
            (p.get("block", ""), p) for p in pieces or () if isinstance(p, dict))
        sides.update({pid: str(p["side"]) for pid, p in items if isinstance(p, dict) and p.get("side")})
    return sides


def _loser(data: Mapping[str, Any], sides: Mapping[str, str]) -> str:
    if isinstance(data.get("side"), str):
        return str(data["side"])
    pieces = [data.get(k) for k in ("unit", "leader", "block")] + list(data.get("units") or [])
    return next((sides[p] for p in pieces if isinstance(p, str) and p in sides), "unknown")


def _place_notes(sections: list[Section], notes: Iterable[Any]) -> None:
    """Each note the seat may read, under the command whose event it annotates (its creation time is left out:
    the report is the same whenever it is made)."""
    entries = [e for s in sections for e in s.entries]
    for note in notes:
        at = [e for e in entries if e.first <= note.seq] or entries[:1]
        if at:
            at[-1].notes.append(Note(seq=note.seq, seat=note.seat, text=note.text, private=note.private,
                                     number=note.id))


def _picture_points(sections: list[Section], pictures: PictureChoice) -> list[tuple[int, int]]:
    """(section index, event number) of each picture asked for."""
    if pictures == "none" or not sections:
        return []
    if pictures == "end":
        return [(len(sections) - 1, sections[-1].last)]
    if pictures == "turns":
        return [(i, s.last) for i, s in enumerate(sections)]
    return [(next((i for i, s in enumerate(sections) if s.first <= at <= s.last), len(sections) - 1), at)
            for at in sorted(set(pictures))]


def _draw(app: Arbitro, story: Report, pictures: PictureChoice, progress: Callable[[int], None]) -> str:
    """Draw the pictures asked for into their sections; say why there are none where the ruleset has no picture."""
    points = _picture_points(story.sections, pictures)
    for done, (index, at) in enumerate(points, 1):
        try:
            drawn = render(app, story.game, story.seat, at)
        except NotDrawn as e:
            return str(e)
        picture = Picture(at=drawn.drawn["at"], caption=drawn.drawn["caption"], svg=drawn.svg)
        story.sections[index].pictures.append(picture)
        progress(done)
    return ""
