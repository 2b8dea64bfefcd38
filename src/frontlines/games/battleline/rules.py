"""Rulesets of the Battle Line family and their options (docs/rules.md §1; §2-§5 explain each option).

A :class:`Variant` is the fixed part of a ruleset (deck, hand size, card names); the
options a player may change are :class:`OptionSpec` values resolved into a
:class:`Config`, the one object the state consults while it plays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from frontlines.core.game import OptionSpec, Ruleset
from frontlines.games.battleline.cards import NUM_COLOURS, TACTICS_NAMES

GAME = "battleline"

CLAIM_TIMING = OptionSpec(
    "claim_timing", "before_draw", ("before_draw", "after_play", "start_of_turn"),
    "when flags may be claimed: any time before the draw, only after the card play, or only before it",
    label="When flags may be claimed",
    words=("Any time before drawing", "Only after playing a card", "Only before playing a card"),
    about="when flags may be claimed: any time before the draw, only after the card play, or only before it",
)
CLAIM_TIMING_ST = replace(CLAIM_TIMING, default="after_play")
STALL_RULE = OptionSpec(
    "stall_rule", "final_side_loses", ("final_side_loses", "draw_after_passes"),
    "an incomplete side that can never grow loses (b), or two passes without a possible claim draw (a)",
    label="A side that can never be completed",
    words=("It loses the flag", "Drawn after two passes without a claim"),
    about="an incomplete side that can never grow loses, or two passes without a possible claim make a draw",
)
# Not in the rules: a game where neither player can ever act again (our proposal, docs/rules.md §2.14; the
# printed rules cover only the pass loop). Default: whoever holds more flags wins; ``draw`` keeps to "no winner".
STUCK_RESULT = OptionSpec(
    "stuck_result", "more_flags", ("more_flags", "draw"),
    "when both players are stuck for good: more claimed flags wins, or the game is drawn (house rule)",
    label="When both players are stuck for good",
    words=("More claimed flags wins", "The game is drawn"),
    about="when both players are stuck for good: more claimed flags wins, or the game is drawn (house rule)",
)
SCOUT_SHORT_DECK = OptionSpec(
    "scout_short_deck", "return_to_hand_size", ("return_to_hand_size", "return_drawn_minus_one"),
    "how many cards Scout returns when the decks held fewer than three",
    label="Scout when the decks are nearly empty",
    words=("Return down to the hand size", "Return one card fewer than drawn"),
    about="how many cards Scout returns when the decks held fewer than three",
)
GUILE_ENV = OptionSpec(
    "guile_can_target_environment", "false", ("false", "true"),
    "whether Redeploy and Deserter may move or remove Fog and Mud",
    label="Redeploy and Deserter may take Fog and Mud", words=("No", "Yes"),
    about="whether Redeploy and Deserter may move or remove Fog and Mud",
)
MUD_EXCESS = OptionSpec(
    "mud_removed_excess", "best_subset", ("best_subset", "owner_discards"),
    "a side left with 4 cards when Mud goes: judge its best 3, or its owner discards one",
    label="When Mud leaves a flag",
    words=("The best three cards count", "The owner discards one card"),
    about="a side left with 4 cards when Mud goes: judge its best 3, or its owner discards one",
)
FIRST_PLAYER = OptionSpec(
    "first_player", "random", ("random", "0", "1"), "who takes the first turn: 0 = P1, 1 = P2, or drawn at random",
    label="Who moves first", words=("Random", "First seat", "Second seat"), about="who takes the first turn",
)
BATTLEFIELDS = OptionSpec(
    "battlefields", "face_down", ("face_down", "face_up", "mixed"),
    "battlefield cards text side down (plain), up, or some of each",
    label="Battlefield cards", words=("Face down (no effects)", "Face up", "Some of each"),
    about="battlefield cards text side down (no effects), up, or some of each",
)
BATTLEFIELD_SET = OptionSpec(
    "battlefield_set", "plain", ("plain", "house"),
    "effects of the text sides: none, or our house set (not the publisher's text)",
    label="Battlefield effects", words=("None", "House set"),
    about="effects of the text sides: none, or our house set (not the publisher's text)",
)


@dataclass(frozen=True, slots=True)
class Variant:
    """What a ruleset fixes: the cards and the hand."""

    name: str
    max_value: int  # troop values 1..max_value
    hand_size: int
    tactics: bool
    names: str  # key of the card-name table
    schotten: bool  # Schotten Totten card values (Joker 1-9, Spy 7)
    scout_to_bottom: bool  # Headhunter returns cards under the decks
    battlefields: bool

    @property
    def troop_mask(self) -> int:
        return _TROOP_MASKS[self.max_value]


# every troop card of a deck with values 1..max_value
_TROOP_MASKS = {
    top: sum(1 << (colour * 10 + value) for colour in range(NUM_COLOURS) for value in range(top)) for top in (9, 10)
}


VARIANTS: dict[str, Variant] = {
    "battleline": Variant("battleline", 10, 7, True, "battleline", False, False, False),
    "battleline-basic": Variant("battleline-basic", 10, 7, False, "battleline", False, False, False),
    "schotten-totten": Variant("schotten-totten", 9, 6, False, "schotten-totten", True, False, False),
    "schotten-totten-tactics": Variant("schotten-totten-tactics", 9, 7, True, "schotten-totten", True, True, False),
    "medieval": Variant("medieval", 10, 7, True, "medieval", False, False, True),
}

_TACTICS_OPTIONS = (SCOUT_SHORT_DECK, GUILE_ENV, MUD_EXCESS)

# What each naming table calls the nine places fought over: Schotten Totten's boundary stones
# are its flags (docs/rules.md §4.1). User interfaces (the view's and the ruleset's
# ``place_name``) say "stone" where Battle Line says "flag".
PLACE_NAMES: dict[str, str] = {"battleline": "flag", "schotten-totten": "stone", "medieval": "flag"}
_FLAG, _STONE = PLACE_NAMES["battleline"], PLACE_NAMES["schotten-totten"]

RULESETS: tuple[Ruleset, ...] = (
    Ruleset(
        "battleline", GAME, "Battle Line",
        (CLAIM_TIMING, STALL_RULE, STUCK_RESULT, *_TACTICS_OPTIONS, FIRST_PLAYER),
        "Reiner Knizia's Battle Line (GMT): 60 troops 1-10 in six colours, 10 tactics cards, 9 flags.",
        _FLAG,
    ),
    Ruleset(
        "battleline-basic", GAME, "Battle Line (basic, no tactics)",
        (CLAIM_TIMING, STALL_RULE, STUCK_RESULT, FIRST_PLAYER),
        "Battle Line without the tactics deck.",
        _FLAG,
    ),
    Ruleset(
        "schotten-totten", GAME, "Schotten Totten",
        (CLAIM_TIMING_ST, STALL_RULE, STUCK_RESULT, FIRST_PLAYER),
        "54 clan cards 1-9, a hand of 6, no tactics.",
        _STONE,
    ),
    Ruleset(
        "schotten-totten-tactics", GAME, "Schotten Totten (tactical variant)",
        (CLAIM_TIMING_ST, STALL_RULE, STUCK_RESULT, *_TACTICS_OPTIONS, FIRST_PLAYER),
        "54 clan cards and 10 tactic cards, a hand of 7; Joker 1-9 (one per player), Spy 7, "
        "Headhunter returns cards under the decks.",
        _STONE,
    ),
    Ruleset(
        "medieval", GAME, "Battle Line: Medieval",
        (CLAIM_TIMING, STALL_RULE, STUCK_RESULT, *_TACTICS_OPTIONS, FIRST_PLAYER, BATTLEFIELDS, BATTLEFIELD_SET),
        "Battle Line rules with medieval names and nine battlefield cards (effects from data files).",
        _FLAG,
    ),
)

RULESET_BY_NAME: dict[str, Ruleset] = {r.name: r for r in RULESETS}

# Card names per naming table. Medieval names are ours (the rulebook's English names are
# unverified, docs/rules.md §5.1); the Czech review gives the formation names translated here.
CARD_NAMES: dict[str, tuple[str, ...]] = {
    "battleline": TACTICS_NAMES["battleline"],
    "schotten-totten": TACTICS_NAMES["schotten-totten"],
    "medieval": (
        "King of England", "King of France", "King's Guard", "Shield Bearers", "Fog", "Mud",
        "Spies", "Redeploy", "Deserter", "Traitor",
    ),
}
FORMATION_NAMES: dict[str, tuple[str, ...]] = {
    # index = rank - 1 (Host .. Wedge)
    "battleline": ("Host", "Skirmish Line", "Battalion Order", "Phalanx", "Wedge"),
    "schotten-totten": ("Sum", "Run", "Colour", "Three of a Kind", "Colour Run"),
    "medieval": ("Rabble", "Skirmish", "Column", "Square", "Wedge"),
}


class Config:
    """A ruleset with its options resolved: everything the state needs to know.

    Option values are turned into plain attributes once, because the state reads them on
    every move. Configs are shared (one per ruleset and option set) and never change.
    """

    __slots__ = (
        "claim_draw", "claim_play", "claim_timing", "guile_env", "options", "owner_discards",
        "scout_to_hand_size", "stall_b", "stuck_draw", "variant",
    )

    def __init__(self, variant: Variant, options: tuple[tuple[str, str], ...]) -> None:
        self.variant = variant
        self.options = options  # sorted (name, value) pairs, for notation
        self.claim_timing = self.get("claim_timing", "before_draw")
        self.claim_play = self.claim_timing != "after_play"  # claims before the card play
        self.claim_draw = self.claim_timing != "start_of_turn"  # claims after it
        self.stall_b = self.get("stall_rule", "final_side_loses") == "final_side_loses"
        self.stuck_draw = self.get("stuck_result", "more_flags") == "draw"
        self.scout_to_hand_size = self.get("scout_short_deck", "return_to_hand_size") == "return_to_hand_size"
        self.guile_env = self.get("guile_can_target_environment", "false") == "true"
        self.owner_discards = self.get("mud_removed_excess", "best_subset") == "owner_discards"

    def get(self, name: str, default: str = "") -> str:
        for key, value in self.options:
            if key == name:
                return value
        return default


_configs: dict[tuple[str, tuple[tuple[str, str], ...]], Config] = {}


def make_config(ruleset: str, options: Mapping[str, str] | None) -> Config:
    """Resolve ``options`` for ``ruleset`` (unknown names or values raise ``ValueError``)."""
    spec = RULESET_BY_NAME.get(ruleset)
    if spec is None:
        raise ValueError(f"unknown Battle Line ruleset {ruleset!r}; known: {', '.join(RULESET_BY_NAME)}")
    resolved = tuple(sorted(spec.resolve_options(options).items()))
    key = (ruleset, resolved)
    config = _configs.get(key)
    if config is None:  # configs are shared: states compare and copy them by identity
        config = _configs[key] = Config(VARIANTS[ruleset], resolved)
    return config
