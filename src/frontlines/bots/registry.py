"""Bot specs: the short text naming a bot on the command line and in the arena.

Grammar: ``NAME`` or ``NAME:key=value,key=value``, or ``cmd:<command line>`` for an
external engine (``cmd:proto=NAME:<command line>`` picks a protocol other than the
default, ``classic:<command line>`` is short for ``cmd:proto=classic:<command line>``).
Examples: ``random``, ``heuristic``, ``heuristic:noise=0.2``, ``ismcts``,
``ismcts:time=0.5``, ``ismcts:iterations=2000,workers=2``, ``easy``, ``expert``,
``cmd:python3 mybot.py``. This module is the one place that reads the grammar:

>>> parse_spec("ismcts:time=0.5,workers=2")
BotSpec(text='ismcts:time=0.5,workers=2', name='ismcts', options={'time': '0.5', 'workers': '2'}, command='', protocol='')
>>> parse_spec("cmd:python3 my_bot.py").command, parse_spec("classic:./engine").classic
('python3 my_bot.py', True)

>>> from frontlines.games import new_state
>>> state = new_state("warmachine", seed=2)
>>> bot = make_bot("heuristic", seed=1)  # a bot sees only the view of its seat
>>> state.action_to_text(bot.choose(state.view(state.current_player())))
'take2'
>>> make_bot("ismcts:time=0.5,bogus=1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: unknown ismcts option 'bogus'; known: time, iterations, ...
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from frontlines.bots.base import Bot, Clock
from frontlines.bots.levels import LEVELS, RULESET_SPECS, describe_level, level_spec
from frontlines.core.game import Action, View

if TYPE_CHECKING:
    from frontlines.bots.ismcts import SearchParams
    from frontlines.bots.pimc import PimcParams

_DESCRIPTIONS: dict[str, str] = {
    "random": "uniformly random legal action, but always takes a provable claim",
    "heuristic": "fast rule-of-thumb play (formation odds, flag weights, tactics); option noise=0..1",
    "ismcts": "Information Set MCTS; options time=SECONDS, iterations=N, workers=N, exploration=C, "
    "epsilon=E, rollout_depth=D, horizon=H, late_horizon=H, late_from=F, eval_samples=N, eval_scale=S, "
    "late_eval_samples=N, late_eval_scale=S, eval_hand=0|1, max_nodes=N, eval_weight=W",
    "pimc": "perfect-information sampling with common random numbers: every candidate move judged on the same "
    "sampled deals against the opponent's best reply there; options deals=N, width=N, all_below=N, replies=N, "
    "reply=min|own, follow=N, rank=full|cheap, eval_hand=0|1, net=0|1, endgame=0|1, endgame_nodes=N, refine=N, refine_deals=N, "
    "refine_follow=N, refine_margin=M, late_from=F, late_follow=N, late_replies=N, late_deals=N, exact_deck=N, "
    "exact_nodes=N, time=SECONDS (a safety cap)",
    "netply": "the flag network one ply deep (Battle Line family, needs numpy: frontlines[ai]); options "
    "temperature=T, epsilon=E, draws=N, weights=FILE",
    "cmd": "external engine: cmd:<command line> (or cmd:proto=NAME:<command line>)",
    "openspiel": "an OpenSpiel search (extra frontlines[rl]): openspiel:ismcts or openspiel:mcts, options "
    "simulations=N, uct_c=C, rollouts=N, world_samples=N (ismcts)",
}


def list_bots() -> list[tuple[str, str]]:
    """(spec, description) of every built-in bot and level."""
    out = [(name, text) for name, text in _DESCRIPTIONS.items()]
    out += [(level, f"{text} (= {describe_level(level)})") for level, (_, text) in LEVELS.items()]
    return out


class LevelBot(Bot):
    """A level whose spec depends on the ruleset (``levels.RULESET_SPECS``): each game is
    played by the bot of its ruleset's spec, made on first use and kept for the next games."""

    def __init__(self, level: str, seed: int | None = None) -> None:
        self.name = level
        self._seed = seed
        self._bots: dict[str, Bot] = {}
        self._last: Bot | None = None

    def bot_for(self, ruleset: str) -> Bot:
        """The bot that plays ``ruleset`` (made on first use)."""
        spec = self.spec(ruleset)
        bot = self._bots.get(spec)
        if bot is None:
            bot = self._bots[spec] = make_bot(spec, self._seed)
        self._last = bot
        return bot

    def spec(self, ruleset: str) -> str:
        """The spec that plays ``ruleset``."""
        return level_spec(self.name, ruleset)

    def new_game(self, ruleset: str, seat: int, seed: int | None = None) -> None:
        self.bot_for(ruleset).new_game(ruleset, seat, seed)

    def choose(self, view: View, clock: Clock | None = None) -> Action:
        # the view's ruleset, not the last new_game's: a caller that skips new_game is still
        # answered by the right bot
        return self.bot_for(view.ruleset).choose(view, clock)

    def info(self) -> dict[str, Any]:
        return {} if self._last is None else self._last.info()

    def close(self) -> None:
        for bot in self._bots.values():
            bot.close()


