"""Where a store is: the one function that maps what a user gives (--db / --store, $ARBITRO_STORE or
$ARBITRO_DB) to a store. A SQLite file path (or `sqlite:PATH`) is the embedded default; a `postgresql://` URL
is a PostgreSQL server (docs/stores.md)."""

from __future__ import annotations

from arbitro.events.postgres import PostgresStore, is_postgres_url, redacted
from arbitro.events.sqlite import OpenMode, SQLiteStore
from arbitro.events.store import NoDatabase

SQLITE_PREFIX = "sqlite:"


def open_store(location: str, mode: OpenMode = "write") -> SQLiteStore | PostgresStore:
    """The store at `location`, opened in `mode` (SQLiteStore's modes; PostgresStore's say the same of the
    schema). A URL of any other scheme is refused rather than taken for a file name."""
    if is_postgres_url(location):
        return PostgresStore(location, mode=mode)
    return SQLiteStore(sqlite_path(location), mode=mode)


def sqlite_path(location: str) -> str:
    """The file of a SQLite location: a plain path, `sqlite:PATH` or `sqlite:///ABSOLUTE/PATH`."""
    if location.startswith(SQLITE_PREFIX):
        path = location[len(SQLITE_PREFIX):]
        return path[2:] if path.startswith("///") else path
    if "://" in location:
        scheme = location.split("://", 1)[0]
        raise NoDatabase(f"{redacted(location)}: arbitro has no {scheme!r} store; give a SQLite file (PATH or "
                         "sqlite:PATH) or a postgresql://USER@HOST/DATABASE URL")
    return location


def describe(location: str) -> str:
    """The location as it may be printed: a URL's password hidden."""
    return redacted(location)
