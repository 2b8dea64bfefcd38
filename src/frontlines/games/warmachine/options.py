"""The ``warmachine`` ruleset and its options: one per choice docs/rules.md §6.10 lists.

Defaults are the answers given there (A1-A18 are that section's labels).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from frontlines.core.game import OptionSpec, Ruleset

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("shuffler", "random", ("random", "0", "1"),
               "who shuffles (rules §6.2): 0 = P1, 1 = P2; the other player chooses 1 or 2 leftover cards. "
               "random: drawn from the seed",
               label="Who shuffles", words=("Random", "First seat", "Second seat"),
               about="who shuffles (rules §6.2); the other player chooses 1 or 2 leftover cards. Random: drawn by lot"),
    OptionSpec("leftover_choice_blind", "true", ("true", "false"),
               "A5: the chooser takes the leftover cards unseen (false: looks at all three and picks)",
               label="Leftover cards are taken unseen", words=("Yes", "No"),
               about="the chooser takes the leftover cards unseen (no: looks at all three and picks)"),
    OptionSpec("burn_anytime", "true", ("true", "false"),
               "A8: burning is a free alternative to deploying (false: only when no deployment is legal)",
               label="A card may be burned at any time", words=("Yes", "No"),
               about="burning is a free alternative to deploying (no: only when no deployment is legal)"),
    OptionSpec("burn_visibility", "face_down", ("face_down", "face_up"),
               "A9: whether cards burned by the burn action are shown to the opponent",
               label="Burned cards", words=("Hidden", "Shown"),
               about="whether cards burned by the burn action are shown to the opponent"),
    OptionSpec("battle_timing", "after_draw_step", ("after_draw_step", "after_each_draw"),
               "A10: battles of emptied piles start after the whole draw step (or after each single draw)",
               label="When battles start", words=("After the whole draw step", "After each draw"),
               about="battles of emptied piles start after the whole draw step (or after each single draw)"),
    OptionSpec("tie_reference_p1", "farthest", ("farthest", "neighbour", "none"),
               "A11: a tie at P1 (next to the box) follows P6 (farthest), P2 (neighbour) or has no winner (none)",
               label="A tie at the battle next to the box",
               words=("Follows the farthest battle", "Follows its neighbour", "No winner"),
               about="a tie at P1 (next to the box) follows P6 (farthest), P2 (neighbour) or has no winner"),
    OptionSpec("pending_closed", "true", ("true", "false"),
               "A13: a tied, pending battle is closed to new forces (false: open, and a force that breaks the tie wins it)",
               label="A tied battle is closed to new forces", words=("Yes", "No"),
               about="a tied, pending battle is closed to new forces (no: open, and a force that breaks the tie wins it)"),
    OptionSpec("hand_scoring", "per_half", ("per_half", "per_card"),
               "A14: a card in hand scores 1 per end whose country you won (per_card: 1 if either end matches)",
               label="Cards left in hand score", words=("1 per end whose country you won", "1 if either end matches"),
               about="a card in hand scores 1 per end whose country you won (or: 1 if either end matches)"),
    OptionSpec("final_tiebreak", "nearest_with_winner", ("nearest_with_winner", "p1_only"),
               "A15: equal scores go to the winner of the battle nearest the box that has one (p1_only: P1 or a draw)",
               label="Equal scores",
               words=("Nearest battle with a winner decides", "Only the battle next to the box, else a draw"),
               about="equal scores go to the winner of the battle nearest the box that has one (or: P1 only, else a draw)"),
    OptionSpec("match", "single", ("single", "best_of_3"),
               "one game, or a best-of-three match carried by one state (the next game is dealt when one ends)",
               label="Match", words=("One game", "Best of three"),
               about="one game, or a best-of-three match carried by one state (the next game is dealt when one ends)"),
)

RULESET = Ruleset(
    name="warmachine",
    game="warmachine",
    title="War Machine",
    options=OPTIONS,
    description="30 double-ended cards, six countries, a war front of three cards and six support piles (docs/rules.md §6).",
)


@dataclass(frozen=True, slots=True)
class Opts:
    """Resolved options as plain flags, for the hot paths."""

    shuffler: int  # -1 = from the seed
    blind: bool
    burn_anytime: bool
    burn_face_up: bool
    each_draw: bool
    tie_p1: int  # reference position of P1 (index), or -1 for no reference
    pending_closed: bool
    per_card: bool
    p1_only: bool
    best_of_3: bool
    names: tuple[tuple[str, str], ...]  # the resolved options, for notation

    @classmethod
    def resolve(cls, given: Mapping[str, str] | None) -> Opts:
        o = RULESET.resolve_options(given)
        return cls(
            shuffler=-1 if o["shuffler"] == "random" else int(o["shuffler"]),
            blind=o["leftover_choice_blind"] == "true",
            burn_anytime=o["burn_anytime"] == "true",
            burn_face_up=o["burn_visibility"] == "face_up",
            each_draw=o["battle_timing"] == "after_each_draw",
            tie_p1={"farthest": 5, "neighbour": 1, "none": -1}[o["tie_reference_p1"]],
            pending_closed=o["pending_closed"] == "true",
            per_card=o["hand_scoring"] == "per_card",
            p1_only=o["final_tiebreak"] == "p1_only",
            best_of_3=o["match"] == "best_of_3",
            names=tuple(o.items()),
        )

    def non_default(self) -> list[tuple[str, str]]:
        defaults = {s.name: s.default for s in OPTIONS}
        return [(k, v) for k, v in self.names if defaults[k] != v]


DEFAULT_OPTS = Opts.resolve(None)
