"""Ratings for people: one Glicko-2 rating (:mod:`frontlines.web.glicko2`) per account and
ruleset, changed by every rated game when it ends.

**Which games.** A game is rated when its creator asked for it (``"rated": true``) and both
seats are held by two different accounts: never against a bot, never in pass and play
(:meth:`frontlines.web.play.table.Table.create` and :func:`frontlines.web.invites.claim`
refuse the rest). Only a finished game counts (by the rules, a resignation, a forfeit, a
loss on time); an abandoned one does not.

**Exactly once.** :class:`RatingHook` is a write hook of the table
(:meth:`~frontlines.web.play.table.Table.add_hook`): when a write ends a rated game (the
move that ends it, or an ``end`` write: a resignation, a forfeit, a flag), it writes both
players' new ratings *in that write's transaction*. The table stores an ending only once
(its ply guard), whichever process stores it, so the ratings change once, with the result,
or not at all if the ending is rolled back; a row per game and player in
``rating_changes`` (its primary key) says it was done. Both rating rows are locked in the
order of their account ids (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite has one writer),
so two games that end at once for the same player both count.

**One game, one rating period.** Each player is rated against the other's rating before the
game; before that, a deviation grows with the weeks since the player's last rated game
(:func:`frontlines.web.glicko2.age`). A rating is provisional while its deviation is over
110 (:func:`frontlines.web.glicko2.provisional`); the leaderboard ranks only established
ratings and lists provisional ones after them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session, sessionmaker

from frontlines.web import glicko2
from frontlines.web.glicko2 import Rating
from frontlines.web.play.manager import Manager
from frontlines.web.play.table import Write
from frontlines.web.store import AccountRow, GameRow, RatingChangeRow, RatingRow, Store

DAY = 86400.0
# A result as stored, as the first seat's score.
SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def _current(row: RatingRow | None, now: float) -> Rating:
    """A stored rating as of ``now`` (its deviation grown since its last game)."""
    if row is None or row.games == 0:
        return Rating()
    return glicko2.age(Rating(row.rating, row.deviation, row.volatility), (now - row.last) / DAY)


def record_game(s: Session, *, game_id: str, ruleset: str, accounts: tuple[int, int], score: float,
                now: float) -> tuple[tuple[Rating, Rating], tuple[Rating, Rating]] | None:
    """Rate a finished game between ``accounts`` (``score``: the first seat's), in the
    caller's transaction; answer both ratings before and after (None: rated already)."""
    if s.scalar(select(func.count()).select_from(RatingChangeRow).where(RatingChangeRow.game_id == game_id)):
        return None
    insert = pg_insert if s.get_bind().dialect.name == "postgresql" else sqlite_insert
    rows: dict[int, RatingRow] = {}
    for account in sorted(accounts):  # one order for every transaction: no deadlock between two games
        s.execute(insert(RatingRow).values(
            account_id=account, ruleset=ruleset, rating=glicko2.START_RATING, deviation=glicko2.START_DEVIATION,
            volatility=glicko2.START_VOLATILITY, games=0, wins=0, losses=0, draws=0, last=now,
        ).on_conflict_do_nothing(index_elements=[RatingRow.account_id, RatingRow.ruleset]))
        rows[account] = s.execute(select(RatingRow).where(RatingRow.account_id == account,
                                                          RatingRow.ruleset == ruleset).with_for_update()).scalar_one()
    first, second = accounts
    before = (_current(rows[first], now), _current(rows[second], now))
    after = glicko2.game(before[0], before[1], score)
    for account, opponent, was, now_is, points in ((first, second, before[0], after[0], score),
                                                   (second, first, before[1], after[1], 1.0 - score)):
        won, lost = points == 1.0, points == 0.0
        s.execute(update(RatingRow).where(RatingRow.account_id == account, RatingRow.ruleset == ruleset).values(
            rating=now_is.rating, deviation=now_is.deviation, volatility=now_is.volatility,
            games=RatingRow.games + 1, wins=RatingRow.wins + int(won), losses=RatingRow.losses + int(lost),
            draws=RatingRow.draws + int(not won and not lost), last=now))
        s.add(RatingChangeRow(game_id=game_id, account_id=account, ruleset=ruleset, opponent_id=opponent,
                              score=points, at=now, rating_before=was.rating, deviation_before=was.deviation,
                              rating=now_is.rating, deviation=now_is.deviation, volatility=now_is.volatility))
    return before, after


class RatingHook:
    """The table's write hook that rates a rated game as it ends (module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock

    def joins(self, write: Write) -> Callable[[Session], None] | None:
        stored = write.game.stored
        if write.ending is None or write.ending.get("status") != "finished" or not stored.rated:
            return None
        score = SCORES.get(str(write.ending.get("result")))
        if score is None:
            return None
        game_id, ruleset = stored.id, stored.ruleset

        def rate(s: Session) -> None:
            # Who holds the seats is read here, in the ending's transaction, not from this
            # process's copy: the other seat may have been taken through another process a
            # moment ago, and this copy not have heard of it yet.
            first, second = s.execute(select(GameRow.account0, GameRow.account1).where(GameRow.id == game_id)).one()
            if first is not None and second is not None and first != second:
                record_game(s, game_id=game_id, ruleset=ruleset, accounts=(first, second), score=score,
                            now=self.clock())

        return rate

    def committed(self, write: Write) -> None:
        pass


def install(manager: Manager) -> RatingHook:
    """Rate rated games as they end, in the transaction of their ending."""
    hook = RatingHook()
    manager.table.add_hook(hook)
    return hook


# --- reading ratings -----------------------------------------------------------------------
@dataclass(frozen=True)
class Standing:
    """An account's rating in one ruleset as of now."""

    account_id: int
    username: str
    ruleset: str
    rating: float
    deviation: float
    games: int
    wins: int
    losses: int
    draws: int

    @property
    def provisional(self) -> bool:
        return glicko2.provisional(Rating(self.rating, self.deviation))

    def to_dict(self) -> dict[str, Any]:
        return {"username": self.username, "ruleset": self.ruleset, "rating": round(self.rating),
                "deviation": round(self.deviation), "provisional": self.provisional, "games": self.games,
                "wins": self.wins, "losses": self.losses, "draws": self.draws}


class Ratings:
    """Reads for the player page and the leaderboard (on a database thread)."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def _standing(self, row: RatingRow, username: str, now: float) -> Standing:
        current = _current(row, now)
        return Standing(row.account_id, username, row.ruleset, current.rating, current.deviation, row.games,
                        row.wins, row.losses, row.draws)

    def of_account(self, account: int, now: float | None = None) -> list[Standing]:
        now = time.time() if now is None else now
        with self._sessions() as s:
            q = select(RatingRow, AccountRow.username).join(AccountRow, AccountRow.id == RatingRow.account_id)\
                .where(RatingRow.account_id == account, RatingRow.games > 0).order_by(RatingRow.games.desc())
            return [self._standing(row, name, now) for row, name in s.execute(q)]

    def history(self, account: int, ruleset: str, limit: int = 500) -> list[dict[str, Any]]:
        """Each rated game's rating after it, oldest first (the last ``limit``)."""
        with self._sessions() as s:
            rows = list(s.scalars(select(RatingChangeRow).where(
                RatingChangeRow.account_id == account, RatingChangeRow.ruleset == ruleset)
                .order_by(RatingChangeRow.at.desc()).limit(limit)))
        return [{"game_id": r.game_id, "at": r.at, "rating": r.rating, "deviation": r.deviation,
                 "before": r.rating_before, "score": r.score} for r in reversed(rows)]

    def leaderboard(self, ruleset: str, limit: int = 100, now: float | None = None) -> tuple[list[Standing],
                                                                                          list[Standing]]:
        """The established ratings of ``ruleset`` ranked, then the provisional ones."""
        now = time.time() if now is None else now
        with self._sessions() as s:
            q = select(RatingRow, AccountRow.username).join(AccountRow, AccountRow.id == RatingRow.account_id)\
                .where(RatingRow.ruleset == ruleset, RatingRow.games > 0).order_by(RatingRow.rating.desc())\
                .limit(4 * limit)
            standings = [self._standing(row, name, now) for row, name in s.execute(q)]
        ranked = [x for x in standings if not x.provisional][:limit]
        newcomers = [x for x in standings if x.provisional][:limit]
        return ranked, newcomers

    def rulesets(self) -> list[str]:
        """The rulesets anyone has a rating in."""
        with self._sessions() as s:
            return sorted(s.scalars(select(RatingRow.ruleset).where(RatingRow.games > 0).distinct()))

    def of_game(self, game_id: str) -> list[dict[str, Any]]:
        """What a rated game did to its players' ratings (empty: not rated, or not over)."""
        with self._sessions() as s:
            q = select(RatingChangeRow, AccountRow.username).join(
                AccountRow, AccountRow.id == RatingChangeRow.account_id).where(RatingChangeRow.game_id == game_id)
            return [{"username": name, "before": round(r.rating_before), "after": round(r.rating),
                     "provisional": glicko2.provisional(Rating(r.rating, r.deviation))}
                    for r, name in s.execute(q)]


# --- the graph ---------------------------------------------------------------------------------
def graph_svg(points: list[dict[str, Any]], *, title: str, description: str, number: Callable[[int], str],
              width: int = 420, height: int = 190) -> str:
    """A rating graph as an SVG drawn here (no script, no CDN): the rating after each game as
    a line, the band of one deviation around it, the first and last ratings and the scale in
    the page's digits (``number``). ``title`` and ``description`` are its text for screen
    readers, in the page's language. Game 1 is on the left in every language (a time axis)."""
    from html import escape

    pad_l, pad_r, pad_t, pad_b = 44, 12, 12, 22
    values = [(p["rating"], p["deviation"]) for p in points]
    if not values:
        values = [(glicko2.START_RATING, glicko2.START_DEVIATION)]
    low = min(r - d for r, d in values)
    high = max(r + d for r, d in values)
    low, high = 50 * int(low // 50), 50 * int(-(-high // 50))
    if high - low < 100:
        high = low + 100
    inner_w, inner_h = width - pad_l - pad_r, height - pad_t - pad_b
    n = len(values)

    def x(i: int) -> float:
        return pad_l + (inner_w * i / (n - 1) if n > 1 else inner_w / 2)

    def y(v: float) -> float:
        return pad_t + inner_h * (high - v) / (high - low)

    upper = [f"{x(i):.1f},{y(r + d):.1f}" for i, (r, d) in enumerate(values)]
    lower = [f"{x(i):.1f},{y(r - d):.1f}" for i, (r, d) in reversed(list(enumerate(values)))]
    line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, (r, _) in enumerate(values))
    step = 50 * max(1, round((high - low) / 4 / 50))
    grid = []
    for v in range(low, high + 1, step):
        grid.append(f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{y(v):.1f}" y2="{y(v):.1f}" class="grid"/>'
                    f'<text x="{pad_l - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{escape(number(v))}</text>')
    dots = "".join(f'<circle cx="{x(i):.1f}" cy="{y(r):.1f}" r="3"/>' for i, (r, _) in enumerate(values)) \
        if n <= 60 else ""
    axis = (f'<text x="{x(0):.1f}" y="{height - 6}" text-anchor="middle">{escape(number(1))}</text>'
            + (f'<text x="{x(n - 1):.1f}" y="{height - 6}" text-anchor="middle">{escape(number(n))}</text>'
               if n > 1 else ""))
    return (f'<svg class="rating-graph" viewBox="0 0 {width} {height}" role="img" aria-labelledby="g-title g-desc"'
            f' preserveAspectRatio="xMidYMid meet" direction="ltr" xmlns="http://www.w3.org/2000/svg">'
            f'<title id="g-title">{escape(title)}</title><desc id="g-desc">{escape(description)}</desc>'
            f'<g class="axis">{"".join(grid)}{axis}</g>'
            f'<polygon class="band" points="{" ".join(upper + lower)}"/>'
            f'<polyline class="line" points="{line}"/><g class="dots">{dots}</g></svg>')
