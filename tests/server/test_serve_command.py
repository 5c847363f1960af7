"""`arbitro serve` as a real process: it creates the database, prints the host token it made when none was given,
serves the OpenAPI schema, the docs and the rulesets, lets the host (here by $ARBITRO_HOST_TOKEN) make a game
whose seats' tokens then work, and stops on SIGTERM."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from tests.foundation.conftest import arbitro_exe


def serving(db: Path | str, *options: str, **env: str) -> tuple[subprocess.Popen[str], str]:
    """`arbitro serve` on the store `db` (a SQLite path or a postgresql:// URL) and a free port; its access log
    (stdout) is dropped, so that a long test cannot fill the pipe and block it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    process = subprocess.Popen([*arbitro_exe(), "serve", "--db", str(db), "--port", str(port), *options], text=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, **env})
    return process, f"http://127.0.0.1:{port}"


def first_answer(process: subprocess.Popen[str], call: Callable[[], httpx.Response]) -> httpx.Response:
    """`call`'s response once the server listens."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return call()
        except httpx.TransportError:
            assert process.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)


def stopped(process: subprocess.Popen[str]) -> str:
    """SIGTERM, then the process's stderr; it must shut down gracefully (uvicorn then re-raises the signal)."""
    process.send_signal(signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode in (0, -signal.SIGTERM) and "Application shutdown complete" in err, err
    return err


def test_arbitro_serve_serves_a_database_and_prints_the_host_token_it_made(tmp_path: Path) -> None:
    process, url = serving(tmp_path / "club.db")
    try:
        schema = first_answer(process, lambda: httpx.get(f"{url}/openapi.json", timeout=30))
        assert "/games/{game_id}/commands" in schema.json()["paths"]
        assert httpx.get(f"{url}/docs", timeout=30).status_code == 200
        assert "marengo" in {r["name"] for r in httpx.get(f"{url}/rulesets", timeout=30).json()}
    finally:
        err = stopped(process)
    assert re.search(r"host token \(create, import and list games with it\): \S{40,}", err), err
    assert "created the database" in err and (tmp_path / "club.db").is_file()


def test_the_host_token_from_the_environment_makes_games_whose_tokens_work(tmp_path: Path) -> None:
    process, url = serving(tmp_path / "club.db", ARBITRO_HOST_TOKEN="s3cret")
    try:
        made = first_answer(process, lambda: httpx.post(f"{url}/games", json={"ruleset": "marengo", "scenario": "marengo"},
                                                        headers={"Authorization": "Bearer s3cret"}, timeout=30))
        assert made.status_code == 201, made.text
        game, tokens = made.json()["game"], made.json()["tokens"]
        status = httpx.get(f"{url}/games/{game}", headers={"Authorization": f"Bearer {tokens['france']}"}, timeout=30)
        assert status.json()["awaiting"]["kind"] == "entropy"  # seat entropy by default, as `arbitro new`
    finally:
        err = stopped(process)
    assert "host token" not in err  # given, so not printed
