"""The one-line notation of a :class:`~.table.Table` (docs/notation.md): a full position,
or what one player knows of it.

Position notation is one line of ``key=value`` tokens after the game name; tokens at their
default value are left out so that each position has exactly one text. The public tokens
are the same for a position and a view; they differ in the hands and the decks. The
classes' parsers (``notation.parse_state``, ``notation.parse_view``) wrap these.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, unquote

from frontlines.core.errors import NotationError
from frontlines.core.game import Outcome, Termination
from frontlines.games.battleline.cards import FOG, MUD, NUM_CARDS, NUM_TROOPS, card_code, cards_of, parse_card
from frontlines.games.battleline.codes import NUM_FLAGS, NUM_SIDES, OVER, PHASE_NAMES, Phase
from frontlines.games.battleline.rules import GAME, RULESET_BY_NAME, Config, make_config
from frontlines.games.battleline.table import Table, Unknown, knowers_of_unknown, setup, unknown

_CODES = tuple(card_code(c) for c in range(NUM_CARDS))


def _marks(knowers: int) -> str:
    return "" if not knowers else "~" + ("0" if knowers == 1 else "1" if knowers == 2 else "01")


def _parse_marked(item: str) -> tuple[int, int]:
    code, tilde, who = item.partition("~")
    knowers = 0
    if tilde:
        if who not in ("0", "1", "01"):
            raise NotationError(f"bad knowledge mark in {item!r}")
        knowers = 3 if who == "01" else 1 << int(who)
    return parse_card(code), knowers


def _cards_text(cards: Any) -> str:
    return ".".join(_CODES[c] for c in cards)


def _parse_cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(x) for x in text.split(".")) if text else ()


def _owner(text: str, what: str) -> int:
    if text not in ("-", "0", "1"):
        raise NotationError(f"bad {what}: {text!r}")
    return -1 if text == "-" else int(text)


def _knowers(known: list[int], c: int) -> int:
    return (known[0] >> c & 1) | (known[1] >> c & 1) << 1


def _common_tokens(t: Table) -> list[str]:
    """Tokens shared by a position and a view (all public information)."""
    cfg = t.cfg
    spec = RULESET_BY_NAME[cfg.variant.name]
    defaults = {o.name: o.default for o in spec.options}
    tokens = [f"ruleset={cfg.variant.name}"]
    changed = [f"{k}:{v}" for k, v in cfg.options if defaults.get(k) != v]
    if changed:
        tokens.append("opts=" + ",".join(changed))
    if t.bf_ids:
        tokens.append("bf=" + "".join(str(i + 1) for i in t.bf_ids) + f":{t.bf_up}")
    tokens.append(f"to={t.to_move}")
    tokens.append(f"phase={PHASE_NAMES[t.phase]}")
    tokens.append(f"n={t.counter}")
    if t.scout_n:
        tokens.append(f"scout={t.scout_left}.{t.scout_n}")
    if t.ret_left:
        tokens.append(f"ret={t.ret_left}")
    if t.excess:
        tokens.append("excess=" + ".".join(str(i) for i in t.excess))
    flags: tuple[int, ...] = (t.passes, t.noops, int(t.turn_passed), int(t.turn_noop), int(t.turn_claims))
    if t.idle or t.turn_claimed:  # the two later counters only where set: older texts keep five
        flags += (t.idle, int(t.turn_claimed))
    if any(flags):
        tokens.append("st=" + ".".join(map(str, flags)))
    if any(t.tactics_played):
        tokens.append(f"tp={t.tactics_played[0]}.{t.tactics_played[1]}")
    if t.leaders:
        tokens.append(f"lead={t.leaders}")
    for f in range(NUM_FLAGS):
        claim = "-" if t.claimed[f] < 0 else str(t.claimed[f])
        parts = [claim]
        for p in (0, 1):
            side = _cards_text(t.sides[f * 2 + p])
            done = t.completed[f * 2 + p]
            parts.append(side + (f":{done}" if done >= 0 else ""))
        env = ("" if t.fog[f] < 0 else f"F{t.fog[f]}") + ("" if t.mud[f] < 0 else f"M{t.mud[f]}")
        parts.append(env)
        text = "/".join(parts)
        if text != "-///":
            tokens.append(f"f{f + 1}={text}")
    for p in (0, 1):
        if t.discards[p]:
            tokens.append(f"d{p}={_cards_text(t.discards[p])}")
        if t.guile[p]:
            tokens.append(f"g{p}={_cards_text(t.guile[p])}")
    if t.out is not None:
        winner = "-" if t.out.winner is None else str(t.out.winner)
        result = f"{winner}:{quote(t.out.reason, safe='')}"
        if t.out.detail:
            result += f":{quote(t.out.detail, safe='')}"
        tokens.append(f"result={result}")
    return tokens


def state_to_text(t: Table) -> str:
    """The notation of a full position."""
    tokens = [GAME, *_common_tokens(t)]
    for p in (0, 1):
        tokens.append(f"h{p}=" + ".".join(_CODES[c] + _marks(_knowers(t.known, c)) for c in cards_of(t.hands[p])))
    decks = [("td", t.tdeck)] + ([("xd", t.xdeck)] if t.cfg.variant.tactics else [])
    for name, deck in decks:
        tokens.append(f"{name}=" + ".".join(_CODES[c] + _marks(_knowers(t.known, c)) for c in reversed(deck)))
    return " ".join(tokens)


def deck_marks(t: Table, deck: list[int]) -> list[tuple[int, int, int]]:
    """The marked places of a view's deck: (position from the top, knowers, card or -1
    when the viewer does not know it), top first."""
    out = []
    n = len(deck)
    for i in range(n - 1, -1, -1):
        c = deck[i]
        knowers = _knowers(t.known, c) if c >= 0 else knowers_of_unknown(c)
        if knowers:
            out.append((n - 1 - i, knowers, c if c >= 0 else -1))
    return out


def view_to_text(t: Table, viewer: int | None) -> str:
    """The notation of a view (``t`` masked for ``viewer``, None: a spectator)."""
    who = "spectator" if viewer is None else str(viewer)
    tokens = [GAME, f"view={who}", *_common_tokens(t)]
    for p in (0, 1):
        if p == viewer:
            marked = t.hands[p] & t.known[1 - p]
            items = [_CODES[c] + _marks(2 >> p if marked >> c & 1 else 0) for c in cards_of(t.hands[p])]
        else:
            nt, nx, nk = t.hand_unknown[p]
            items = [f"?{nt}", str(nx), str(nk), *(_CODES[c] for c in cards_of(t.hands[p]))]
        tokens.append(f"h{p}=" + ".".join(items))
    decks = [("td", t.tdeck)] + ([("xd", t.xdeck)] if t.cfg.variant.tactics else [])
    for name, deck in decks:
        parts = [f"#{len(deck)}"]
        for pos, knowers, c in deck_marks(t, deck):
            parts.append(f"{pos}{_marks(knowers)}" + (f"={_CODES[c]}" if c >= 0 else ""))
        tokens.append(f"{name}=" + ",".join(parts))
    return " ".join(tokens)


class _Fields:
    """Parsed ``key=value`` tokens with helpful errors."""

    def __init__(self, text: str, kind: str) -> None:
        if not isinstance(text, str):
            raise NotationError(f"{kind} notation must be text")
        parts = text.split()
        if not parts or parts[0] != GAME:
            raise NotationError(f"{kind} notation must start with {GAME!r}")
        self.kind = kind
        self.values: dict[str, str] = {}
        for token in parts[1:]:
            key, eq, value = token.partition("=")
            if not eq or not key:
                raise NotationError(f"{kind} notation: expected key=value, got {token!r}")
            if key in self.values:
                raise NotationError(f"{kind} notation: {key!r} given twice")
            self.values[key] = value
        self.used: set[str] = set()

    def get(self, key: str, default: str | None = None) -> str:
        self.used.add(key)
        value = self.values.get(key)
        if value is None:
            if default is None:
                raise NotationError(f"{self.kind} notation: missing {key}=")
            return default
        return value

    def ints(self, key: str, count: int | tuple[int, ...], default: str) -> list[int]:
        """``key``'s numbers; ``count`` is how many, or the counts allowed."""
        text = self.get(key, default)
        items = text.split(".")
        counts = (count,) if isinstance(count, int) else count
        if len(items) not in counts or not all(x.isdigit() for x in items):
            told = " or ".join(map(str, counts))
            raise NotationError(f"{self.kind} notation: {key}= needs {told} numbers separated by '.'")
        return [int(x) for x in items]

    def finish(self) -> None:
        extra = set(self.values) - self.used
        if extra:
            raise NotationError(f"{self.kind} notation: unknown keys {sorted(extra)}")


