"""`arbitro serve`: the HTTP server (adjudicator/server.py) on uvicorn, over a SQLite or PostgreSQL store. Loaded by the CLI
only when `serve` is asked for (cli.LAZY_COMMANDS), so that the other commands do not pay for importing the
web stack."""

from __future__ import annotations

import secrets

import click
import uvicorn

from arbitro.adjudicator.cli_common import db_option, handle_errors, open_app
from arbitro.adjudicator.http_access import Limits
from arbitro.adjudicator.server import create_app


@click.command()
@db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="The port (0: any free one).")
@click.option("--host-token", envvar="ARBITRO_HOST_TOKEN", metavar="TOKEN",
              help="The operator's bearer token: it creates, imports and lists games (default $ARBITRO_HOST_TOKEN, "
                   "else a new one printed at start).")
@click.option("--open", "open_creation", is_flag=True, help="Anyone may create games (each address at most "
                                                           "--games-per-token), not only the host.")
@click.option("--max-body", default=Limits.max_body, show_default=True, help="Bytes of a JSON request body.")
@click.option("--max-upload", default=Limits.max_upload, show_default=True,
              help="Bytes of an exported game sent to /games/import or /verify.")
@click.option("--commands-per-second", default=Limits.commands_per_second, show_default=True, type=float,
              help="Commands each seat of a game may send a second (bursts of twice as many).")
@click.option("--games-per-token", default=Limits.games_per_token, show_default=True,
              help="Games one token may make (the host's creations and imports; an umpire's forks and "
                   "amendments, for the whole family of forks of one created game).")
@handle_errors
def serve(db: str, host: str, port: int, host_token: str | None, open_creation: bool, max_body: int,
          max_upload: int, commands_per_second: float, games_per_token: int) -> None:
    """Serve the database's games over HTTP for remote play: each seat and the umpire act with their own bearer
    token (made with the game, or by `arbitro invite`); the API is described at /docs and /openapi.json
    (docs/http-api.md). Stop it with Ctrl-C.

    \b
    Example:
        arbitro serve --db club.db --port 8000
        arbitro serve --store postgresql://arbitro@db.example/club --port 8001
        ARBITRO_HOST_TOKEN=s3cret arbitro serve --db club.db --host 0.0.0.0
        curl -s localhost:8000/rulesets
    """
    app = open_app(db, "create")
    token = host_token or secrets.token_urlsafe(32)
    if not host_token:
        click.echo(f"host token (create, import and list games with it): {token}", err=True)
    limits = Limits(max_body=max_body, max_upload=max_upload, commands_per_second=commands_per_second,
                    games_per_token=games_per_token)
    uvicorn.run(create_app(app, token, limits=limits, open_creation=open_creation), host=host, port=port,
                log_level="info")
