"""The PostgreSQL store's schema (events/postgres.py): its tables, and the columns of a game's row."""

NOTES_TABLE = """CREATE TABLE IF NOT EXISTS annotations (
        game TEXT NOT NULL, chain TEXT NOT NULL, id BIGINT NOT NULL, seq BIGINT NOT NULL, seat TEXT NOT NULL,
        private BOOLEAN NOT NULL, text TEXT NOT NULL, created_at TEXT NOT NULL, at_hash TEXT NOT NULL,
        prev TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (game, chain, id))"""

# A database made before the salt key (events.records.GameRecord.salt_key), whose games were salted by their seeds,
# gets the column when opened to write (PostgresStore.__init__).
SALT_KEY_COLUMN = "ALTER TABLE games ADD COLUMN IF NOT EXISTS salt_key TEXT"

# Every table's key is led by the game: a distributed database keeps each game's rows on one shard. `meta` is
# the only table without a game (the schema version and the server's signing key): a reference table in Citus.
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, version TEXT NOT NULL, scenario TEXT NOT NULL,
        kind TEXT NOT NULL, seed TEXT, seed_commitment TEXT NOT NULL, seats TEXT NOT NULL, created_at TEXT NOT NULL,
        head_seq BIGINT NOT NULL, head_hash TEXT NOT NULL, head_cmd BIGINT NOT NULL,
        parent TEXT, parent_seq BIGINT, parent_hash TEXT, salt_key TEXT)""",
    """CREATE TABLE IF NOT EXISTS seats (
        game TEXT NOT NULL, seat TEXT NOT NULL, umpire BOOLEAN NOT NULL, PRIMARY KEY (game, seat))""",
    """CREATE TABLE IF NOT EXISTS commands (
        game TEXT NOT NULL, cmd BIGINT NOT NULL, seat TEXT NOT NULL, key TEXT NOT NULL, body BYTEA NOT NULL,
        hash TEXT NOT NULL, first_seq BIGINT NOT NULL, last_seq BIGINT NOT NULL,
        PRIMARY KEY (game, cmd), UNIQUE (game, seat, key))""",
    """CREATE TABLE IF NOT EXISTS events (
        game TEXT NOT NULL, seq BIGINT NOT NULL, cmd BIGINT NOT NULL, type TEXT NOT NULL, body BYTEA NOT NULL,
        hash TEXT NOT NULL, PRIMARY KEY (game, seq))""",
    """CREATE TABLE IF NOT EXISTS snapshots (
        game TEXT NOT NULL, seq BIGINT NOT NULL, state BYTEA NOT NULL, state_hash TEXT NOT NULL,
        PRIMARY KEY (game, seq))""",
    NOTES_TABLE,  # a note numbered within its chain (schema 3): a seat's numbers count only what it may read
    """CREATE TABLE IF NOT EXISTS seat_keys (
        game TEXT NOT NULL, seat TEXT NOT NULL, public_key TEXT NOT NULL, since_cmd BIGINT NOT NULL,
        PRIMARY KEY (game, seat))""",
    """CREATE TABLE IF NOT EXISTS command_signatures (
        game TEXT NOT NULL, cmd BIGINT NOT NULL, signature TEXT NOT NULL, PRIMARY KEY (game, cmd))""",
    # A bearer token's hash, per game and role (events.store: access tokens). token_role looks a hash up without
    # its game: the one read that is not led by the game (in Citus it asks every shard; hashes of random tokens
    # do not collide, so no unique key across games is needed).
    """CREATE TABLE IF NOT EXISTS tokens (
        game TEXT NOT NULL, role TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (game, role))""",
    "CREATE INDEX IF NOT EXISTS tokens_by_hash ON tokens (hash)",
    # A seat's own copy of a game it plays by e-mail: the export it was sent, as it was sent (events.store).
    """CREATE TABLE IF NOT EXISTS seat_copies (
        game TEXT PRIMARY KEY, seat TEXT NOT NULL, head_seq BIGINT NOT NULL, export TEXT NOT NULL)""",
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
)

GAME_COLUMNS = ("id", "ruleset", "version", "scenario", "kind", "seed", "seed_commitment", "seats", "created_at",
                "head_seq", "head_hash", "head_cmd", "parent", "parent_seq", "parent_hash", "salt_key")