def _fill_common(fields: _Fields, t: Table) -> None:
    """Read the public tokens into ``t`` (a fresh table of the right config)."""
    t.to_move = _owner(fields.get("to"), "to")
    if t.to_move < 0:
        raise NotationError("to= must be 0 or 1")
    phase = fields.get("phase")
    if phase not in PHASE_NAMES:
        raise NotationError(f"phase must be one of {', '.join(PHASE_NAMES)}")
    t.phase = Phase(PHASE_NAMES.index(phase))
    n = fields.get("n")
    if not n.isdigit():
        raise NotationError("n= must be a number")
    t.counter = int(n)
    t.scout_left, t.scout_n = fields.ints("scout", 2, "0.0")
    t.ret_left = fields.ints("ret", 1, "0")[0]
    excess = fields.get("excess", "")
    t.excess = tuple(int(x) for x in excess.split(".")) if excess else ()
    if any(not 0 <= i < NUM_SIDES for i in t.excess):
        raise NotationError("excess= holds side indices 0-17")
    st = fields.ints("st", (5, 7), "0.0.0.0.0")
    t.passes, t.noops = st[0], st[1]
    t.turn_passed, t.turn_noop, t.turn_claims = bool(st[2]), bool(st[3]), bool(st[4])
    if len(st) == 7:
        t.idle, t.turn_claimed = st[5], bool(st[6])
    t.tactics_played = fields.ints("tp", 2, "0.0")
    t.leaders = fields.ints("lead", 1, "0")[0]
    for f in range(NUM_FLAGS):
        parts = fields.get(f"f{f + 1}", "-///").split("/")
        if len(parts) != 4:
            raise NotationError(f"f{f + 1}= needs claim/side0/side1/environment")
        t.claimed[f] = _owner(parts[0], f"claim of flag {f + 1}")
        for p in (0, 1):
            cards, colon, done = parts[1 + p].partition(":")
            t.sides[f * 2 + p] = _parse_cards(cards)
            if colon and not done.isdigit():
                raise NotationError(f"f{f + 1}=: completion time must be a number")
            t.completed[f * 2 + p] = int(done) if colon else -1
        env = re.fullmatch(r"(?:F([01]))?(?:M([01]))?", parts[3])
        if env is None:
            raise NotationError(f"f{f + 1}=: environment is like F0M1")
        t.fog[f] = int(env.group(1)) if env.group(1) else -1
        t.mud[f] = int(env.group(2)) if env.group(2) else -1
    for p in (0, 1):
        t.discards[p] = _parse_cards(fields.get(f"d{p}", ""))
        t.guile[p] = _parse_cards(fields.get(f"g{p}", ""))
    result = fields.get("result", "")
    if result:
        bits = result.split(":")
        if len(bits) not in (2, 3) or bits[0] not in ("-", "0", "1"):
            raise NotationError("result= is WINNER:REASON[:DETAIL]")
        try:
            reason = Termination(unquote(bits[1]))
        except ValueError:
            raise NotationError(f"result= has an unknown reason {unquote(bits[1])!r}") from None
        t.out = Outcome(None if bits[0] == "-" else int(bits[0]), reason, None,
                        unquote(bits[2]) if len(bits) == 3 else "")
        if t.phase != OVER:
            raise NotationError("result= requires phase=over")


