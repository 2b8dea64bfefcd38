"""Quick messages: a fixed set of short phrases a player may say to the other player (and the
spectators) during and after a game, each reader seeing it in their own language.

Only a phrase's id crosses the wire (``{"type": "quick", "phrase": "good_luck"}``): there is
no free text, so nothing to moderate and nothing to translate on the server. The pages hold
the words (the catalogs, all four languages).

Nothing is stored: a phrase is said to whoever is connected now. Here it goes at once to the
game's connections, one ``quick`` message for all of them; to the other processes it goes as
a :class:`~frontlines.web.play.events.QuickSaid` notice (``number``: the phrase's index times
two plus the speaker's seat), written by ``pg_notify`` in a transaction of its own, as
presence is. A page that connects later does not see what was said before.

Who may speak: a seated player of a game between two people (a friend's, the lobby's); not a
spectator, not a pass-and-play device (both players are at it), not against a bot (nobody to
read it). Each seat may say :data:`BURST` phrases at once and one more every
:data:`EVERY` seconds (counted on each process); past that the phrase is refused
(``too_fast``) and nobody hears it.

Hears :class:`~frontlines.web.play.events.QuickSaid`.
"""

from __future__ import annotations

from typing import Literal, get_args

from frontlines.web.fanout import TokenBucket, dumps
from frontlines.web.play.events import QuickSaid
from frontlines.web.play.game import GameError, LiveGame
from frontlines.web.play.games import GameCache
from frontlines.web.play.process import Process
from frontlines.web.seats import Role

# The phrases, by id; their words are the pages' (static/quick.js). The order is the wire's
# number in notices between processes: add new ones at the end, never reorder.
Phrase = Literal["hello", "good_luck", "nice_move", "well_played", "thanks", "oops", "one_moment", "good_game"]
PHRASES: tuple[Phrase, ...] = get_args(Phrase)
PEOPLE = ("friend", "lobby")  # the opponents of games between two people on two devices
BURST = 3  # phrases a seat may say at once
EVERY = 5.0  # seconds after which it may say one more


class QuickMessages:
    def __init__(self, process: Process, cache: GameCache) -> None:
        self.process = process
        self.cache = cache
        self.said = 0  # phrases said through this process (for /api/stats)
        process.bus.subscribe(QuickSaid, self._heard)

    async def say(self, game: LiveGame, role: Role | None, phrase: str) -> None:
        """``role`` says ``phrase`` in ``game``: to the game's connections here and, through
        the database, on every other process. Raises :class:`GameError` (nobody hears it)."""
        if phrase not in PHRASES:  # the message's model has checked it; a caller may not have
            raise GameError("malformed", f"unknown phrase {phrase!r}")
        if role is None:
            raise GameError("spectator", "spectators cannot send quick messages")
        if game.stored.opponent not in PEOPLE or role.seat is None:
            raise GameError("no_one_to_tell", "quick messages are for games between two people on two devices")
        seat = role.seat
        bucket = game.quick_allowance.get(seat)
        if bucket is None:
            bucket = game.quick_allowance[seat] = TokenBucket(1.0 / EVERY, BURST)
        if not bucket.take():
            raise GameError("too_fast", f"at most {BURST} quick messages at once, then one every {EVERY:g} seconds")
        number = PHRASES.index(phrase) * 2 + seat
        if self.process.shared:
            await self.process.db(self.process.store.notify, QuickSaid.kind, game.id, number)
        self.said += 1
        self._deliver(game, seat, phrase)

    @staticmethod
    def _deliver(game: LiveGame, seat: int, phrase: str) -> None:
        text = dumps({"type": "quick", "game_id": game.id, "seat": seat, "phrase": phrase})
        for client in list(game.clients):
            client.send(text)

    def _heard(self, notice: QuickSaid) -> None:
        """A player connected to another process said a phrase: tell the connections here."""
        game = self.cache.games.get(notice.game_id)
        index, seat = divmod(notice.number, 2)
        if game is None or not 0 <= index < len(PHRASES):
            return  # nobody here plays or watches it, or a newer release's phrase
        self._deliver(game, seat, PHRASES[index])
