"""A Report (story.py) as a self-contained HTML page (styles and map pictures inline) or as Markdown with its map
pictures as SVG files beside it. Every text from the game is escaped; the citations stay as the rules write them."""

from __future__ import annotations

import html
import re

from arbitro.adjudicator.report import Entry, Note, Report, Section

STYLE = """
body { font-family: Georgia, serif; max-width: 72em; margin: 2em auto; padding: 0 1em; color: #222; }
h1, h2 { font-family: sans-serif; } dl { display: grid; grid-template-columns: max-content auto; gap: .2em 1em; }
dt { font-weight: bold; } ol.entries { list-style: none; padding: 0; } ol.entries > li { margin: .5em 0; }
li.combat { border-left: 4px solid #b03a2e; padding-left: .5em; } li.ruling, li.undo { border-left: 4px solid #7d3c98;
padding-left: .5em; } li.end { border-left: 4px solid #1e8449; padding-left: .5em; } li.void { opacity: .55; }
.who { font-family: sans-serif; font-weight: bold; } cite { color: #666; font-size: .85em; }
small.details { color: #777; } .seq { color: #999; font-size: .8em; } .dice { font-family: monospace; }
blockquote.note { background: #fdf6d8; margin: .3em 0 .3em 2em; padding: .3em .6em; }
table.losses td.bar span { display: inline-block; height: .8em; background: #b03a2e; }
figure svg { max-width: 100%; height: auto; } .provisional { color: #8a1c1c; }
"""
XML_DECLARATION = re.compile(r"^<\?xml[^>]*>\s*")


def picture_name(section_index: int, at: int, numbered: str = "event") -> str:
    return f"turn-{section_index:02d}-{numbered}-{at}.svg"


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _facts(report: Report) -> list[tuple[str, str]]:
    """The game's particulars, as both writers list them."""
    interpretations = ", ".join(f"{k} = {v}" for k, v in report.interpretations.items()) or "the defaults"
    return [("Game", report.game), ("Ruleset", f"{report.title} ({report.ruleset})"), ("Scenario", report.scenario),
            ("Seats", ", ".join(report.seats)), ("Seen by", report.seat), ("Options", ", ".join(report.options) or "none"),
            ("Readings", interpretations), (f"{report.numbered.capitalize()}s", str(report.head)),
            ("Not as published", ", ".join(report.non_standard) or "nothing"), ("Result", report.result)]


def _sides(report: Report) -> list[str]:
    return sorted({side for s in report.sections for side in s.losses})


# --- HTML ---------------------------------------------------------------------------------------------------------
def to_html(report: Report) -> str:
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
             f"<title>{_e(report.title)}: {_e(report.game)} as {_e(report.seat)} saw it</title>\n"
             f"<style>{STYLE}</style>\n</head>\n<body>\n<h1>{_e(report.title)}: {_e(report.game)}</h1>\n<dl>"]
    parts += [f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in _facts(report)]
    parts.append("</dl>")
    if report.provisional:
        parts.append("<p class=\"provisional\">Provisional (reconstructed) data: "
                     f"{_e(', '.join(report.provisional))}. A result computed with it is not one of the printed game.</p>")
    parts.append("<h2>Contents</h2>\n<ol>" + "".join(f"<li><a href=\"#s{i}\">{_e(s.title)}</a></li>"
                                                     for i, s in enumerate(report.sections)) + "</ol>")
    parts.append(_losses_html(report))
    for i, section in enumerate(report.sections):
        parts.append(_section_html(i, section, report.numbered))
    if report.pictures_note:
        parts.append(f"<p><em>No map pictures: {_e(report.pictures_note)}</em></p>")
    parts.append(f"<h2>Result</h2>\n<p>{_e(report.result)}</p>\n</body>\n</html>\n")
    return "\n".join(parts)


def _scored(report: Report) -> list[str]:
    return sorted({side for s in report.sections for side in s.score})


def _losses_html(report: Report) -> str:
    sides, scored = _sides(report), _scored(report)
    if not sides and not scored:
        return ""
    rows = []
    for i, section in enumerate(report.sections):
        cells = "".join(f"<td>{section.losses.get(side, 0)}</td><td class=\"bar\"><span style=\"width: "
                        f"{section.losses.get(side, 0) * 8}px\"></span></td>" for side in sides)
        cells += "".join(f"<td>{_e(section.score.get(side, ''))}</td>" for side in scored)
        rows.append(f"<tr><td><a href=\"#s{i}\">{_e(section.title)}</a></td>{cells}</tr>")
    head = "".join(f"<th colspan=\"2\">losses {_e(side)}</th>" for side in sides)
    head += "".join(f"<th>{_e(report.score_label)} {_e(side)}</th>" for side in scored)
    return (f"<h2>Losses and score per turn</h2>\n<table class=\"losses\"><tr><th>turn</th>{head}</tr>\n"
            + "\n".join(rows) + "</table>\n<p><small>Losses: eliminations, step, strength, morale and hit losses, "
            "counted per event; the score as the turn ends.</small></p>")


