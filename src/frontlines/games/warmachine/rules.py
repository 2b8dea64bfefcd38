"""The rules of War Machine (docs/rules.md §6.2–§6.7) on a plain, copyable board.

Everything here works on :class:`Board`, which is both the full state (inside
``WarMachineState``) and, with hidden cards replaced by ``UNKNOWN``, a view. Legal moves
only read the mover's own hand and public facts, so one generator serves both.

Actions are ints (hashable, cheap, equal across an information set):

* deploy: ``card * 12 + orient * 6 + pos`` (0..431), pos 0..5 = P1..P6
* burn: ``BURN + card``; draw: ``DRAW + pile``
* ``TAKE1``/``TAKE2`` (blind choice), ``TAKE1_CARD + card``, ``TAKE2_CARDS + a * 36 + b``
  (``a < b``, seen choice), ``SKIP``.
* In a view's record, the other player's actions that name cards the viewer did not see
  (a face-down burn, the cards taken in a seen choice) are masked: ``BURN_HIDDEN``,
  ``TAKE1_HIDDEN``, ``TAKE2_HIDDEN`` (:func:`public_action`). They are never legal.
"""

from __future__ import annotations

import random
from typing import Any

from frontlines.core.game import Termination
from frontlines.games.chance import shuffle
from frontlines.games.warmachine.cards import ALL_CARDS, INF, STRENGTH, UNKNOWN, WM
from frontlines.games.warmachine.options import Opts

# Phases.
CHOOSE, PLAY, DRAW, OVER = range(4)
PHASE_NAMES = ("choose", "play", "draw", "over")

# Battle status per position.
OPEN, PENDING, WON0, WON1, NOWIN = range(5)
STATUS_NAMES = ("open", "pending", "won", "won", "no_winner")

BURN = 1000
DRAW_A = 1100
TAKE1 = 1200
TAKE2 = 1201
TAKE1_CARD = 1300
TAKE2_CARDS = 2000
SKIP = 4000
# The masked forms of actions whose card the viewer did not see: card "36", past the last.
BURN_HIDDEN = BURN + 36
TAKE1_HIDDEN = TAKE1_CARD + 36
TAKE2_HIDDEN = TAKE2_CARDS + 36 * 36


def public_action(a: int, face_up_burns: bool) -> int:
    """``a`` as the other player or a spectator knows it: the masked form of a face-down burn
    or of a seen choice's take (their cards stay hidden), any other action itself."""
    if a < BURN or DRAW_A <= a < TAKE1_CARD or a >= SKIP:
        return a
    if a < DRAW_A:
        return a if face_up_burns else BURN_HIDDEN
    return TAKE1_HIDDEN if a < TAKE2_CARDS else TAKE2_HIDDEN


def deploy_action(c: int, orient: int, pos: int) -> int:
    return c * 12 + orient * 6 + pos


def take2_action(a: int, b: int) -> int:
    if a > b:
        a, b = b, a
    return TAKE2_CARDS + a * 36 + b