def _new_table(fields: _Fields) -> Table:
    """A fresh table of the ruleset, options and battlefields the tokens name."""
    name = fields.get("ruleset")
    if name not in RULESET_BY_NAME:
        raise NotationError(f"unknown ruleset {name!r}")
    opts: dict[str, str] = {}
    text = fields.get("opts", "")
    for item in text.split(",") if text else ():
        key, colon, value = item.partition(":")
        if not colon:
            raise NotationError(f"opts= items are name:value, not {item!r}")
        opts[key] = value
    try:
        cfg: Config = make_config(name, opts)
    except ValueError as exc:
        raise NotationError(str(exc)) from exc
    bf_ids: tuple[int, ...] = ()
    bf_up = 0
    bf = fields.get("bf", "")
    if cfg.variant.battlefields:
        m = re.fullmatch(r"([1-9]{9}):(\d+)", bf)
        if m is None or sorted(m.group(1)) != list("123456789") or int(m.group(2)) >= 512:
            raise NotationError("bf= is the nine battlefield numbers then :face-up mask, e.g. 123456789:0")
        bf_ids = tuple(int(ch) - 1 for ch in m.group(1))
        bf_up = int(m.group(2))
    elif bf:
        raise NotationError("bf= only in rulesets with battlefields")
    return Table(*setup(cfg, bf_ids, bf_up))