def _section_html(index: int, section: Section, numbered: str) -> str:
    parts = [f"<section id=\"s{index}\">\n<h2>{_e(section.title)}</h2>\n<p class=\"seq\">{numbered}s #{section.first} "
             f"to #{section.last}</p>\n<ol class=\"entries\">"]
    parts += [_entry_html(entry) for entry in section.entries if entry.lines or entry.hidden or entry.notes]
    parts.append("</ol>")
    for picture in section.pictures:
        parts.append(f"<figure>{XML_DECLARATION.sub('', picture.svg)}<figcaption>{_e(picture.caption)}"
                     "</figcaption></figure>")
    parts.append("</section>")
    return "\n".join(parts)


def note_head(note: Note) -> str:
    """A note as the report heads it: its writer, and its number as a dispute cites it (`--note N`, `private:N`)."""
    return f"{note.seat}, {'private ' if note.private else ''}note {note.number} on #{note.seq}"


def _entry_html(entry: Entry) -> str:
    classes = " ".join([entry.kind, "void" if entry.void else ""]).strip()
    lines = []
    for line in entry.lines:
        text = f"<span class=\"dice\">{_e(line.text)}</span>" if line.dice else _e(line.text)
        cite = f" <cite>({_e(line.rule)})</cite>" if line.rule else ""
        more = f" <small class=\"details\">{_e(line.details)}</small>" if line.details else ""
        text = f"<del>{text}</del>" if entry.void else text
        cited = "".join(f"<li>{_e(item)}</li>" for item in line.cited)
        cited = f"<ul class=\"cited\">{cited}</ul>" if cited else ""
        lines.append(f"<li>{text}{cite}{more} <span class=\"seq\">#{line.seq}</span>{cited}</li>")
    if entry.hidden:
        lines.append(f"<li><em>{entry.hidden} event(s) hidden from this seat</em></li>")
    if entry.void:
        lines.append(f"<li><em>voided by the undo at #{entry.void}</em></li>")
    body = "".join(lines)
    notes = "".join(f"<blockquote class=\"note\">{_e(note_head(n))}: {_e(n.text)}</blockquote>" for n in entry.notes)
    return f"<li class=\"{classes}\"><span class=\"who\">{_e(entry.seat)}</span><ul>{body}</ul>{notes}</li>"


# --- Markdown -----------------------------------------------------------------------------------------------------
def _md(text: object) -> str:
    """Text safe in Markdown: the characters that would start markup are escaped."""
    return re.sub(r"([\\`*_{}\[\]<>#|~])", r"\\\1", str(text))


def to_markdown(report: Report, pictures_folder: str) -> tuple[str, dict[str, str]]:
    """The Markdown text and its pictures (file name -> SVG), linked as `pictures_folder/NAME`."""
    files: dict[str, str] = {}
    out = [f"# {_md(report.title)}: {_md(report.game)}", ""]
    out += [f"- **{k}**: {_md(v)}" for k, v in _facts(report)]
    if report.provisional:
        out += ["", f"*Provisional (reconstructed) data: {_md(', '.join(report.provisional))}. A result computed with "
                    "it is not one of the printed game.*"]
    sides, scored = _sides(report), _scored(report)
    if sides or scored:
        heads = [f"losses {side}" for side in sides] + [f"{report.score_label} {side}" for side in scored]
        out += ["", "## Losses and score per turn", "", "| turn | " + " | ".join(map(_md, heads)) + " |",
                "|---|" + "---|" * len(heads)]
        out += [f"| {_md(s.title)} | " + " | ".join(
            [f"{s.losses.get(side, 0)} {'▮' * s.losses.get(side, 0)}" for side in sides]
            + [str(s.score.get(side, "")) for side in scored]) + " |" for s in report.sections]
    for i, section in enumerate(report.sections):
        out += ["", f"## {_md(section.title)}", "", f"*{report.numbered}s #{section.first} to #{section.last}*", ""]
        out += [line for entry in section.entries if entry.lines or entry.hidden or entry.notes
                for line in _entry_md(entry)]
        for picture in section.pictures:
            name = picture_name(i, picture.at, report.numbered)
            files[name] = picture.svg
            out += ["", f"![{_md(picture.caption)}]({pictures_folder}/{name})"]
    if report.pictures_note:
        out += ["", f"*No map pictures: {_md(report.pictures_note)}*"]
    out += ["", "## Result", "", _md(report.result), ""]
    return "\n".join(out), files


def _entry_md(entry: Entry) -> list[str]:
    marker = {"combat": " ⚔", "ruling": " (ruling)", "undo": " (undo)", "end": " (end)"}.get(entry.kind, "")
    texts = [_md(line.text)
             + (f" *({_md(line.rule)})*" if line.rule else "") for line in entry.lines]
    if entry.hidden:
        texts.append(f"*{entry.hidden} event(s) hidden from this seat*")
    body = "; ".join(texts)
    if entry.void:
        body = f"~~{body}~~ *(voided by the undo at #{entry.void})*"
    lines = [f"- **{_md(entry.seat)}**{marker}: {body}"]
    lines += [f"  - {_md(item)}" for line in entry.lines for item in line.cited]
    lines += [f"  > {_md(note_head(n))}: {_md(n.text)}" for n in entry.notes]
    return lines
