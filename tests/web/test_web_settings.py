"""The app's settings: ``frontlines serve`` options and ``FRONTLINES_<OPTION>`` variables agree,
for ``frontlines serve`` and for ``uvicorn frontlines.web.app:app_from_env --factory``."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from frontlines.commands import serve
from frontlines.web import settings as web_settings
from frontlines.web.app import app_from_env

# Where the server listens, not how the app behaves: uvicorn's own options under --factory.
SERVER_ONLY = {"host", "port", "log_level", "ws_compression", "header_timeout"}


def serve_parser(environ: dict[str, str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="frontlines serve")
    serve.add_arguments(parser)
    web_settings.use_environment(parser, environ)  # as add_arguments does with os.environ
    return parser


def options() -> list[argparse.Action]:
    return [a for a in serve_parser({})._actions if a.dest != "help"]


def a_value(action: argparse.Action) -> str:
    """A value unlike the default for each kind of option."""
    if isinstance(action, argparse._StoreTrueAction):
        return "1"
    if action.dest == "database":
        return "sqlite:////tmp/elsewhere.db"
    if action.dest == "allowed_origins":
        return "https://club.example"
    if action.choices:
        return next(str(c) for c in action.choices if c != action.default)
    seconds = (float, serve._seconds)  # --header-timeout's own conversion refuses 0 and below
    return "2.5" if action.type in seconds else {int: "7"}.get(action.type, "debug")  # type: ignore[call-overload]


@pytest.mark.parametrize("action", options(), ids=lambda a: a.dest)
def test_every_serve_option_can_come_from_the_environment(action: argparse.Action) -> None:
    value = a_value(action)
    name = web_settings.env_name(action.option_strings[0])
    flag = isinstance(action, argparse._StoreTrueAction)
    on_the_line = serve_parser({}).parse_args([action.option_strings[0]] if flag else [action.option_strings[0], value])
    from_env = serve_parser({name: value}).parse_args([])
    assert vars(from_env) == vars(on_the_line) != vars(serve_parser({}).parse_args([]))
    if action.dest not in SERVER_ONLY:
        # ... and the app the uvicorn factory builds gets the same settings as `serve` would
        assert web_settings.from_environment({name: value}) == web_settings.from_args(on_the_line)
        assert web_settings.from_environment({name: value}) != web_settings.from_environment({})


def test_the_command_line_wins_and_a_wrong_value_names_its_variable(tmp_path: Path) -> None:
    parser = serve_parser({"FRONTLINES_BOT_LEASE": "4", "FRONTLINES_SEEDED_DEALS": "no"})
    assert parser.parse_args(["--bot-lease", "6"]).bot_lease == 6.0
    assert parser.parse_args([]).seeded_deals is False
    with pytest.raises(ValueError, match=r"invalid value 'soon' .*FRONTLINES_BOT_LEASE"):
        web_settings.from_environment({"FRONTLINES_BOT_LEASE": "soon"})
    with pytest.raises(ValueError, match="FRONTLINES_SEEDED_DEALS"):
        web_settings.from_environment({"FRONTLINES_SEEDED_DEALS": "perhaps"})
    done = subprocess.run([sys.executable, "-m", "frontlines.cli", "serve"], capture_output=True, text=True,
                          timeout=120, env={"FRONTLINES_MAX_SPECTATORS": "many", "PATH": "/usr/bin:/bin"},
                          cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "argument --max-spectators: invalid value 'many' (from the command line or FRONTLINES_MAX_SPECTATORS)" \
        in done.stderr


def test_the_uvicorn_factory_builds_the_app_serve_would(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'env.db'}"
    for name, value in {"FRONTLINES_DATABASE": url, "FRONTLINES_BOT_THREADS": "1", "FRONTLINES_SEEDED_DEALS": "1",
                        "FRONTLINES_NEW_GAMES_PER_MINUTE": "1", "FRONTLINES_BOT_LEASE": "3",
                        "FRONTLINES_MAX_SPECTATORS": "5"}.items():
        monkeypatch.setenv(name, value)
    app = app_from_env()
    cfg = app.state.settings
    assert (cfg.database, cfg.bot_executor, cfg.seeded_deals, cfg.bot_lease) == (url, "thread", True, 3.0)
    assert cfg.limits.spectators_per_game == 5 and cfg.upgrade_database  # SQLite migrates itself, as with serve
    with TestClient(app) as client:
        body = {"ruleset": "battleline-basic", "opponent": "bot:random", "seat": "0", "seed": 5}
        first = client.post("/api/games", json=body)
        assert first.status_code == 200, first.text  # a seed is taken: seeded deals are on
        assert client.post("/api/games", json=body).status_code == 429  # one game a minute
    monkeypatch.setenv("FRONTLINES_DATABASE", "postgresql://nobody@127.0.0.1:1/none")
    # PostgreSQL is migrated by `frontlines db upgrade`, never by a starting process
    assert web_settings.from_environment().upgrade_database is False


@pytest.mark.postgres
def test_the_pool_sizes_reach_the_stores_engine(pg_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """FRONTLINES_DB_POOL_SIZE and the others size the PostgreSQL engine the app's store uses."""
    from conftest import _fresh_pg_database
    from frontlines.web.store import Store

    url = _fresh_pg_database(pg_server)
    Store(url).close()  # the schema (`frontlines db upgrade`)
    for name, value in {"FRONTLINES_DATABASE": url, "FRONTLINES_BOT_THREADS": "1", "FRONTLINES_DB_POOL_SIZE": "1",
                        "FRONTLINES_DB_MAX_OVERFLOW": "2", "FRONTLINES_DB_POOL_TIMEOUT": "7.5"}.items():
        monkeypatch.setenv(name, value)
    with TestClient(app_from_env()) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        pool = manager.store.engine.pool
        assert (pool.size(), pool._max_overflow, pool.timeout()) == (1, 2, 7.5)
        # No more threads waiting on the database than the pool can serve at once.
        assert manager.db_executor._max_workers == 3
        assert client.get("/api/games").status_code == 200