class Board:
    """Every fact of a game (or of a view, with ``UNKNOWN`` cards)."""

    __slots__ = (
        "burned_battle", "burned_by", "colour", "dealt", "draws_left", "first", "front_country",
        "front_type", "game_no", "hands", "leftover", "match_seed", "opts", "phase", "piles",
        "resigned", "results", "shuffler", "sides", "status", "strength", "support", "to_move",
    )

    def __init__(self, opts: Opts, source: Board | None = None) -> None:
        """A fresh board, or (``source``) a copy of ``source``."""
        self.opts = opts
        if source is not None:
            self._copy(source)
            return
        self.front_country: list[int] = [0] * 6
        self.front_type: list[int] = [0] * 6
        self.piles: list[list[int]] = [[] for _ in range(6)]  # top card last
        self.support = 0  # total cards in the piles
        self.hands: list[list[int]] = [[], []]
        self.sides: list[list[list[int]]] = [[[], []] for _ in range(6)]  # card * 2 + orient, play order
        self.colour: list[list[int]] = [[-1, -1] for _ in range(6)]
        self.strength: list[list[int]] = [[0, 0] for _ in range(6)]
        self.status: list[int] = [OPEN] * 6
        self.burned_battle: list[int] = []  # cards burned by battles (seen on the front)
        self.burned_by: list[list[int]] = [[], []]  # cards each player burned with the burn action
        self.leftover: list[int] = []  # the three cards before the choice
        self.dealt: list[list[int]] = [[], []]  # starting hands, kept only when the choice is seen
        self.shuffler = 0
        self.first = -1
        self.to_move = 0
        self.phase = CHOOSE
        self.draws_left = 0
        self.resigned: tuple[int, Termination, str] | None = None
        self.match_seed = -1  # best-of-3: seeds the next deals; -1 when unknown (views)
        self.game_no = 1
        self.results: list[tuple[int, int, int]] = []  # finished games: (score0, score1, winner or -1)

    def copy(self) -> Board:
        # through __init__, not Board.__new__: a compiled Board (docs/performance.md) has no bare __new__
        return Board(self.opts, self)

    def _copy(self, b: Board) -> None:
        self.front_country = b.front_country[:]
        self.front_type = b.front_type[:]
        self.piles = [p[:] for p in b.piles]
        self.support = b.support
        self.hands = [b.hands[0][:], b.hands[1][:]]
        self.sides = [[s[0][:], s[1][:]] for s in b.sides]
        self.colour = [c[:] for c in b.colour]
        self.strength = [s[:] for s in b.strength]
        self.status = b.status[:]
        self.burned_battle = b.burned_battle[:]
        self.burned_by = [b.burned_by[0][:], b.burned_by[1][:]]
        self.leftover = b.leftover[:]
        self.dealt = [b.dealt[0][:], b.dealt[1][:]]
        self.shuffler = b.shuffler
        self.first = b.first
        self.to_move = b.to_move
        self.phase = b.phase
        self.draws_left = b.draws_left
        self.resigned = b.resigned
        self.match_seed = b.match_seed
        self.game_no = b.game_no
        self.results = b.results[:]

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its fields (the search's worker processes get views so): a compiled
        # Board (docs/performance.md) is made only through its __init__
        return _unpickled_board, (self.opts, [getattr(self, name) for name in BOARD_FIELDS])

    def front_cards(self) -> list[int]:
        """The three cards of the war front, rebuilt from the six positions."""
        out = []
        for k in range(3):
            a, d = 2 * k, 2 * k + 1
            wm, inf = (a, d) if self.front_type[a] == WM else (d, a)
            out.append(self.front_country[wm] * 6 + self.front_country[inf])
        return out

    # --- set-up (§6.2) ----------------------------------------------------------------
    def deal(self, rng: random.Random, shuffler: int) -> None:
        """A fresh game on this board: front, piles, leftover; match fields are kept."""
        deck = list(ALL_CARDS)
        shuffle(rng, deck)
        kept: list[int] = []
        shown: set[int] = set()
        k = 0
        while len(kept) < 3:  # A2: keep a card only if both its countries are new
            c = deck[k]
            k += 1
            if c // 6 not in shown and c % 6 not in shown:
                kept.append(c)
                shown.update((c // 6, c % 6))
        rest = [c for c in deck if c not in kept]
        rng.shuffle(rest)  # the set-aside cards go back in and everything is reshuffled
        rng.shuffle(kept)  # A3: random order ...
        flips = [rng.random() < 0.5 for _ in kept]  # ... and random left/right orientation
        self.set_up(kept, flips, rest, shuffler)

    def set_up(self, front: list[int], flips: list[bool], rest: list[int], shuffler: int) -> None:
        """A fresh game on this board whose shuffles came out as given: the war front's three
        cards in order, each turned round (infantry end first) where ``flips`` says so; the
        piles of four from ``rest`` in order (top = last), its last three the leftover.
        :meth:`deal` draws all this at random; interfaces that make each card a chance event
        (OpenSpiel) pass their own."""
        for i, c in enumerate(front):
            ends = [(c // 6, WM), (c % 6, INF)]
            if flips[i]:
                ends.reverse()
            for j, (country, kind) in enumerate(ends):
                self.front_country[2 * i + j] = country
                self.front_type[2 * i + j] = kind
        self.piles = [rest[4 * p : 4 * p + 4] for p in range(6)]
        self.support = 24
        self.leftover = rest[24:27]
        self.hands = [[], []]
        self.sides = [[[], []] for _ in range(6)]
        self.colour = [[-1, -1] for _ in range(6)]
        self.strength = [[0, 0] for _ in range(6)]
        self.status = [OPEN] * 6
        self.burned_battle = []
        self.burned_by = [[], []]
        self.dealt = [[], []]
        self.shuffler = shuffler
        self.first = -1
        self.to_move = 1 - shuffler  # the chooser acts first
        self.phase = CHOOSE
        self.draws_left = 0

    # --- chance, one draw at a time ----------------------------------------------------
    def next_draws(self) -> list[int]:
        """The cards a draw from any pile may bring, all equally likely (ascending): the piles
        are face down and never looked into, so every card in them is as likely as any
        other to lie on top of the pile drawn from."""
        return sorted(c for pile in self.piles for c in pile)

    def stack(self, pile: int, card: int) -> None:
        """Make ``card`` (in some pile) the top of pile ``pile`` by swapping places with that
        top card, so a caller that samples the draw itself (a chance node) then draws it
        with the usual action; ``ValueError`` if it is not in a pile or ``pile`` is empty."""
        top = self.piles[pile] if 0 <= pile < 6 else []
        where = next((p for p in self.piles if card in p), None)
        if not top or where is None:
            raise ValueError(f"cannot put card {card} on top of pile {pile + 1}")
        i = where.index(card)
        where[i], top[-1] = top[-1], card

    def deal_next_game(self) -> None:
        """Best of 3: the next deal comes from the match seed; the shuffler alternates."""
        self.game_no += 1
        self.deal(random.Random(self.match_seed * 7 + self.game_no), 1 - self.shuffler)

    # --- legal actions (§6.3) ---------------------------------------------------------
    def deploys(self, me: int) -> list[int]:
        out: list[int] = []
        hand = self.hands[me]
        if not hand:
            return out
        opp = 1 - me
        pending_open = not self.opts.pending_closed
        ends = [(c * 12, c // 6, c % 6) for c in hand]  # (action base, war-machine country, infantry country)
        for p in range(6):
            st = self.status[p]
            if st != OPEN and not (st == PENDING and pending_open):
                continue
            mine = self.colour[p][me]
            if mine >= 0:  # rule c: my colour here is fixed (and already passed rule b)
                for base, w, i in ends:
                    if w == mine:
                        out.append(base + p)
                    elif i == mine:
                        out.append(base + 6 + p)
                continue
            home = self.front_country[p]
            theirs = self.colour[p][opp]
            for base, w, i in ends:
                # rule b: neither the country itself nor the opponent's colour there
                if w != home and w != theirs:
                    out.append(base + p)
                if i != home and i != theirs:
                    out.append(base + 6 + p)
        return out

    def legal(self) -> list[int]:
        phase = self.phase
        me = self.to_move
        if phase == DRAW:
            return [DRAW_A + p for p in range(6) if self.piles[p]]
        if phase == PLAY:
            out = self.deploys(me)
            if (self.opts.burn_anytime or not out) and self.support > 0:
                out.extend(BURN + c for c in self.hands[me] if c != UNKNOWN)
            return out or [SKIP]
        if phase == CHOOSE:
            if self.opts.blind:
                return [TAKE1, TAKE2]
            left = self.leftover
            if UNKNOWN in left:
                return []
            out = [TAKE1_CARD + c for c in left]
            out.extend(take2_action(left[a], left[b]) for a in range(3) for b in range(a + 1, 3))
            return out
        return []

    def is_legal(self, a: object) -> bool:
        if type(a) is not int or self.phase == OVER:
            return False
        if self.phase == DRAW:
            return DRAW_A <= a < DRAW_A + 6 and bool(self.piles[a - DRAW_A])
        if self.phase == PLAY and 0 <= a < 432:
            c, orient, p = a // 12, (a // 6) & 1, a % 6
            if c not in self.hands[self.to_move]:
                return False
            st = self.status[p]
            if st != OPEN and not (st == PENDING and not self.opts.pending_closed):
                return False
            col = c // 6 if orient == WM else c % 6
            mine = self.colour[p][self.to_move]
            return (col != self.front_country[p] and col != self.colour[p][1 - self.to_move]
                    and (mine < 0 or col == mine))
        return a in self.legal()

    # --- applying (the caller has checked legality) ------------------------------------
    def apply(self, a: int) -> None:
        me = self.to_move
        if a < 432:
            c, orient, p = a // 12, (a // 6) & 1, a % 6
            self.hands[me].remove(c)
            self.sides[p][me].append(c * 2 + orient)
            self.colour[p][me] = c // 6 if orient == WM else c % 6
            self.strength[p][me] += STRENGTH[orient]
            self._start_draws(2 if orient == INF else 1)
        elif a < DRAW_A:
            c = a - BURN
            self.hands[me].remove(c)
            self.burned_by[me].append(c)
            self._start_draws(1)
        elif a < TAKE1:
            self.hands[me].append(self.piles[a - DRAW_A].pop())
            self.support -= 1
            # the last card is gone: any further draw of this step is lost (§6.3)
            self.draws_left = self.draws_left - 1 if self.support else 0
            if self.opts.each_draw:
                self._battles()
            if not self.draws_left:
                self._end_turn()
        elif a == SKIP:
            self._end_turn()
        else:
            self._take(a)

    def _take(self, a: int) -> None:
        chooser = self.to_move
        left = self.leftover
        if a in (TAKE1, TAKE2):
            n = 1 if a == TAKE1 else 2
            mine, theirs = left[:n], left[n:]
        elif a < TAKE2_CARDS:
            c = a - TAKE1_CARD
            mine, theirs = [c], [x for x in left if x != c]
        else:
            x, y = divmod(a - TAKE2_CARDS, 36)
            mine, theirs = [x, y], [z for z in left if z != x and z != y]
        self.hands[chooser] = mine
        self.hands[1 - chooser] = theirs
        if not self.opts.blind:
            self.dealt[chooser] = mine[:]
            self.dealt[1 - chooser] = theirs[:]
        self.leftover = []
        # one card: the chooser starts; two cards: the opponent starts
        self.first = chooser if len(mine) == 1 else 1 - chooser
        self.to_move = self.first
        self.phase = PLAY

    def _start_draws(self, n: int) -> None:
        self.draws_left = min(n, self.support)
        if self.draws_left:
            self.phase = DRAW
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        self._battles()
        if self.support == 0:
            self._finish()
        else:
            self.to_move = 1 - self.to_move
            self.phase = PLAY

    # --- battles (§6.4–§6.5) ---------------------------------------------------------------
    def ref(self, p: int) -> int:
        """The battle a tie at ``p`` follows: the neighbour nearer the box (-1: none)."""
        return p - 1 if p else self.opts.tie_p1

    def _battles(self) -> None:
        reopen = not self.opts.pending_closed
        for p in range(6):  # nearest the box first
            st = self.status[p]
            if st == OPEN and not self.piles[p]:
                s0, s1 = self.strength[p]
                if s0 != s1:
                    self._decide(p, 0 if s0 > s1 else 1)
                else:
                    r = self.ref(p)
                    rs = self.status[r] if r >= 0 else NOWIN
                    if rs in (WON0, WON1):
                        self._decide(p, rs - WON0)
                    elif rs == NOWIN:
                        self._no_winner(p)
                    else:
                        self.status[p] = PENDING
            elif st == PENDING and reopen and self.strength[p][0] != self.strength[p][1]:
                s0, s1 = self.strength[p]
                self._decide(p, 0 if s0 > s1 else 1)
        if self.opts.pending_closed and PENDING in self.status:
            self._break_cycles()

    def _decide(self, p: int, winner: int) -> None:
        self.status[p] = WON0 + winner
        side = self.sides[p]
        # the winner burns every force there (one becomes its face-down marker, A17)
        self.burned_battle.extend(x >> 1 for x in side[0])
        self.burned_battle.extend(x >> 1 for x in side[1])
        self.sides[p] = [[], []]
        self.strength[p] = [0, 0]
        self.colour[p] = [-1, -1]  # nothing is left there; notation rebuilds colours from the sides
        for q in range(6):  # ties waiting on p are settled with it (chains recurse)
            if self.status[q] == PENDING and self.ref(q) == p:
                self._decide(q, winner)

    def _no_winner(self, p: int) -> None:
        self.status[p] = NOWIN
        for q in range(6):
            if self.status[q] == PENDING and self.ref(q) == p:
                self._no_winner(q)

    def _break_cycles(self) -> None:
        """A pending tie whose reference chain loops back (A12) can never be settled."""
        doomed = []
        for p in range(6):
            if self.status[p] != PENDING:
                continue
            seen = {p}
            r = self.ref(p)
            while r >= 0 and self.status[r] == PENDING and r not in seen:
                seen.add(r)
                r = self.ref(r)
            if r >= 0 and r in seen:
                doomed.append(p)
        for p in doomed:
            self.status[p] = NOWIN

    # --- end and scoring (§6.6–§6.7) ---------------------------------------------------
    def _finish(self) -> None:
        for p in range(6):  # whatever is still pending can no longer be settled
            if self.status[p] == PENDING:
                self.status[p] = NOWIN
        self.phase = OVER
        self.to_move = -1
        if self.opts.best_of_3:
            s0, s1 = self.scores()
            w = self.game_winner()[0]
            self.results.append((s0, s1, -1 if w is None else w))
            if not self.match_done():
                self.deal_next_game()

    def won_countries(self, player: int) -> set[int]:
        w = WON0 + player
        return {self.front_country[p] for p in range(6) if self.status[p] == w}

    def score_detail(self, player: int) -> tuple[int, int]:
        """(country points, hand points) of ``player``."""
        won = self.won_countries(player)
        country = sum(2 if self.front_type[p] == WM else 1
                      for p in range(6) if self.status[p] == WON0 + player)
        hand = 0
        for c in self.hands[player]:
            if c == UNKNOWN:
                continue
            a, b = c // 6 in won, c % 6 in won
            hand += (a or b) if self.opts.per_card else a + b
        return country, hand

    def scores(self) -> tuple[int, int]:
        a, b = self.score_detail(0), self.score_detail(1)
        return a[0] + a[1], b[0] + b[1]

    def game_winner(self) -> tuple[int | None, Termination]:
        s0, s1 = self.scores()
        if s0 != s1:
            return (0 if s0 > s1 else 1), Termination.SCORE
        for p in range(1 if self.opts.p1_only else 6):  # the battle nearest the box with a winner
            if self.status[p] in (WON0, WON1):
                return self.status[p] - WON0, Termination.TIE_BREAK
        return None, Termination.DRAW

    def match_wins(self) -> tuple[int, int]:
        return (sum(1 for r in self.results if r[2] == 0), sum(1 for r in self.results if r[2] == 1))

    def match_winner(self) -> int | None:
        w0, w1 = self.match_wins()
        return 0 if w0 >= 2 else 1 if w1 >= 2 else None

    def match_done(self) -> bool:
        return self.match_winner() is not None or len(self.results) >= 3


# every field of a Board but ``opts``, as pickling carries them
BOARD_FIELDS = (
    "burned_battle", "burned_by", "colour", "dealt", "draws_left", "first", "front_country",
    "front_type", "game_no", "hands", "leftover", "match_seed", "phase", "piles",
    "resigned", "results", "shuffler", "sides", "status", "strength", "support", "to_move",
)


def _unpickled_board(opts: Opts, values: list[Any]) -> Board:
    b = Board(opts)
    for name, value in zip(BOARD_FIELDS, values, strict=True):
        setattr(b, name, value)
    return b
