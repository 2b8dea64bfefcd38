"""The web schema under Alembic: the newest revision matches the models, a database from
before migrations is adopted with its rows, `frontlines db` upgrades and reports, and a
schema this code does not know is never touched."""

from __future__ import annotations

import threading

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text

from frontlines.cli import main
from frontlines.games import new_state
from frontlines.web import migrations
from frontlines.web.database import DatabaseError, normalise_url
from frontlines.web.seats import digest
from frontlines.web.store import Base, Store

RULESET = "battleline"

# The schema as `Base.metadata.create_all` wrote it before migrations (schema 2), word for
# word, with its row in frontlines_meta: what every existing database holds.
BEFORE_MIGRATIONS = [
    'CREATE TABLE frontlines_meta ("key" VARCHAR(32) NOT NULL, value VARCHAR(64) NOT NULL, PRIMARY KEY ("key"))',
    "CREATE TABLE games (id VARCHAR(32) NOT NULL, ruleset VARCHAR(64) NOT NULL, options TEXT NOT NULL,"
    " setup TEXT NOT NULL, seat_hash0 VARCHAR(64) NOT NULL, seat_hash1 VARCHAR(64) NOT NULL,"
    " invite_hash VARCHAR(64) NOT NULL, name0 VARCHAR(64) NOT NULL, name1 VARCHAR(64) NOT NULL,"
    " opponent VARCHAR(64) NOT NULL, bot_seat INTEGER, status VARCHAR(16) NOT NULL, result VARCHAR(16) NOT NULL,"
    " reason VARCHAR(32) NOT NULL, termination VARCHAR(32) NOT NULL, loser INTEGER, plies INTEGER NOT NULL,"
    " created FLOAT NOT NULL, updated FLOAT NOT NULL, PRIMARY KEY (id))",
    "CREATE INDEX ix_games_status ON games (status)",
    "CREATE TABLE actions (game_id VARCHAR(32) NOT NULL, ply INTEGER NOT NULL, text VARCHAR(64) NOT NULL,"
    " PRIMARY KEY (game_id, ply), FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE)",
    "INSERT INTO frontlines_meta (\"key\", value) VALUES ('schema', '2')",
]


def engine_for(url: str):  # type: ignore[no-untyped-def]
    return create_engine(normalise_url(url))


def schema_drift(url: str) -> list[object]:
    """What differs between the database's tables and the models (empty: they agree)."""
    engine = engine_for(url)
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}),
                                         Base.metadata))
    finally:
        engine.dispose()


