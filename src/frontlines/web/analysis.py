"""Reviews of finished games for the replay page's win-chance graph.

A review judges every decision of a game where the mover had a choice
(``bots.analysis``): the mover's win chance before and after its move, the move the
search prefers, mistakes and blunders. The work goes to the bot workers one decision at a
time (``Bots.review``: off the event loop, in the worker processes that play the bots'
moves, so a review waits its turn between live games' moves rather than holding them up),
at most ``running`` games at once per server process; each review is kept (the last
``keep`` games) and later requests read it. The first request starts a review and answers
at once with its progress; the page asks again until it is done.

The cost is bounded: ``DEALS`` deals and ``WIDTH`` candidates a decision (a basic game of
some 45 decisions is some ten seconds of one core in pure Python), one game after the other.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from frontlines.bots.analysis import BLUNDER, MISTAKE, MoveReview, decisions, summarise
from frontlines.core.record import GameRecord
from frontlines.games import parse_state
from frontlines.web.workers import Bots

log = logging.getLogger("frontlines.web")

DEALS = 16  # sampled deals per decision: fewer than the command line's 24, for a server's budget
WIDTH = 4  # the heuristic's best moves judged beside the move played


@dataclass
class Review:
    """One game's review, done or under way."""

    total: int
    moves: list[dict[str, Any]] = field(default_factory=list)
    status: str = "queued"  # queued, running, ready, failed
    task: asyncio.Task[None] | None = None

    def answer(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "done": len(self.moves), "total": self.total,
                               "mistake": MISTAKE, "blunder": BLUNDER}
        if self.status == "ready":
            reviews = [MoveReview(**m) for m in self.moves]
            out["moves"] = self.moves
            out["summary"] = summarise(reviews).to_dict()
        return out


class Reviews:
    """The reviews of one server process (see the module text)."""

    def __init__(self, bots: Bots, *, running: int = 1, keep: int = 64) -> None:
        self.bots = bots
        self.keep = keep
        self._slots = asyncio.Semaphore(running)
        self._reviews: OrderedDict[str, Review] = OrderedDict()

    def status(self, game_id: str, record: GameRecord) -> dict[str, Any]:
        """The review of the finished game ``game_id`` (whose record is ``record``): started
        by the first call, its progress until it is ready."""
        review = self._reviews.get(game_id)
        if review is None or review.status == "failed":
            todo = list(decisions(record, parse_state))
            review = Review(len(todo))
            review.task = asyncio.get_running_loop().create_task(self._run(review, todo))
            self._reviews[game_id] = review
            self._forget_old()
        self._reviews.move_to_end(game_id)
        return review.answer()

    def _forget_old(self) -> None:
        while len(self._reviews) > self.keep:
            for game_id, review in self._reviews.items():
                if review.status in ("ready", "failed"):  # a review under way is kept until it ends
                    del self._reviews[game_id]
                    break
            else:
                return

    async def _run(self, review: Review, todo: list[Any]) -> None:
        async with self._slots:
            review.status = "running"
            try:
                for index, view, played in todo:
                    review.moves.append(await self.bots.review(
                        view, view.action_to_text(played), index, deals=DEALS, width=WIDTH, seed=0))
            except Exception:
                log.exception("a game review failed")
                review.status = "failed"
                return
            review.status = "ready"

    async def close(self) -> None:
        for review in self._reviews.values():
            if review.task is not None and not review.task.done():
                review.task.cancel()
                with contextlib.suppress(BaseException):
                    await review.task