def _parse_options(name: str, text: str) -> dict[str, str]:
    options: dict[str, str] = {}
    if not text:
        return options
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise ValueError(f"bad option {item!r} in bot spec {name!r}: options are key=value separated by commas")
        if key in options:
            raise ValueError(f"option {key!r} given twice for bot {name!r}")
        options[key] = value
    return options


# Bot kinds an optional extra provides: found by module path only when a spec names one (as
# the cli finds its commands), so this layer never imports an extra. name -> (module, its
# factory taking (options, spec text, seed), the extra to install).
EXTRA_KINDS: dict[str, tuple[str, str, str]] = {
    "openspiel": ("frontlines.rl.openspiel_bot", "make_openspiel_bot", "rl"),
}

# The protocol a ``cmd:`` engine speaks unless its spec names one (the arena's --protocol
# changes it for a whole match).
DEFAULT_PROTOCOL = "frontlines"
_EXTERNAL = {"cmd": None, "classic": "classic"}  # prefix -> the protocol it implies


@dataclass(frozen=True)
class BotSpec:
    """A bot spec, read: a built-in bot (``name`` and ``options``) or an external engine
    (``name`` ``cmd``, its ``command`` line and the ``protocol`` it speaks)."""

    text: str
    name: str
    options: dict[str, str] = field(default_factory=dict)
    command: str = ""
    protocol: str = ""

    @property
    def external(self) -> bool:
        return bool(self.command)

    @property
    def classic(self) -> bool:
        """An engine speaking the classic protocol (the arena plays it under classic rules)."""
        return self.protocol == "classic"


def parse_spec(spec: str, protocol: str = DEFAULT_PROTOCOL) -> BotSpec:
    """Read ``spec`` (``protocol`` for a ``cmd:`` engine that names none); ``ValueError`` if malformed.

    Names are checked by :func:`make_bot`, not here: reading a spec starts nothing.
    """
    text = spec.strip()
    if not text:
        raise ValueError("empty bot spec; try one of: " + ", ".join(name for name, _ in list_bots()))
    head, _, rest = text.partition(":")
    prefix = head.strip().lower()
    if prefix in _EXTERNAL and ":" in text:
        command = rest.strip()
        protocol = _EXTERNAL[prefix] or protocol
        if command.startswith("proto="):
            protocol, _, command = command[6:].partition(":")
        if not command.strip() or not protocol:
            raise ValueError(f"{prefix}: needs a command line, e.g. {prefix}:python3 mybot.py")
        return BotSpec(text, "cmd", command=command.strip(), protocol=protocol)
    if prefix == "openspiel":  # openspiel:ALGORITHM,key=value,...: the algorithm comes first
        algorithm, _, more = rest.partition(",")
        return BotSpec(text, prefix, {**_parse_options(prefix, more.strip()), "algorithm": algorithm.strip().lower()})
    return BotSpec(text, prefix, _parse_options(prefix, rest.strip()))


def _number(name: str, key: str, value: str, kind: Callable[[str], Any]) -> Any:
    try:
        return kind(value)
    except ValueError:
        raise ValueError(f"option {key}={value!r} of bot {name!r} must be {kind.__name__}") from None