def set_revision(url: str, revision: str) -> None:
    engine = engine_for(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    engine.dispose()


def db(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["db", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_newest_revision_is_what_the_models_say(db_url: str) -> None:
    Store(db_url).close()
    assert schema_drift(db_url) == []
    found = migrations.status(engine_for(db_url))
    assert found.state == "current" and found.current == migrations.heads()


def test_a_database_from_before_migrations_keeps_its_games(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    setup = new_state(RULESET, seed=3).to_notation()
    engine = engine_for(db_url)
    with engine.begin() as conn:
        for statement in BEFORE_MIGRATIONS:
            conn.execute(text(statement))
        conn.execute(text(
            "INSERT INTO games VALUES ('oldgame', :rs, '{}', :setup, :h0, '', '', 'Ann', 'easy', 'bot:easy', 1,"
            " 'active', '*', '', '', NULL, 2, 1.0, 2.0)"), {"rs": RULESET, "setup": setup, "h0": digest("t" * 32)})
        conn.execute(text("INSERT INTO actions VALUES ('oldgame', 1, 'first'), ('oldgame', 2, 'second')"))
    engine.dispose()
    code, out, _ = db(capsys, "current", "--database", db_url)
    assert code == 1 and "from before migrations" in out

    code, out, err = db(capsys, "upgrade", "--database", db_url)
    assert code == 0 and err == "" and "was from before migrations" in out and "the newest" in out
    assert schema_drift(db_url) == []
    store = Store(db_url, upgrade=False)  # at the newest revision: opened without migrating
    try:
        game = store.load("oldgame")
        assert game is not None and game.actions == ["first", "second"] and game.setup == setup
        assert game.seat_hashes == (digest("t" * 32), "") and game.names == ("Ann", "easy") and game.bot_seat == 1
    finally:
        store.close()
    code, out, _ = db(capsys, "upgrade", "--database", db_url)
    assert code == 0 and "already at revision" in out
    code, out, _ = db(capsys, "current", "--database", db_url)
    assert code == 0 and f"at revision {migrations.heads()[0]}, the newest" in out


def test_a_store_that_may_not_migrate_refuses_an_old_schema(db_url: str) -> None:
    with pytest.raises(DatabaseError, match=r"empty.*frontlines db upgrade"):
        Store(db_url, upgrade=False)
    Store(db_url).close()
    Store(db_url, upgrade=False).close()


def test_a_schema_newer_than_the_code_is_left_alone(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    Store(db_url).close()
    set_revision(db_url, "9999future")
    for upgrade in (True, False):
        with pytest.raises(DatabaseError, match="9999future, which this version of frontlines does not know"):
            Store(db_url, upgrade=upgrade)
    code, _, err = db(capsys, "upgrade", "--database", db_url)
    assert code == 2 and "does not know" in err and "nothing was changed" in err and err.count("\n") == 1
    code, out, _ = db(capsys, "current", "--database", db_url)
    assert code == 1 and "9999future" in out
    engine = engine_for(db_url)
    with engine.connect() as conn:
        assert conn.scalar(text("SELECT version_num FROM alembic_version")) == "9999future"
    engine.dispose()


@pytest.mark.postgres
def test_upgrades_at_once_from_several_processes_apply_once(pg_server: str) -> None:
    """Every process of a deploy may run `frontlines db upgrade`: the advisory lock lines them up."""
    from conftest import _fresh_pg_database

    url = _fresh_pg_database(pg_server)
    results: list[tuple[migrations.Status, migrations.Status]] = []
    errors: list[BaseException] = []

    def upgrade() -> None:
        try:
            results.append(migrations.upgrade(url))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=upgrade) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)  # soon; four migrations in a row on a loaded machine take a while
    assert errors == [] and len(results) == 4
    assert sorted(before.state for before, _ in results) == ["current"] * 3 + ["empty"]
    assert all(after.state == "current" for _, after in results)
    assert schema_drift(url) == []


def test_a_failed_migration_leaves_a_sqlite_file_as_it_was(sqlite_url: str) -> None:
    """Python's sqlite3 commits before DDL on its own; the migrating engine makes DDL transactional."""
    from sqlalchemy import inspect

    from frontlines.web.database import open_engine

    engine = open_engine(sqlite_url, migrating=True)
    with pytest.raises(RuntimeError), engine.begin() as conn:
        conn.execute(text("CREATE TABLE halfway (x INTEGER)"))
        raise RuntimeError("the migration fails after its first step")
    assert inspect(engine).get_table_names() == []
    engine.dispose()


def test_downgrade_and_upgrade_again_keep_the_games(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`frontlines db downgrade REV` for going back to an older release: what later revisions
    added goes, the games stay, and `db upgrade` brings the schema back to what the models say."""
    from sqlalchemy import inspect

    Store(db_url).close()
    engine = engine_for(db_url)
    with engine.begin() as conn:
        # The columns of revision 0001, named: later revisions add columns of their own.
        conn.execute(text(
            "INSERT INTO games (id, ruleset, options, setup, seat_hash0, seat_hash1, invite_hash, name0, name1,"
            " opponent, bot_seat, status, result, reason, termination, loser, plies, created, updated)"
            " VALUES ('kept', :rs, '{}', 'setup', 'h0', '', '', 'Ann', 'Bob', 'friend', NULL,"
            " 'active', '*', '', '', NULL, 1, 1.0, 2.0)"), {"rs": RULESET})
        conn.execute(text("INSERT INTO actions (game_id, ply, text) VALUES ('kept', 1, 'first')"))
    newest = migrations.heads()[0]
    code, out, err = db(capsys, "downgrade", "0001", "--database", db_url)
    assert (code, err) == (0, "") and f"was at revision {newest}, the newest; now at revision 0001, older" in out
    assert not {"bot_leases", "clocks", "accounts", "ratings"} & set(inspect(engine).get_table_names())
    code, out, _ = db(capsys, "current", "--database", db_url)
    assert code == 1 and "at revision 0001" in out
    with pytest.raises(DatabaseError, match="at revision 0001, older"):
        Store(db_url, upgrade=False)
    code, out, _ = db(capsys, "downgrade", "0001", "--database", db_url)
    assert code == 0 and "already at revision 0001" in out
    # Going back to nothing would take the games with it: refused, and nothing changes.
    code, _, err = db(capsys, "downgrade", "base", "--database", db_url)
    assert code == 2 and "the 1 games in them; nothing was changed" in err and err.count("\n") == 1
    code, out, err = db(capsys, "upgrade", "--database", db_url)
    assert (code, err) == (0, "") and "was at revision 0001" in out and f"now at revision {newest}, the newest" in out
    assert schema_drift(db_url) == []
    store = Store(db_url, upgrade=False)
    try:
        game = store.load("kept")
        assert game is not None and game.actions == ["first"] and game.names == ("Ann", "Bob")
        assert game.guest_seat == 1  # revision 0003 told the invited seat from the tokens
    finally:
        store.close()
    engine.dispose()


def test_an_empty_database_goes_back_to_base_and_up_again(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    Store(db_url).close()
    code, out, _ = db(capsys, "downgrade", "base", "--database", db_url)
    assert code == 0 and "now empty" in out
    code, out, _ = db(capsys, "upgrade", "--database", db_url)
    assert code == 0 and "was empty" in out
    assert schema_drift(db_url) == []


@pytest.mark.parametrize(("args", "words"), [
    (["downgrade"], "needs the revision to go back to"),
    (["downgrade", "0042"], "no revision '0042'"),
    (["upgrade", "0001"], "takes no revision"),
])
def test_bad_downgrades_are_one_line(sqlite_url: str, capsys: pytest.CaptureFixture[str], args: list[str],
                                     words: str) -> None:
    Store(sqlite_url).close()
    code, out, err = db(capsys, *args, "--database", sqlite_url)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1


def test_downgrade_refuses_to_go_forward_or_from_nothing(sqlite_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = db(capsys, "downgrade", "0001", "--database", sqlite_url)
    assert code == 2 and "nothing to go back from" in err
    Store(sqlite_url).close()
    assert db(capsys, "downgrade", "0001", "--database", sqlite_url)[0] == 0
    code, _, err = db(capsys, "downgrade", "0002", "--database", sqlite_url)
    assert code == 2 and "newer than the database's 0001" in err and "db upgrade" in err
    set_revision(sqlite_url, "9999future")
    code, _, err = db(capsys, "downgrade", "0001", "--database", sqlite_url)
    assert code == 2 and "does not know" in err and "nothing was changed" in err
