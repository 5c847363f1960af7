"""Fixtures every test directory may use: a real PostgreSQL server (the store contract, tests/foundation/
test_postgres.py, the HTTP server's tests on PostgreSQL); and the suite's determinism: every game's dice seed derived
from the test's name (tests/seeds.py), Hypothesis derandomized, both made fresh by `ARBITRO_TEST_SEED=fresh`
(docs/testing.md, "Deterministic dice")."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from _pytest.nodeid import NodeId  # pytest 9: what a test's id is (see pytest_collection_modifyitems)
from hypothesis import settings

from arbitro.adjudicator.memo import Memo
from arbitro.events.rows import GAME_TABLES
from tests import seeds

try:  # the [test] extra: a PostgreSQL server shipped in a wheel, and the driver
    import pgserver
    import psycopg
except ImportError as missing:  # pragma: no cover - the test extra installs both
    pgserver = psycopg = None  # type: ignore[assignment]
    PG_MISSING = f"{missing.name} is not installed (pip install -e '.[test]')"
else:
    PG_MISSING = ""


# --- deterministic dice and examples ------------------------------------------------------------------
# Hypothesis: the same examples every run and no example database (a local database replays old failures, so two
# machines would run different examples); under ARBITRO_TEST_SEED=fresh, random examples (Hypothesis prints the
# falsifying one). A test's own @settings still overrides what it names.
settings.register_profile("arbitro", derandomize=True, database=None)
settings.register_profile("arbitro-fresh", derandomize=False, database=None, print_blob=True)
settings.load_profile("arbitro-fresh" if seeds.base().startswith(seeds.FRESH) else "arbitro")


# --- mutation testing (tests/mutate.py) ------------------------------------------------------------------
KEPT_SEARCHES = "arbitro.adjudicator.parabellum.movement"  # the module holding the searches kept across positions


@pytest.fixture(autouse=True)
def _no_search_kept_from_the_clean_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a mutant (mutmut names it in MUTANT_UNDER_TEST), the movement searches kept across positions
    (`movement.SEARCHES`) start empty at each test: mutmut forks each mutant's run from the process that ran the
    clean code, whose kept searches would answer under the same keys, so a mutant of what a search reads (a
    commander's closed hexes, his limit) survived unasked. Outside mutation testing nothing changes."""
    kernel = sys.modules.get(KEPT_SEARCHES)
    if kernel is not None and "__mutmut_" in os.environ.get("MUTANT_UNDER_TEST", ""):
        monkeypatch.setattr(kernel, "SEARCHES", Memo(kernel.SEARCHES.size))


def pytest_configure(config: pytest.Config) -> None:
    seeds.choose_base()
    seeds.SEEDS.install()


def pytest_unconfigure(config: pytest.Config) -> None:
    seeds.SEEDS.uninstall()


def pytest_report_header(config: pytest.Config) -> str:
    fixed = seeds.base() == seeds.FIXED
    return (f"dice seeds: {seeds.ENV}={seeds.base()}"
            + (" (fixed; ARBITRO_TEST_SEED=fresh explores)" if fixed else " (replay a failure with this value)"))


def collected_id(node: pytest.Item | pytest.Collector) -> str:
    """A test's id as collected and as a command line names it: without the `@group` `--dist loadgroup` appends."""
    nodeid = node.nodeid
    return nodeid[:nodeid.rfind("@")] if nodeid.rfind("@") > nodeid.rfind("]") else nodeid


@pytest.hookimpl(trylast=True)  # after every conftest has marked its groups (tests/conformance/conftest.py)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under `--dist loadgroup` (the README's command) the tests of one `xdist_group` run in one worker: the
    controller schedules by a group named in each test's id (`id@group`). pytest-xdist 3.8 names it by setting
    `Item._nodeid`, which pytest 9 no longer reads (the id is `Item._id`), so every group was spread over the
    workers and each worker built its fixtures again (the conformance kit played each self-played game up to twice:
    issue 15). Named here as xdist means to, unless xdist already did."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        groups = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                         for m in item.iter_markers("xdist_group")})
        if groups and collected_id(item) == item.nodeid and hasattr(item, "_id"):
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(groups)}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    seeds.SEEDS.reset(collected_id(item))
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[object], request: pytest.FixtureRequest) -> Iterator[None]:
    """A fixture shared by several tests creates its games under its own name, not the first test's that asked."""
    if fixturedef.scope == "function":
        yield
        return
    with seeds.SEEDS.keyed(f"{collected_id(request.node)}::{fixturedef.argname}"):
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.sections.append(("dice seeds (tests/seeds.py)",
                                seeds.SEEDS.report() + f"\nreplay: {seeds.ENV}={seeds.base()} python -m pytest '{collected_id(item)}'"))


# --- a real PostgreSQL --------------------------------------------------------------------------------
PG_TABLES = ("games", *GAME_TABLES, "seat_copies")  # everything a test may leave, a seat's copy of a game included


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server for this test process (each xdist worker has its own), started from the pgserver
    wheel in a temporary directory: no system install. As root (CI), pgserver runs it as its own system user
    `pgserver`, since PostgreSQL refuses to run as root. Skipped with the reason where it cannot start, except
    in CI ($CI set), where not starting is a failure: the PostgreSQL store must be tested there."""
    if PG_MISSING:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL tests cannot run in CI: {PG_MISSING}")
        pytest.skip(f"PostgreSQL tests skipped: {PG_MISSING}")
    home = tempfile.mkdtemp(prefix="arbitro-pg-")  # short: the server's Unix socket lives in it
    try:
        server = pgserver.get_server(Path(home) / "data", cleanup_mode="delete")
    except Exception as e:  # noqa: BLE001 - any failure to start is reported as the reason
        shutil.rmtree(home, ignore_errors=True)
        if os.environ.get("CI"):
            raise
        pytest.skip(f"PostgreSQL tests skipped: pgserver could not start a server here ({type(e).__name__}: {e})")
    url = server.get_uri()
    with psycopg.connect(url, autocommit=True) as conn:  # a throwaway server: speed over durability
        conn.execute("ALTER SYSTEM SET fsync = off")
        conn.execute("ALTER SYSTEM SET synchronous_commit = off")
        conn.execute("SELECT pg_reload_conf()")
    yield url
    server.cleanup()
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """The test server's URL with every game deleted (the schema and the server's signing key stay)."""
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        present = {row[0] for row in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
        tables = [t for t in PG_TABLES if t in present]
        if tables:
            conn.execute(f"TRUNCATE {', '.join(tables)}")
    return postgres_server
