"""Text forms of Battle Line family actions, positions and views (docs/notation.md).

Action text follows docs/contracts.md. Position notation is one line of ``key=value``
tokens after the game name; tokens at their default value are left out so that each
position has exactly one text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

from frontlines.core.errors import NotationError
from frontlines.core.game import Outcome, Termination
from frontlines.games.battleline.cards import (
    DESERTER,
    FOG,
    MUD,
    NUM_CARDS,
    NUM_TROOPS,
    REDEPLOY,
    SCOUT,
    TRAITOR,
    card_code,
    parse_card,
)
from frontlines.games.battleline.rules import GAME, RULESET_BY_NAME, make_config
from frontlines.games.battleline.state import (
    CLAIM_BASE,
    DESERTER_BASE,
    DRAW_TACTICS,
    DRAW_TROOP,
    END,
    EXCESS_BASE,
    NUM_ACTIONS,
    NUM_FLAGS,
    PASS,
    PHASE_NAMES,
    PLAY_BASE,
    REDEPLOY_BASE,
    RETURN_BASE,
    SCOUT_PLAY,
    SCOUT_TACTICS,
    SCOUT_TROOP,
    TRAITOR_BASE,
    BattleLineState,
)

if TYPE_CHECKING:
    from frontlines.games.battleline.view import BattleLineView

_CODES = tuple(card_code(c) for c in range(NUM_CARDS))
_FIXED = {
    PASS: "pass", DRAW_TROOP: "draw:troop", DRAW_TACTICS: "draw:tactics", END: "end",
    SCOUT_PLAY: "SC", SCOUT_TROOP: "scout:troop", SCOUT_TACTICS: "scout:tactics",
}
_FIXED_BY_TEXT = {v.lower(): k for k, v in _FIXED.items()}
_NOT_PLAYABLE_AT_FLAG = {SCOUT, REDEPLOY, DESERTER, TRAITOR}


# --- actions -------------------------------------------------------------------------------
def action_to_text(action: object) -> str:
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        raise NotationError(f"not a Battle Line action: {action!r}")
    a = action
    if a < CLAIM_BASE:
        c, f = divmod(a - PLAY_BASE, 9)
        if c in _NOT_PLAYABLE_AT_FLAG:
            raise NotationError(f"not a Battle Line action: {a}")
        return f"{_CODES[c]}@{f + 1}"
    if a < PASS:
        return f"claim:{a - CLAIM_BASE + 1}"
    fixed = _FIXED.get(a)
    if fixed is not None:
        return fixed
    if RETURN_BASE <= a < RETURN_BASE + NUM_CARDS:
        return f"return:{_CODES[a - RETURN_BASE]}"
    if REDEPLOY_BASE <= a < DESERTER_BASE:
        c, t = divmod(a - REDEPLOY_BASE, 10)
        if c in _NOT_PLAYABLE_AT_FLAG:
            raise NotationError(f"not a Battle Line action: {a}")
        return f"RE:{_CODES[c]}>{'x' if t == 9 else t + 1}"
    if DESERTER_BASE <= a < DESERTER_BASE + NUM_CARDS:
        c = a - DESERTER_BASE
        if c in _NOT_PLAYABLE_AT_FLAG:
            raise NotationError(f"not a Battle Line action: {a}")
        return f"DE:{_CODES[c]}"
    if TRAITOR_BASE <= a < EXCESS_BASE:
        c, g = divmod(a - TRAITOR_BASE, 9)
        return f"TR:{_CODES[c]}>{g + 1}"
    if EXCESS_BASE <= a < EXCESS_BASE + NUM_CARDS:
        return f"discard:{_CODES[a - EXCESS_BASE]}"
    raise NotationError(f"not a Battle Line action: {a}")


def _flag(text: str, whole: str) -> int:
    if len(text) != 1 or not "1" <= text <= "9":
        raise NotationError(f"{whole!r}: flags are 1-9, not {text!r}")
    return int(text) - 1


def parse_action(text: str) -> int:
    """Inverse of :func:`action_to_text`; raises :class:`NotationError`."""
    if not isinstance(text, str):
        raise NotationError(f"action text must be a string, not {type(text).__name__}")
    t = text.strip()
    if not t or len(t) > 16:
        raise NotationError(f"not an action: {text[:40]!r}")
    fixed = _FIXED_BY_TEXT.get(t.lower())
    if fixed is not None:
        return fixed
    head, colon, rest = t.partition(":")
    head_l = head.lower()
    if colon:
        if head_l == "claim":
            return CLAIM_BASE + _flag(rest, t)
        if head_l == "return":
            return RETURN_BASE + parse_card(rest)
        if head_l == "discard":
            return EXCESS_BASE + parse_card(rest)
        if head_l in ("re", "tr"):
            card_text, gt, target = rest.partition(">")
            if not gt:
                raise NotationError(f"{t!r}: expected {head.upper()}:CARD>FLAG")
            c = parse_card(card_text)
            if head_l == "re":
                if c in _NOT_PLAYABLE_AT_FLAG:
                    raise NotationError(f"{t!r}: Redeploy moves a card at a flag, not {card_code(c)}")
                return REDEPLOY_BASE + c * 10 + (9 if target.lower() == "x" else _flag(target, t))
            if c >= NUM_TROOPS:
                raise NotationError(f"{t!r}: Traitor takes troop cards only")
            return TRAITOR_BASE + c * 9 + _flag(target, t)
        if head_l == "de":
            c = parse_card(rest)
            if c in _NOT_PLAYABLE_AT_FLAG:
                raise NotationError(f"{t!r}: Deserter removes a card at a flag, not {card_code(c)}")
            return DESERTER_BASE + c
        raise NotationError(f"not an action: {t!r}")
    card_text, at, flag = t.partition("@")
    if at:
        c = parse_card(card_text)
        if c in _NOT_PLAYABLE_AT_FLAG:
            raise NotationError(f"{t!r}: {card_code(c)} is not played at a flag")
        return PLAY_BASE + c * 9 + _flag(flag, t)
    raise NotationError(f"not an action: {t!r} (e.g. R7@3, claim:3, draw:troop, pass, end, SC, RE:R7>5, DE:B3, TR:B3>4)")


# --- positions -----------------------------------------------------------------------------
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


def _common_tokens(s: BattleLineState | BattleLineView) -> list[str]:
    """Tokens shared by a state and a view (all public information)."""
    cfg = s.cfg
    spec = RULESET_BY_NAME[cfg.variant.name]
    defaults = {o.name: o.default for o in spec.options}
    tokens = [f"ruleset={cfg.variant.name}"]
    changed = [f"{k}:{v}" for k, v in cfg.options if defaults.get(k) != v]
    if changed:
        tokens.append("opts=" + ",".join(changed))
    if s.bf_ids:
        tokens.append("bf=" + "".join(str(i + 1) for i in s.bf_ids) + f":{s.bf_up}")
    tokens.append(f"to={s.to_move}")
    tokens.append(f"phase={PHASE_NAMES[s.phase]}")
    tokens.append(f"n={s.counter}")
    if s.scout_n:
        tokens.append(f"scout={s.scout_left}.{s.scout_n}")
    if s.ret_left:
        tokens.append(f"ret={s.ret_left}")
    if s.excess:
        tokens.append("excess=" + ".".join(str(i) for i in s.excess))
    flags = (s.passes, s.noops, int(s.turn_passed), int(s.turn_noop), int(s.turn_claims))
    if any(flags):
        tokens.append("st=" + ".".join(map(str, flags)))
    if any(s.tactics_played):
        tokens.append(f"tp={s.tactics_played[0]}.{s.tactics_played[1]}")
    if s.leaders:
        tokens.append(f"lead={s.leaders}")
    for f in range(NUM_FLAGS):
        claim = "-" if s.claimed[f] < 0 else str(s.claimed[f])
        parts = [claim]
        for p in (0, 1):
            side = _cards_text(s.sides[f * 2 + p])
            done = s.completed[f * 2 + p]
            parts.append(side + (f":{done}" if done >= 0 else ""))
        env = ("" if s.fog[f] < 0 else f"F{s.fog[f]}") + ("" if s.mud[f] < 0 else f"M{s.mud[f]}")
        parts.append(env)
        text = "/".join(parts)
        if text != "-///":
            tokens.append(f"f{f + 1}={text}")
    for p in (0, 1):
        if s.discards[p]:
            tokens.append(f"d{p}={_cards_text(s.discards[p])}")
        if s.guile[p]:
            tokens.append(f"g{p}={_cards_text(s.guile[p])}")
    if s.out is not None:
        winner = "-" if s.out.winner is None else str(s.out.winner)
        result = f"{winner}:{quote(s.out.reason, safe='')}"
        if s.out.detail:
            result += f":{quote(s.out.detail, safe='')}"
        tokens.append(f"result={result}")
    return tokens


def state_to_text(s: BattleLineState) -> str:
    tokens = [GAME, *_common_tokens(s)]
    for p in (0, 1):
        items = []
        m = s.hands[p]
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            items.append(_CODES[c] + _marks(_knowers(s.known, c)))
        tokens.append(f"h{p}=" + ".".join(items))
    decks = [("td", s.tdeck)] + ([("xd", s.xdeck)] if s.cfg.variant.tactics else [])
    for name, deck in decks:
        tokens.append(f"{name}=" + ".".join(_CODES[c] + _marks(_knowers(s.known, c)) for c in reversed(deck)))
    return " ".join(tokens)


def _knowers(known: list[int], c: int) -> int:
    return (known[0] >> c & 1) | (known[1] >> c & 1) << 1


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

    def ints(self, key: str, count: int, default: str) -> list[int]:
        text = self.get(key, default)
        items = text.split(".")
        if len(items) != count or not all(x.isdigit() for x in items):
            raise NotationError(f"{self.kind} notation: {key}= needs {count} numbers separated by '.'")
        return [int(x) for x in items]

    def finish(self) -> None:
        extra = set(self.values) - self.used
        if extra:
            raise NotationError(f"{self.kind} notation: unknown keys {sorted(extra)}")


def _fill_common(fields: _Fields, s: BattleLineState | BattleLineView) -> None:
    """Read the public tokens into ``s`` (a fresh state or view of the right config)."""
    s.to_move = _owner(fields.get("to"), "to")
    if s.to_move < 0:
        raise NotationError("to= must be 0 or 1")
    phase = fields.get("phase")
    if phase not in PHASE_NAMES:
        raise NotationError(f"phase must be one of {', '.join(PHASE_NAMES)}")
    s.phase = PHASE_NAMES.index(phase)
    n = fields.get("n")
    if not n.isdigit():
        raise NotationError("n= must be a number")
    s.counter = int(n)
    s.scout_left, s.scout_n = fields.ints("scout", 2, "0.0")
    s.ret_left = fields.ints("ret", 1, "0")[0]
    excess = fields.get("excess", "")
    s.excess = tuple(int(x) for x in excess.split(".")) if excess else ()
    if any(not 0 <= i < 2 * NUM_FLAGS for i in s.excess):
        raise NotationError("excess= holds side indices 0-17")
    st = fields.ints("st", 5, "0.0.0.0.0")
    s.passes, s.noops = st[0], st[1]
    s.turn_passed, s.turn_noop, s.turn_claims = bool(st[2]), bool(st[3]), bool(st[4])
    s.tactics_played = fields.ints("tp", 2, "0.0")
    s.leaders = fields.ints("lead", 1, "0")[0]
    for f in range(NUM_FLAGS):
        parts = fields.get(f"f{f + 1}", "-///").split("/")
        if len(parts) != 4:
            raise NotationError(f"f{f + 1}= needs claim/side0/side1/environment")
        s.claimed[f] = _owner(parts[0], f"claim of flag {f + 1}")
        for p in (0, 1):
            cards, colon, done = parts[1 + p].partition(":")
            s.sides[f * 2 + p] = _parse_cards(cards)
            if colon and not done.isdigit():
                raise NotationError(f"f{f + 1}=: completion time must be a number")
            s.completed[f * 2 + p] = int(done) if colon else -1
        env = re.fullmatch(r"(?:F([01]))?(?:M([01]))?", parts[3])
        if env is None:
            raise NotationError(f"f{f + 1}=: environment is like F0M1")
        s.fog[f] = int(env.group(1)) if env.group(1) else -1
        s.mud[f] = int(env.group(2)) if env.group(2) else -1
    for p in (0, 1):
        s.discards[p] = _parse_cards(fields.get(f"d{p}", ""))
        s.guile[p] = _parse_cards(fields.get(f"g{p}", ""))
    result = fields.get("result", "")
    if result:
        bits = result.split(":")
        if len(bits) not in (2, 3) or bits[0] not in ("-", "0", "1"):
            raise NotationError("result= is WINNER:REASON[:DETAIL]")
        try:
            reason = Termination(unquote(bits[1]))
        except ValueError:
            raise NotationError(f"result= has an unknown reason {unquote(bits[1])!r}") from None
        s.out = Outcome(None if bits[0] == "-" else int(bits[0]), reason, None,
                        unquote(bits[2]) if len(bits) == 3 else "")
        if s.phase != PHASE_NAMES.index("over"):
            raise NotationError("result= requires phase=over")


def _config_of(fields: _Fields) -> tuple[Any, tuple[int, ...], int]:
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
        cfg = make_config(name, opts)
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
    return cfg, bf_ids, bf_up


def parse_state(text: str) -> BattleLineState:
    """Inverse of :func:`state_to_text`; checks that every card is in exactly one place."""
    fields = _Fields(text, "position")
    cfg, bf_ids, bf_up = _config_of(fields)
    s = BattleLineState(cfg, bf_ids, bf_up)
    try:
        _fill_common(fields, s)
        for p in (0, 1):
            for item in filter(None, fields.get(f"h{p}").split(".")):
                c, knowers = _parse_marked(item)
                s.hands[p] |= 1 << c
                _set_known(s.known, c, knowers)
        decks = [("td", s.tdeck)] + ([("xd", s.xdeck)] if cfg.variant.tactics else [])
        for name, deck in decks:
            for item in filter(None, fields.get(name).split(".")):
                c, knowers = _parse_marked(item)
                deck.insert(0, c)
                _set_known(s.known, c, knowers)
        fields.finish()
    except (ValueError, IndexError) as exc:
        if isinstance(exc, NotationError):
            raise
        raise NotationError(f"position notation: {exc}") from exc
    s.public = table_mask(s)
    check_cards(s)
    for i, side in enumerate(s.sides):
        if (len(side) >= s.capacity(i // 2)) != (s.completed[i] >= 0):
            raise NotationError(f"f{i // 2 + 1}=: a side has a completion time (:N) exactly when it is complete")
    return s


def _set_known(known: list[int], c: int, knowers: int) -> None:
    if knowers & 1:
        known[0] |= 1 << c
    if knowers & 2:
        known[1] |= 1 << c


def table_mask(s: BattleLineState | BattleLineView) -> int:
    """Every card face up: at flags, Fog/Mud, discards and guile areas."""
    m = 0
    for side in s.sides:
        for c in side:
            m |= 1 << c
    for p in (0, 1):
        for c in s.discards[p] + s.guile[p]:
            m |= 1 << c
    for f in range(NUM_FLAGS):
        if s.fog[f] >= 0:
            m |= 1 << FOG
        if s.mud[f] >= 0:
            m |= 1 << MUD
    return m


def check_cards(s: BattleLineState) -> None:
    """Each card of the ruleset in exactly one place; raises NotationError otherwise."""
    seen: dict[int, str] = {}

    def put(c: int, where: str) -> None:
        if c in seen:
            raise NotationError(f"card {_CODES[c]} is both in {seen[c]} and in {where}")
        seen[c] = where

    for i, side in enumerate(s.sides):
        for c in side:
            put(c, f"flag {i // 2 + 1}")
    for f in range(NUM_FLAGS):
        if s.fog[f] >= 0:
            put(FOG, f"flag {f + 1}")
        if s.mud[f] >= 0:
            put(MUD, f"flag {f + 1}")
    for p in (0, 1):
        for c in s.discards[p]:
            put(c, f"discards {p}")
        for c in s.guile[p]:
            put(c, f"guile {p}")
        m = s.hands[p]
        while m:
            low = m & -m
            put(low.bit_length() - 1, f"hand {p}")
            m ^= low
    for c in s.tdeck:
        put(c, "the troop deck")
    for c in s.xdeck:
        put(c, "the tactics deck")
    variant = s.cfg.variant
    expected = variant.troop_mask | (((1 << NUM_CARDS) - 1) ^ ((1 << NUM_TROOPS) - 1) if variant.tactics else 0)
    got = sum(1 << c for c in seen)
    if got != expected:
        missing = [_CODES[c] for c in range(NUM_CARDS) if (expected & ~got) >> c & 1]
        extra = [_CODES[c] for c in range(NUM_CARDS) if (got & ~expected) >> c & 1]
        raise NotationError(f"cards missing {missing} or not in this ruleset {extra}")
    if any(c >= NUM_TROOPS for c in s.tdeck) or any(c < NUM_TROOPS for c in s.xdeck):
        raise NotationError("a card is in the wrong deck")


def build_state(fragment: str) -> BattleLineState:
    """A position from a partial notation, for tests, puzzles and examples.

    ``fragment`` holds any tokens of the position notation, with or without the leading
    game name; missing ``ruleset``/``to``/``phase``/``n``/``h0``/``h1`` default to
    ``battleline``/0/``play``/0/empty. Every card not placed goes to the place named by
    the extra token ``rest=`` (``decks``, the default: troops to the troop deck and
    tactics to the tactics deck, below any deck cards given; or ``h0``, ``h1``, ``d0``,
    ``d1``).
    """
    tokens = fragment.split()
    if tokens and tokens[0] == GAME:
        tokens = tokens[1:]
    values: dict[str, str] = {}
    for token in tokens:
        key, eq, value = token.partition("=")
        if not eq:
            raise NotationError(f"expected key=value, got {token!r}")
        values[key] = value
    rest = values.pop("rest", "decks")
    if rest not in ("decks", "h0", "h1", "d0", "d1"):
        raise NotationError("rest= is decks, h0, h1, d0 or d1")
    for key, default in (("ruleset", "battleline"), ("to", "0"), ("phase", "play"), ("n", "0"), ("h0", ""),
                         ("h1", "")):
        values.setdefault(key, default)
    ruleset = values["ruleset"]
    variant = make_config(ruleset, None).variant if ruleset in RULESET_BY_NAME else None
    if variant is None:
        raise NotationError(f"unknown ruleset {ruleset!r}")
    if variant.battlefields:
        values.setdefault("bf", "123456789:0")
    values.setdefault("td", "")
    if variant.tactics:
        values.setdefault("xd", "")
    used = 0
    for key, value in values.items():
        if key in ("h0", "h1", "td", "xd", "d0", "d1", "g0", "g1") or re.fullmatch(r"f[1-9]", key):
            for code in re.findall(r"(?<![A-Za-z0-9])(?:[ROYGBP](?:10|[1-9])|AL|DA|CC|SB|FO|MU|SC|RE|DE|TR)(?![0-9])",
                                   value if key[0] != "f" else value.split("/", 1)[1] if "/" in value else value):
                used |= 1 << parse_card(code)
            if key[0] == "f":
                env = value.split("/")[-1] if value.count("/") == 3 else ""
                if "F" in env:
                    used |= 1 << FOG
                if "M" in env:
                    used |= 1 << MUD
    everything = variant.troop_mask | ((((1 << NUM_CARDS) - 1) ^ ((1 << NUM_TROOPS) - 1)) if variant.tactics else 0)
    left = [c for c in range(NUM_CARDS) if (everything & ~used) >> c & 1]
    if rest == "decks":
        troops = [_CODES[c] for c in left if c < NUM_TROOPS]
        tactics = [_CODES[c] for c in left if c >= NUM_TROOPS]
        values["td"] = ".".join(filter(None, [values["td"], *troops]))
        if variant.tactics:
            values["xd"] = ".".join(filter(None, [values["xd"], *tactics]))
    else:
        values[rest] = ".".join(filter(None, [values.get(rest, ""), *(_CODES[c] for c in left)]))
    return parse_state(" ".join([GAME, *(f"{k}={v}" for k, v in values.items())]))