def parse_position(text: str) -> Table:
    """Inverse of :func:`state_to_text`; checks that every card is in exactly one place."""
    fields = _Fields(text, "position")
    t = _new_table(fields)
    try:
        _fill_common(fields, t)
        for p in (0, 1):
            for item in filter(None, fields.get(f"h{p}").split(".")):
                c, knowers = _parse_marked(item)
                t.hands[p] |= 1 << c
                _set_known(t.known, c, knowers)
        decks = [("td", t.tdeck)] + ([("xd", t.xdeck)] if t.cfg.variant.tactics else [])
        for name, deck in decks:
            for item in filter(None, fields.get(name).split(".")):
                c, knowers = _parse_marked(item)
                deck.insert(0, c)
                _set_known(t.known, c, knowers)
        fields.finish()
    except (ValueError, IndexError) as exc:
        if isinstance(exc, NotationError):
            raise
        raise NotationError(f"position notation: {exc}") from exc
    t.public = table_mask(t)
    check_cards(t)
    for i, side in enumerate(t.sides):
        if (len(side) >= t.capacity(i // 2)) != (t.completed[i] >= 0):
            raise NotationError(f"f{i // 2 + 1}=: a side has a completion time (:N) exactly when it is complete")
    return t


def parse_view_table(text: str) -> tuple[Table, int | None]:
    """Inverse of :func:`view_to_text`: the masked table and its viewer. The caller checks
    that some real position agrees with it (``notation.parse_view``)."""
    fields = _Fields(text, "view")
    who = fields.get("view")
    if who not in ("0", "1", "spectator"):
        raise NotationError("view= is 0, 1 or spectator")
    viewer = None if who == "spectator" else int(who)
    t = _new_table(fields)
    try:
        _fill_common(fields, t)
        t.public = table_mask(t)
        for p in (0, 1):
            items = fields.get(f"h{p}").split(".")
            if items and items[0].startswith("?"):
                if p == viewer or len(items) < 3:
                    raise NotationError(f"h{p}=: a hidden hand is ?TROOPS.TACTICS.KNOWN[.CARDS]")
                nums = [items[0][1:], items[1], items[2]]
                if not all(x.isdigit() for x in nums):
                    raise NotationError(f"h{p}=: counts must be numbers")
                seen = 0
                for code in items[3:]:
                    seen |= 1 << parse_card(code)
                unknowns = list(t.hand_unknown)
                unknowns[p] = Unknown(int(nums[0]), int(nums[1]), int(nums[2]))
                t.hand_unknown = (unknowns[0], unknowns[1])
                t.hands[p] = seen
                if viewer is not None:
                    t.known[viewer] |= seen
            else:
                if p != viewer:
                    raise NotationError(f"h{p}=: only the viewer's own hand is shown")
                for item in filter(None, items):
                    c, knowers = _parse_marked(item)
                    t.hands[p] |= 1 << c
                    if knowers:
                        t.known[1 - p] |= 1 << c
        decks = [("td", t.tdeck)] + ([("xd", t.xdeck)] if t.cfg.variant.tactics else [])
        for name, deck in decks:
            parts = fields.get(name).split(",")
            if not parts[0].startswith("#") or not parts[0][1:].isdigit():
                raise NotationError(f"{name}= starts with #SIZE")
            size = int(parts[0][1:])
            deck += [unknown(0)] * size
            for item in parts[1:]:
                place, eq, code = item.partition("=")
                pos_text, tilde, who_text = place.partition("~")
                if not pos_text.isdigit() or not tilde or who_text not in ("0", "1", "01"):
                    raise NotationError(f"{name}=: marks are POS~WHO[=CARD], not {item!r}")
                pos = int(pos_text)
                if pos >= size:
                    raise NotationError("view notation: inconsistent knowledge marks or counts")
                knowers = 3 if who_text == "01" else 1 << int(who_text)
                if eq:
                    c = parse_card(code)
                    deck[size - 1 - pos] = c
                    _set_known(t.known, c, knowers)
                else:
                    deck[size - 1 - pos] = unknown(knowers)
        fields.finish()
    except (ValueError, IndexError) as exc:
        if isinstance(exc, NotationError):
            raise
        raise NotationError(f"view notation: {exc}") from exc
    return t, viewer


def _set_known(known: list[int], c: int, knowers: int) -> None:
    if knowers & 1:
        known[0] |= 1 << c
    if knowers & 2:
        known[1] |= 1 << c


def table_mask(t: Table) -> int:
    """Every card face up: at flags, Fog/Mud, discards and guile areas."""
    m = 0
    for side in t.sides:
        for c in side:
            m |= 1 << c
    for p in (0, 1):
        for c in t.discards[p] + t.guile[p]:
            m |= 1 << c
    for f in range(NUM_FLAGS):
        if t.fog[f] >= 0:
            m |= 1 << FOG
        if t.mud[f] >= 0:
            m |= 1 << MUD
    return m


def check_cards(t: Table) -> None:
    """Each card of the ruleset in exactly one place; raises NotationError otherwise."""
    seen: dict[int, str] = {}

    def put(c: int, where: str) -> None:
        if c in seen:
            raise NotationError(f"card {_CODES[c]} is both in {seen[c]} and in {where}")
        seen[c] = where

    for i, side in enumerate(t.sides):
        for c in side:
            put(c, f"flag {i // 2 + 1}")
    for f in range(NUM_FLAGS):
        if t.fog[f] >= 0:
            put(FOG, f"flag {f + 1}")
        if t.mud[f] >= 0:
            put(MUD, f"flag {f + 1}")
    for p in (0, 1):
        for c in t.discards[p]:
            put(c, f"discards {p}")
        for c in t.guile[p]:
            put(c, f"guile {p}")
        for c in cards_of(t.hands[p]):
            put(c, f"hand {p}")
    for c in t.tdeck:
        put(c, "the troop deck")
    for c in t.xdeck:
        put(c, "the tactics deck")
    variant = t.cfg.variant
    expected = variant.troop_mask | (((1 << NUM_CARDS) - 1) ^ ((1 << NUM_TROOPS) - 1) if variant.tactics else 0)
    got = sum(1 << c for c in seen)
    if got != expected:
        missing = [_CODES[c] for c in range(NUM_CARDS) if (expected & ~got) >> c & 1]
        extra = [_CODES[c] for c in range(NUM_CARDS) if (got & ~expected) >> c & 1]
        raise NotationError(f"cards missing {missing} or not in this ruleset {extra}")
    if any(c >= NUM_TROOPS for c in t.tdeck) or any(c < NUM_TROOPS for c in t.xdeck):
        raise NotationError("a card is in the wrong deck")
