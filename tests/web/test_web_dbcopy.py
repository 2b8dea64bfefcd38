"""`frontlines db copy`: an operator's games move from the embedded SQLite file to
PostgreSQL (or between any two databases) and a server there carries on with them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select, text
from test_web_api import RULESET, create
from webhelpers import make_client

from frontlines.cli import main
from frontlines.web import dbcopy
from frontlines.web.database import normalise_url
from frontlines.web.store import GameRow


def db(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["db", *args])
    out, err = capsys.readouterr()
    return code, out, err


def copied(out: str) -> dict[str, int]:
    """The rows copied per table, from copy's line 'copied games: 3, actions: 12, ... from ...'."""
    counts = out.removeprefix("copied ").split(" from ")[0].split(", ")
    return {table: int(n) for table, n in (c.split(": ") for c in counts)}


def move(client: TestClient, game_id: str, token: str, rng: random.Random) -> dict[str, Any]:
    """One random legal move of the seat ``token`` holds, which must be to move."""
    view = client.get(f"/api/games/{game_id}", params={"t": token}).json()
    legal = view["view"]["legal"]
    assert legal, view
    r = client.post(f"/api/games/{game_id}/action",
                    json={"t": token, "text": rng.choice(legal)["text"], "ply": view["ply"]})
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def my_turn(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    """The seat's view once it is to move: waits for the bot's move by the socket's messages."""
    with client.websocket_connect(f"/ws/{game_id}?t={token}") as ws:
        while True:
            msg: dict[str, Any] = ws.receive_json()
            if msg["type"] == "view" and (msg["view"]["legal"] or msg["status"] != "active"):
                return msg


def my_whole_turn(client: TestClient, game: dict[str, Any], rng: random.Random) -> int:
    """Random moves for the seat while it is to move (a turn may be a card and a draw); the ply then."""
    while True:
        view = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
        if not view["view"]["legal"]:
            ply: int = view["ply"]
            return ply
        move(client, game["id"], game["token"], rng)


def pass_and_play(client: TestClient, game: dict[str, Any], moves: int, rng: random.Random) -> None:
    tokens = {game["seat"]: game["token"], 1 - game["seat"]: game["friend_token"]}
    for _ in range(moves):
        to_move = client.get(f"/api/games/{game['id']}").json()["view"]["to_move"]
        move(client, game["id"], tokens[to_move], rng)


def everything(client: TestClient, games: list[dict[str, Any]]) -> dict[str, Any]:
    """What a server answers about the games: the list, each seat's view, the records."""
    ids = {game["id"] for game in games}
    seen: dict[str, Any] = {"list": sorted((g["id"], g["status"], g["plies"], tuple(g["names"]))
                                           for g in client.get("/api/games").json() if g["id"] in ids)}
    for game in games:
        gid = game["id"]
        for key in ("token", "friend_token"):
            if key in game:
                seen[f"{gid} {key}"] = client.get(f"/api/games/{gid}", params={"t": game[key]}).json()
        seen[f"{gid} record"] = client.get(f"/api/games/{gid}/record.txt").text
    return seen


@pytest.mark.postgres
def test_games_move_from_sqlite_to_postgresql_and_go_on(sqlite_url: str, pg_server: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from conftest import _fresh_pg_database

    target = _fresh_pg_database(pg_server)
    rng = random.Random(8)
    # The SQLite server: a finished game, a game between two people in progress, and a game
    # whose bot was to move when the server stopped (it thinks for an hour: it never moves here).
    with make_client(sqlite_url) as c:
        finished = create(c)
        pass_and_play(c, finished, 5, rng)
        r = c.post(f"/api/games/{finished['id']}/action", json={"t": finished["friend_token"], "type": "resign"})
        assert r.status_code == 200 and r.json()["status"] == "finished"
        live = create(c, seat=1)
        pass_and_play(c, live, 7, rng)
        before = everything(c, [finished, live])
    with make_client(sqlite_url, bot_delay=3600.0) as c:
        bot = create(c, opponent="bot:random", seat=1, seed=5)
        due = my_whole_turn(c, bot, rng)  # if the deal had us begin
        # An account, logged in, holding a seat of a game of its own.
        made = c.post("/api/account/signup", json={"username": "Ann", "password": "Correct-Horse-7"}).json()
        held = c.post("/api/games", json={"ruleset": RULESET, "opponent": "friend"},
                      headers={"X-CSRF-Token": made["csrf"]}).json()
        session = c.cookies["frontlines_session"]

    code, out, err = db(capsys, "copy", "--from", sqlite_url, "--to", target, "--batch", "3")
    assert (code, err) == (0, "")
    assert out.startswith(f"copied games: 4, actions: {12 + due}, bot_leases: 0, ") and out.count("\n") == 1
    assert " from sqlite:///" in out
    counts = copied(out)
    assert (counts["clocks"], counts["rematches"], counts["accounts"], counts["sessions"], counts["ratings"]) \
        == (0, 0, 1, 1, 0)

    with make_client(target) as c:
        # The account goes on: its session, its game, its password; and a new account gets an
        # id of its own (the copied ids moved PostgreSQL's sequence on).
        c.cookies["frontlines_session"] = session
        assert [g["id"] for g in c.get("/api/account/games").json()] == [held["id"]]
        c.cookies.clear()
        assert c.post("/api/account/login", json={"username": "Ann", "password": "Correct-Horse-7"}).status_code == 200
        c.cookies.clear()
        assert c.post("/api/account/signup", json={"username": "Bob", "password": "Correct-Horse-7"}).status_code == 200

    with make_client(target) as c:
        c.cookies.clear()
        assert everything(c, [finished, live]) == before
        assert len(before["list"]) == 2 and len(c.get("/api/games").json()) == 4
        # The game between people goes on from where it stood, with the same seat links.
        pass_and_play(c, live, 2, rng)
        assert c.get(f"/api/games/{live['id']}").json()["ply"] == 9
        # The bot's turn is played by the server on PostgreSQL, and the game goes on.
        view = my_turn(c, bot["id"], bot["token"])
        assert view["ply"] > due and view["role"] == 1
        mine = my_whole_turn(c, bot, rng)
        again = my_turn(c, bot["id"], bot["token"])["ply"]
        assert again > mine > view["ply"]
        assert c.post(f"/api/games/{bot['id']}/action",
                      json={"t": bot["token"], "type": "resign"}).json()["status"] == "finished"
        assert len(c.get(f"/api/games/{bot['id']}/record.json").json()["actions"]) == again


def stored_games(url: str) -> int:
    engine = create_engine(normalise_url(url))
    try:
        with engine.connect() as conn:
            return int(conn.scalar(select(func.count()).select_from(GameRow)) or 0)
    finally:
        engine.dispose()


def a_database_with_games(url: str, n: int) -> None:
    with make_client(url) as c:
        for _ in range(n):
            create(c)


def test_a_target_with_games_is_refused_unless_appending(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    a_database_with_games(source, 3)
    a_database_with_games(target, 2)
    code, out, err = db(capsys, "copy", "--from", source, "--to", target)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "is not empty (games: 2)" in err and "--append" in err
    assert stored_games(target) == 2
    code, out, err = db(capsys, "copy", "--from", source, "--to", target, "--append", "--batch", "1")
    assert (code, err) == (0, "") and out.startswith("copied games: 3, actions: 0, bot_leases: 0, ")
    assert copied(out)["clocks"] == copied(out)["rematches"] == copied(out)["accounts"] == 0
    assert stored_games(target) == 5
    # Once more: every game is there already; the copy stops and writes nothing.
    code, out, err = db(capsys, "copy", "--from", source, "--to", target, "--append")
    assert code == 2 and "cannot copy into the target database" in err and err.count("\n") == 1
    assert stored_games(target) == 5


def test_an_empty_target_gets_the_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'new.db'}"
    a_database_with_games(source, 1)
    code, out, _ = db(capsys, "copy", "--from", source, "--to", target)
    assert code == 0 and out.startswith("copied games: 1, ")
    code, out, _ = db(capsys, "current", "--database", target)
    assert code == 0 and "the newest" in out


@pytest.mark.parametrize(("args", "words"), [
    (["--from", "mysql://x/y", "--to", "sqlite:///{tmp}/b.db"], "unsupported database 'mysql'"),
    (["--from", "sqlite:///{tmp}/a.db", "--to", "nonsense"], "not a database URL"),
    (["--from", "sqlite:///{tmp}/a.db"], "needs --to URL"),
    (["--from", "sqlite:///{tmp}/a.db", "--to", "sqlite:///{tmp}/./a.db"], "are the same database"),
    (["--from", "sqlite:///{tmp}/a.db", "--to", "sqlite:///{tmp}/no/such/dir/b.db"], "cannot open the SQLite database"),
    (["--from", "sqlite:///{tmp}/a.db", "--to", "sqlite:///{tmp}/b.db", "--batch", "0"], "at least 1"),
])
def test_bad_copies_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                 words: str) -> None:
    a_database_with_games(f"sqlite:///{tmp_path / 'a.db'}", 1)
    code, out, err = db(capsys, "copy", *(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert code == 2 and out == "" and words in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_source_behind_the_code_is_refused_and_left_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = f"sqlite:///{tmp_path / 'old.db'}"
    a_database_with_games(source, 1)
    engine = create_engine(normalise_url(source))
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE bot_leases"))
        conn.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    engine.dispose()
    code, _, err = db(capsys, "copy", "--from", source, "--to", f"sqlite:///{tmp_path / 'b.db'}")
    assert code == 2 and "at revision 0001, older" in err and "frontlines db upgrade --database sqlite:///" in err
    assert not (tmp_path / "b.db").exists() or stored_games(f"sqlite:///{tmp_path / 'b.db'}") == 0


def test_a_sqlite_source_a_server_holds_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Its server could write in the middle of the copy: stop it first."""
    import subprocess
    import sys

    source = f"sqlite:///{tmp_path / 'a.db'}"
    a_database_with_games(source, 1)
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys; from frontlines.web.database import lock_sqlite; lock_sqlite(sys.argv[1]); "
        "print('held', flush=True); sys.stdin.read()"), source], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        code, _, err = db(capsys, "copy", "--from", source, "--to", f"sqlite:///{tmp_path / 'b.db'}")
        assert code == 2 and "in use by another frontlines process" in err
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=60)


def test_every_table_of_the_store_is_copied() -> None:
    """A table added by a later revision is copied too, unless the migrations write it."""
    from frontlines.web.store import Base

    names = [t.name for t in dbcopy.tables()]
    assert set(names) == set(Base.metadata.tables) - dbcopy.MIGRATION_TABLES - dbcopy.PASSING_TABLES == {
        "games", "actions", "bot_leases", "clocks", "rematches", "accounts", "recovery_codes", "sessions",
        "auth_limits", "ratings", "rating_changes"}
    assert names.index("games") < names.index("actions") and names.index("games") < names.index("bot_leases")
    assert names.index("games") < names.index("clocks")
    for child in ("recovery_codes", "sessions", "ratings", "rating_changes"):
        assert names.index("accounts") < names.index(child)
    assert names.index("games") < names.index("rating_changes")
