"""Fixtures for the web tests: databases (SQLite file, throwaway PostgreSQL) and app clients."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from webhelpers import LiveServer, free_port, make_client


def _pg_bin() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1]) if found else None


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A PostgreSQL server URL: FRONTLINES_PG_URL, or a throwaway cluster (initdb + pg_ctl)."""
    given = os.environ.get("FRONTLINES_PG_URL")
    if given:
        yield given
        return
    bindir = _pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL binaries not installed")
    root = Path(tempfile.mkdtemp(prefix="frontlines-pg-"))
    data = root / "data"
    port = free_port()
    # initdb refuses to run as root; run the cluster as the postgres user then.
    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser")
        prefix = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
        root.chmod(0o700)
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    subprocess.run([*prefix, f"{bindir}/initdb", "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8"],
                   check=True, capture_output=True, env=env)
    subprocess.run([*prefix, f"{bindir}/pg_ctl", "-D", str(data), "-l", str(root / "log"), "-w", "-o",
                    f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off", "start"],
                   check=True, capture_output=True, env=env)
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, f"{bindir}/pg_ctl", "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True, env=env)
        shutil.rmtree(root, ignore_errors=True)


def _fresh_pg_database(server: str) -> str:
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return server.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each test gets an empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'web.db'}"
    server = request.getfixturevalue("pg_server")
    return _fresh_pg_database(server)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make_client(db_url) as c:
        yield c


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{tmp_path / 'e2e.db'}") as server:
        yield server


@pytest.fixture
def shots(artifacts: Path) -> Path:
    """The folder a browser test's screenshots go to: web/ in the suite's artifacts folder
    (temporary unless FRONTLINES_ARTIFACTS=1: tests/conftest.py)."""
    folder = artifacts / "web"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