@pytest.mark.postgres
def test_a_full_pool_makes_a_request_wait_its_timeout_and_fail(pg_server: str) -> None:
    """What the three numbers mean: one connection kept and one more at most; a third request,
    while both are held, fails after the pool timeout; once one is back it is served."""
    import sqlalchemy.exc

    from conftest import _fresh_pg_database
    from frontlines.web.database import Pool
    from frontlines.web.store import Store

    store = Store(_fresh_pg_database(pg_server), pool=Pool(size=1, overflow=1, timeout=0.2))  # nothing else uses this engine
    try:
        held = [store.engine.connect(), store.engine.connect()]
        with pytest.raises(sqlalchemy.exc.TimeoutError):
            store.engine.connect()
        held.pop().close()
        held.append(store.engine.connect())
        for conn in held:
            conn.close()
    finally:
        store.close()


def test_a_pool_that_cannot_serve_is_refused() -> None:
    from frontlines.web.database import DatabaseError, Pool

    assert Pool().most == 15  # SQLAlchemy's defaults: 5 kept, 10 more under load
    for bad in ({"size": 0}, {"overflow": -1}, {"timeout": 0.0}):
        with pytest.raises(DatabaseError, match="a connection pool needs"):
            Pool(**bad)  # type: ignore[arg-type]


def test_allowed_origins_are_origins() -> None:
    assert web_settings.from_environment(
        {"FRONTLINES_ALLOWED_ORIGINS": "https://a.example,  http://b.example:8080"}).allowed_origins == \
        "https://a.example http://b.example:8080"
    for wrong in ("a.example", "https://a.example/path", "ftp://a.example", "https://user@a.example"):
        with pytest.raises(ValueError, match="FRONTLINES_ALLOWED_ORIGINS"):
            web_settings.from_environment({"FRONTLINES_ALLOWED_ORIGINS": wrong})
