"""An option a local command and its `arbitro remote` namesake both take means the same, so it is declared once
(cli_common: note_at_option, log_range_options, ...) and reads the same in both `--help`s: a remote command's
option whose help differs from its local namesake's is one declared twice. The exceptions differ in who speaks (a
local command names SEAT, a remote one the token's seat) or in what the local command adds (--offline's files)."""

from __future__ import annotations

from collections.abc import Iterator

import click

from arbitro.adjudicator.cli_remote import remote
from arbitro.cli import cli

# (option, or "command option" for one command's alone): why its local and remote helps differ
SPOKEN_BY = {
    "--as": "locally the seat acting; remotely a seat the umpire's token reads as",
    "--private": "SEAT's note, or the token's seat's",
    "--file": "submit: a mailed file too (--offline); entropy: SEAT's file, or the token's seat's here",
    "--expect": "`arbitro status`'s head, or `arbitro remote status`'s",
    "submit --key": "SEAT's idempotency key, or the token's seat's (withdraw-key's --key, the key meant, is shared)",
    "--sign": "SEAT's private key, or the token's seat's, kept here",
}


def commands(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))
        else:
            yield (*path, name), command


def helps(command: click.Command) -> dict[str, str | None]:
    return {name: p.help for p in command.params if isinstance(p, click.Option) for name in p.opts}


def test_an_option_both_take_reads_the_same_locally_and_remotely() -> None:
    local = dict(commands(cli))
    compared, differing = 0, []
    for path, command in commands(remote):
        if path not in local:  # follow, consent: remote only
            continue
        here = helps(local[path])
        for name, text in helps(command).items():
            if name in here and name not in SPOKEN_BY and f"{' '.join(path)} {name}" not in SPOKEN_BY:
                compared += 1
                if text != here[name]:
                    differing.append((" ".join(path), name, here[name], text))
    assert not differing, f"declare these once, in cli_common, with one wording: {differing}"
    assert compared >= 15, "the walk compared the shared options"
