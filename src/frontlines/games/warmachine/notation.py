"""Text forms of War Machine: action text and one-line position notation (docs/warmachine.md).

Full state::

    warmachine front=BvU^G^IvR^Jv piles=GIJBURRG/.../... hands=GU/JBRI sides=GI^:URv/:/:/:/:/:
      status=oooooo burned=/GJ/ leftover= shuffler=0 first=1 to=1 phase=draw:2

(one line). A view starts ``warmachine view=0`` (``view=-`` for a spectator), writes the
piles as sizes and every card the viewer cannot see as ``??``.
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

from frontlines.core.errors import NotationError
from frontlines.core.game import Termination
from frontlines.games.warmachine.cards import (
    ALL_CARDS,
    INF,
    LETTERS,
    STRENGTH,
    TYPE_MARKS,
    UNKNOWN,
    WM,
    card_code,
    cards_text,
    country_index,
    parse_card,
    parse_cards,
)
from frontlines.games.warmachine.options import Opts
from frontlines.games.warmachine.rules import (
    BURN,
    BURN_HIDDEN,
    CHOOSE,
    DRAW,
    DRAW_A,
    OPEN,
    OVER,
    PHASE_NAMES,
    PLAY,
    SKIP,
    TAKE1,
    TAKE1_CARD,
    TAKE1_HIDDEN,
    TAKE2,
    TAKE2_CARDS,
    TAKE2_HIDDEN,
    WON0,
    WON1,
    Board,
    deploy_action,
    public_action,
    take2_action,
)

GAME = "warmachine"
_STATUS_CHARS = "op01x"  # open, pending, won by 0, won by 1, no winner

# --- actions -----------------------------------------------------------------------------


def action_text(a: int) -> str:
    if a in _HIDDEN_TEXT:  # a masked action of another player (rules.public_action)
        return _HIDDEN_TEXT[a]
    if 0 <= a < 432:
        c, orient, p = a // 12, (a // 6) & 1, a % 6
        return f"{card_code(c)}{TYPE_MARKS[orient]}{p + 1}"
    if BURN <= a < DRAW_A:
        return f"burn:{card_code(a - BURN)}"
    if DRAW_A <= a < DRAW_A + 6:
        return f"draw:{a - DRAW_A + 1}"
    if a == TAKE1:
        return "take1"
    if a == TAKE2:
        return "take2"
    if TAKE1_CARD <= a < TAKE1_CARD + 36:
        return f"take1:{card_code(a - TAKE1_CARD)}"
    if TAKE2_CARDS <= a < TAKE2_CARDS + 36 * 36:
        x, y = divmod(a - TAKE2_CARDS, 36)
        return f"take2:{card_code(x)}+{card_code(y)}"
    if a == SKIP:
        return "skip"
    raise NotationError(f"not a War Machine action: {a!r}")


def public_action_text(a: int, face_up_burns: bool) -> str:
    """The action as the opponent or a spectator sees it (hidden cards as ``?``)."""
    return action_text(public_action(a, face_up_burns))


_HIDDEN_TEXT = {BURN_HIDDEN: "burn:?", TAKE1_HIDDEN: "take1:?", TAKE2_HIDDEN: "take2:?"}

_DEPLOY = re.compile(r"([A-Z]{2})([\^v])([1-6])")


def parse_action(text: str) -> int:
    if not isinstance(text, str) or len(text) > 20:
        raise NotationError(f"not a War Machine action: {text!r}")
    t = text.strip()
    m = _DEPLOY.fullmatch(t)
    if m:
        return deploy_action(parse_card(m.group(1)), TYPE_MARKS.index(m.group(2)), int(m.group(3)) - 1)
    if t.startswith("burn:"):
        return BURN + parse_card(t[5:])
    if t.startswith("draw:") and len(t) == 6 and t[5] in "123456":
        return DRAW_A + int(t[5]) - 1
    if t == "take1":
        return TAKE1
    if t == "take2":
        return TAKE2
    if t.startswith("take1:"):
        return TAKE1_CARD + parse_card(t[6:])
    if t.startswith("take2:") and len(t) == 11 and t[8] == "+":
        x, y = parse_card(t[6:8]), parse_card(t[9:11])
        if x == y:
            raise NotationError(f"take2 needs two different cards: {text!r}")
        return take2_action(x, y)
    if t == "skip":
        return SKIP
    raise NotationError(
        f"not a War Machine action: {text!r} (e.g. GI^3, GIv3, burn:GI, draw:4, take1, take2, skip)"
    )


# --- positions ---------------------------------------------------------------------------


def _sorted_codes(cards: list[int]) -> str:
    return "".join(sorted(card_code(c) for c in cards))


def board_to_text(b: Board, view: bool, viewer: int | None) -> str:
    out = [GAME]
    if view:
        out.append(f"view={'-' if viewer is None else viewer}")
    nd = b.opts.non_default()
    if nd:
        out.append("opts=" + ",".join(f"{k}:{v}" for k, v in nd))
    out.append("front=" + "".join(LETTERS[b.front_country[p]] + TYPE_MARKS[b.front_type[p]] for p in range(6)))
    if view:
        out.append("piles=" + ",".join(str(len(p)) for p in b.piles))
    else:
        out.append("piles=" + "/".join(cards_text(p) for p in b.piles))
    out.append("hands=" + "/".join(_sorted_codes(h) for h in b.hands))
    out.append("sides=" + "/".join(
        ":".join("".join(card_code(x >> 1) + TYPE_MARKS[x & 1] for x in side) for side in b.sides[p])
        for p in range(6)))
    out.append("status=" + "".join(_STATUS_CHARS[s] for s in b.status))
    out.append("burned=" + "/".join((_sorted_codes(b.burned_battle), _sorted_codes(b.burned_by[0]),
                                     _sorted_codes(b.burned_by[1]))))
    out.append("leftover=" + (_sorted_codes(b.leftover) if view else cards_text(b.leftover)))
    if not b.opts.blind:
        out.append("dealt=" + "/".join(_sorted_codes(d) for d in b.dealt))
    out.append(f"shuffler={b.shuffler}")
    out.append(f"first={'-' if b.first < 0 else b.first}")
    out.append(f"to={'-' if b.to_move < 0 else b.to_move}")
    out.append("phase=" + (f"draw:{b.draws_left}" if b.phase == DRAW else PHASE_NAMES[b.phase]))
    if b.opts.best_of_3:
        seed = "?" if b.match_seed < 0 else str(b.match_seed)
        res = ",".join(f"{s0}-{s1}-{'x' if w < 0 else w}" for s0, s1, w in b.results)
        out.append(f"match={seed}:{b.game_no}:{res}")
    if b.resigned is not None:
        loser, reason, detail = b.resigned
        out.append(f"resigned={loser}:{quote(reason, safe='')}:{quote(detail, safe='')}")
    return " ".join(out)


_REQUIRED = ("front", "piles", "hands", "sides", "status", "burned", "leftover", "shuffler", "first", "to", "phase")
_KNOWN = (*_REQUIRED, "opts", "view", "dealt", "match", "resigned")


def _fail(msg: str) -> NotationError:
    return NotationError(f"War Machine notation: {msg}")


def _groups(value: str, sep: str, n: int, key: str) -> list[str]:
    parts = value.split(sep)
    if len(parts) != n:
        raise _fail(f"{key} needs {n} groups separated by {sep!r}, got {value!r}")
    return parts


def _is_num(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _player(value: str, key: str, allow_none: bool) -> int:
    if value == "-" and allow_none:
        return -1
    if value not in ("0", "1"):
        raise _fail(f"{key} must be 0 or 1{' or -' if allow_none else ''}, not {value!r}")
    return int(value)


def parse_board(text: str, view: bool) -> tuple[Board, int | None]:
    """Parse a full state (``view=False``) or a view; returns the board and the viewer."""
    if not isinstance(text, str):
        raise _fail("text expected")
    tokens = text.split()
    if not tokens or tokens[0] != GAME:
        raise _fail(f"must start with {GAME!r}")
    fields: dict[str, str] = {}
    for tok in tokens[1:]:
        key, eq, value = tok.partition("=")
        if not eq or key not in _KNOWN:
            raise _fail(f"unknown token {tok[:40]!r}")
        if key in fields:
            raise _fail(f"{key} given twice")
        fields[key] = value
    missing = [k for k in _REQUIRED if k not in fields]
    if missing:
        raise _fail(f"missing {', '.join(missing)}")
    if ("view" in fields) != view:
        raise _fail("a view needs view=N (0, 1 or -) and a full state must not have it")
    viewer: int | None = None
    if view:
        v = _player(fields["view"], "view", True)
        viewer = None if v < 0 else v

    given: dict[str, str] = {}
    if fields.get("opts"):
        for item in fields["opts"].split(","):
            name, colon, val = item.partition(":")
            if not colon:
                raise _fail(f"bad option {item!r} (name:value)")
            given[name] = val
    try:
        opts = Opts.resolve(given)
    except ValueError as exc:
        raise _fail(str(exc)) from exc
    if "dealt" in fields and opts.blind:
        raise _fail("dealt= only exists when leftover_choice_blind is false")
    if opts.best_of_3 != ("match" in fields):
        raise _fail("match= is present exactly when the match option is best_of_3")
    b = Board(opts)
    unk = view  # unknown cards allowed only in views

    front = fields["front"]
    if len(front) != 12:
        raise _fail(f"front needs six country letters each followed by ^ or v, got {front!r}")
    for p in range(6):
        b.front_country[p] = country_index(front[2 * p])
        mark = front[2 * p + 1]
        if mark not in TYPE_MARKS:
            raise _fail(f"front position {p + 1}: type mark must be ^ or v")
        b.front_type[p] = TYPE_MARKS.index(mark)
    if len(set(b.front_country)) != 6:
        raise _fail("the front must show six different countries")
    for k in range(3):
        if {b.front_type[2 * k], b.front_type[2 * k + 1]} != {WM, INF}:
            raise _fail(f"front card {k + 1} (positions {2 * k + 1}-{2 * k + 2}) needs one ^ and one v")

    if view:
        sizes = _groups(fields["piles"], ",", 6, "piles")
        for p, s in enumerate(sizes):
            if not _is_num(s) or int(s) > 30:
                raise _fail(f"pile size {s!r}")
            b.piles[p] = [UNKNOWN] * int(s)
    else:
        b.piles = [parse_cards(g) for g in _groups(fields["piles"], "/", 6, "piles")]
    b.support = sum(len(p) for p in b.piles)
    b.hands = [parse_cards(g, unk) for g in _groups(fields["hands"], "/", 2, "hands")]

    for p, group in enumerate(_groups(fields["sides"], "/", 6, "sides")):
        for me, side in enumerate(_groups(group, ":", 2, f"sides of position {p + 1}")):
            if len(side) % 3:
                raise _fail(f"sides of position {p + 1}: cards are code + ^/v, got {side!r}")
            for k in range(0, len(side), 3):
                c = parse_card(side[k : k + 2])
                if side[k + 2] not in TYPE_MARKS:
                    raise _fail(f"sides of position {p + 1}: {side[k:k + 3]!r} needs ^ or v")
                orient = TYPE_MARKS.index(side[k + 2])
                col = c // 6 if orient == WM else c % 6
                if col == b.front_country[p] or col == b.colour[p][1 - me] or b.colour[p][me] not in (-1, col):
                    raise _fail(f"position {p + 1}: {side[k:k + 3]} breaks the colour rules")
                b.sides[p][me].append(c * 2 + orient)
                b.colour[p][me] = col
                b.strength[p][me] += STRENGTH[orient]

    status = fields["status"]
    if len(status) != 6 or any(ch not in _STATUS_CHARS for ch in status):
        raise _fail(f"status needs six of {_STATUS_CHARS}, got {status!r}")
    b.status = [_STATUS_CHARS.index(ch) for ch in status]
    for p in range(6):
        st = b.status[p]
        if st in (WON0, WON1) and (b.sides[p][0] or b.sides[p][1]):
            raise _fail(f"position {p + 1} is won, its forces were burned")
        if st != OPEN and b.piles[p]:
            raise _fail(f"position {p + 1}: a battle starts only when its pile is empty")

    burned = _groups(fields["burned"], "/", 3, "burned")
    b.burned_battle = parse_cards(burned[0])
    b.burned_by = [parse_cards(burned[1], unk), parse_cards(burned[2], unk)]
    b.leftover = parse_cards(fields["leftover"], unk)
    if "dealt" in fields:
        b.dealt = [parse_cards(g, unk) for g in _groups(fields["dealt"], "/", 2, "dealt")]
    b.shuffler = _player(fields["shuffler"], "shuffler", False)
    b.first = _player(fields["first"], "first", True)
    b.to_move = _player(fields["to"], "to", True)
    phase = fields["phase"]
    if phase in ("draw:1", "draw:2"):
        b.phase, b.draws_left = DRAW, int(phase[5])
        if b.draws_left > b.support:
            raise _fail("more draws left than support cards")
    elif phase in ("choose", "play", "over"):
        b.phase = PHASE_NAMES.index(phase)
    else:
        raise _fail(f"phase must be choose, play, draw:1, draw:2 or over, not {phase!r}")
    if (b.phase == OVER) != (b.to_move < 0):
        raise _fail("to=- exactly when the game is over")
    if b.phase == CHOOSE and (len(b.leftover) != 3 or b.hands[0] or b.hands[1] or b.to_move != 1 - b.shuffler):
        raise _fail("while choosing, three leftover cards, empty hands, and the chooser (not the shuffler) to move")
    if (b.leftover and b.first >= 0) or (not b.leftover and b.first < 0):
        raise _fail("three leftover cards until the choice is made (first=-), none afterwards")
    if b.phase in (PLAY, DRAW) and (b.first < 0 or b.support == 0):
        raise _fail("a game in play has a first player and support cards left")

    if "match" in fields:
        seed, _, rest = fields["match"].partition(":")
        game_no, _, res = rest.partition(":")
        if not ((seed == "?" and view) or _is_num(seed)) or not _is_num(game_no) or not 1 <= int(game_no) <= 3:
            raise _fail(f"match needs seed:game:results, got {fields['match']!r}")
        b.match_seed = -1 if seed == "?" else int(seed)
        b.game_no = int(game_no)
        for item in res.split(",") if res else []:
            parts = item.split("-")
            if len(parts) != 3 or not _is_num(parts[0]) or not _is_num(parts[1]) or parts[2] not in ("0", "1", "x"):
                raise _fail(f"match result {item!r} must be score0-score1-winner")
            b.results.append((int(parts[0]), int(parts[1]), -1 if parts[2] == "x" else int(parts[2])))
        finished = b.phase == OVER and "resigned" not in fields  # a resigned game has no result
        if len(b.results) != b.game_no - (0 if finished else 1):
            raise _fail("match results must list every finished game")
    if "resigned" in fields:
        parts = fields["resigned"].split(":")
        if len(parts) != 3 or parts[0] not in ("0", "1"):
            raise _fail("resigned needs loser:reason:detail")
        try:
            reason = Termination(unquote(parts[1]))
        except ValueError:
            raise _fail(f"resigned has an unknown reason {unquote(parts[1])!r}") from None
        b.resigned = (int(parts[0]), reason, unquote(parts[2]))
        if b.phase != OVER:
            raise _fail("a resigned game is over")

    # Every card is somewhere exactly once (views: the known ones at most once, 30 slots in all).
    located = [*b.hands[0], *b.hands[1], *b.burned_battle, *b.burned_by[0], *b.burned_by[1], *b.leftover]
    for p in range(6):
        located.extend(b.piles[p])
        located.extend(x >> 1 for x in b.sides[p][0])
        located.extend(x >> 1 for x in b.sides[p][1])
    located.extend(b.front_cards())
    known = [c for c in located if c != UNKNOWN]
    seen = set(known)
    if len(located) != len(ALL_CARDS) or len(seen) != len(known):
        raise _fail(f"the 30 cards must each appear exactly once ({len(located)} places, "
                    f"{len(known) - len(seen)} repeated)")
    for p, d in enumerate(b.dealt):
        if len(set(c for c in d if c != UNKNOWN)) != len([c for c in d if c != UNKNOWN]):
            raise _fail("dealt lists a card twice")
        # a start card seen but not on the table is among the player's hidden cards: there must be room for it
        hidden = [*b.hands[p], *b.burned_by[p]].count(UNKNOWN)
        if sum(1 for c in d if c != UNKNOWN and c not in seen) > hidden:
            raise _fail(f"dealt names more unplaced cards of player {p} than the player has hidden cards")
    return b, viewer


__all__ = ["action_text", "board_to_text", "parse_action", "parse_board", "public_action_text"]
