"""The review of a finished game (/api/games/{id}/analysis, web/analysis.py)."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_api import create
from webhelpers import make_client

import frontlines.web.analysis as analysis
from frontlines.bots.analysis import REVIEW_PARAMS, MoveReview, review_decision
from frontlines.games import new_state
from frontlines.web.workers import make_bots


def _finish_by_resigning(client: TestClient, game: dict[str, Any], moves: int) -> None:
    """Play ``moves`` random legal actions with whoever is to move (a friend game: both seats
    are ours), then seat 0 resigns."""
    rng = random.Random(3)
    tokens = (game["token"], game["friend_token"])
    for _ in range(moves):
        for token in tokens:
            msg = client.get(f"/api/games/{game['id']}", params={"t": token}).json()
            if msg["view"]["legal"]:
                r = client.post(f"/api/games/{game['id']}/action",
                                json={"t": token, "text": rng.choice(msg["view"]["legal"])["text"], "ply": msg["ply"]})
                assert r.status_code == 200, r.text
                break
    r = client.post(f"/api/games/{game['id']}/action", json={"t": tokens[0], "type": "resign"})
    assert r.status_code == 200, r.text


def _wait_ready(client: TestClient, gid: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        answer: dict[str, Any] = client.get(f"/api/games/{gid}/analysis").json()
        assert answer["status"] in ("queued", "running", "ready"), answer
        if answer["status"] == "ready":
            return answer
        assert time.monotonic() < deadline, answer
        time.sleep(0.05)


def test_a_finished_game_is_reviewed_once_and_kept(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "DEALS", 2)
    monkeypatch.setattr(analysis, "WIDTH", 2)
    with make_client(sqlite_url) as client:
        game = create(client)
        assert client.get(f"/api/games/{game['id']}/analysis").status_code == 403  # not before the end
        _finish_by_resigning(client, game, 12)
        first = client.get(f"/api/games/{game['id']}/analysis").json()
        assert first["status"] in ("queued", "running", "ready") and first["total"] >= 3
        answer = _wait_ready(client, game["id"])
        moves = answer["moves"]
        assert len(moves) == answer["total"] == answer["done"] and set(moves[0]) == set(MoveReview.__dataclass_fields__)
        assert [m["index"] for m in moves] == sorted(m["index"] for m in moves)
        for m in moves:
            assert 0.0 <= m["after"] <= m["before"] <= 1.0 and m["player"] in (0, 1)
        assert sum(answer["summary"]["decisions"]) == len(moves)
        assert answer["mistake"] == analysis.MISTAKE and answer["blunder"] == analysis.BLUNDER
        reviews: analysis.Reviews = client.app.state.reviews  # type: ignore[attr-defined]
        calls: list[int] = []
        real = reviews.bots.review

        async def counting(*args: Any, **kwargs: Any) -> dict[str, Any]:
            calls.append(1)
            return await real(*args, **kwargs)

        monkeypatch.setattr(reviews.bots, "review", counting)
        assert client.get(f"/api/games/{game['id']}/analysis").json() == answer  # kept: no work again
        assert calls == []


def test_unknown_games_have_no_review(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        assert client.get("/api/games/nosuchgame/analysis").status_code == 404


@pytest.mark.parametrize("kind", ["process", "thread"])
def test_bot_workers_review_a_move_as_the_command_line_does(kind: str) -> None:
    state = new_state("battleline-basic", seed=5)
    seat = state.current_player()
    assert seat is not None
    view = state.view(seat)
    played = view.legal_actions()[7]
    expected = review_decision(view, played, 0, replace(REVIEW_PARAMS, deals=2, width=2), 4).to_dict()

    async def main() -> dict[str, Any]:
        bots = make_bots(kind, 1, timeout=60)
        await bots.start()
        try:
            return await bots.review(view, view.action_to_text(played), 0, deals=2, width=2, seed=4)
        finally:
            await bots.close()

    assert asyncio.run(main()) == expected