def search_params(options: dict[str, str]) -> SearchParams:
    """ISMCTS parameters from ``ismcts:`` spec options (text values); ``ValueError`` names a bad one."""
    from frontlines.bots.ismcts import INTEGER_PARAMS, SearchParams

    kinds: dict[str, Callable[[str], Any]] = {f.name: int if f.name in INTEGER_PARAMS else float for f in fields(SearchParams)}
    values: dict[str, Any] = {}
    for key, value in options.items():
        kind = kinds.get(key)
        if kind is None:
            raise ValueError(f"unknown ismcts option {key!r}; known: {', '.join(kinds)}")
        values[key] = _number("ismcts", key, value, kind)
    if "iterations" in values and "time" not in values:
        values["time"] = None  # an iteration budget alone is what makes a search reproducible
    params = SearchParams(**values)
    params.check()
    return params


def _make_ismcts(options: dict[str, str], seed: int | None) -> Bot:
    from frontlines.bots.ismcts import ISMCTSBot

    return ISMCTSBot(seed=seed, params=search_params(options))


def pimc_params(options: dict[str, str]) -> PimcParams:
    """Sampling-search parameters from ``pimc:`` spec options (text values); ``ValueError`` names a bad one."""
    from frontlines.bots.pimc import INTEGER_PARAMS, PimcParams

    values: dict[str, Any] = {}
    names = [f.name for f in fields(PimcParams)]
    for key, value in options.items():
        if key not in names:
            raise ValueError(f"unknown pimc option {key!r}; known: {', '.join(names)}")
        kind: Callable[[str], Any] = int if key in INTEGER_PARAMS else str if key in ("reply", "rank") else float
        values[key] = _number("pimc", key, value, kind)
    params = PimcParams(**values)
    params.check()
    return params


def make_bot(spec: str | BotSpec, seed: int | None = None, *, protocol: str = DEFAULT_PROTOCOL, **external: Any) -> Bot:
    """Build the bot named by ``spec``; ``ValueError`` with a clear message for a bad spec.

    ``protocol`` is what a ``cmd:`` engine speaks unless its spec says; ``external`` goes to
    :func:`frontlines.bots.external.make_external` (timeouts, working directory).
    """
    parsed = spec if isinstance(spec, BotSpec) else parse_spec(spec, protocol)
    name, options, text = parsed.name, parsed.options, parsed.text
    if parsed.external:
        from frontlines.bots.external import make_external

        bot: Bot = make_external(parsed.command, protocol=parsed.protocol, seed=seed, **external)
        return bot
    extra = EXTRA_KINDS.get(name)
    if extra is not None:
        module_path, factory, package = extra
        try:
            module = importlib.import_module(module_path)
        except ImportError as exc:
            raise ValueError(f"{name} bots need the extra: pip install 'frontlines[{package}]' ({exc})") from None
        made: Bot = getattr(module, factory)(options, text, seed)
        return made
    if name in LEVELS:
        if options:
            raise ValueError(f"level {name!r} takes no options (it is {describe_level(name)!r}; use that spec to tune it)")
        bot = LevelBot(name, seed) if name in RULESET_SPECS else make_bot(LEVELS[name][0], seed)
        bot.name = name
        return bot
    if name == "random":
        if options:
            raise ValueError("bot 'random' takes no options")
        from frontlines.bots.random_bot import RandomBot

        return RandomBot(seed=seed)
    if name == "heuristic":
        from frontlines.bots.heuristic import HeuristicBot

        unknown = set(options) - {"noise", "samples"}
        if unknown:
            raise ValueError(f"unknown heuristic option {sorted(unknown)[0]!r}; known: noise, samples")
        noise = _number(name, "noise", options.get("noise", "0"), float)
        samples = _number(name, "samples", options.get("samples", "0"), int)
        bot = HeuristicBot(seed=seed, noise=noise, samples=samples)
        if options:
            bot.name = text
        return bot
    if name == "pimc":
        from frontlines.bots.pimc import PimcBot

        bot = PimcBot(seed=seed, params=pimc_params(options))
        if options:
            bot.name = text
        return bot
    if name == "netply":
        from frontlines.bots.net.player import make_netply

        bot = make_netply(options, seed)
        if options:
            bot.name = text
        return bot
    if name == "ismcts":
        bot = _make_ismcts(options, seed)
        if options:
            bot.name = text
        return bot
    known = ", ".join(n for n, _ in list_bots())
    raise ValueError(f"unknown bot {name!r}; known: {known}")
