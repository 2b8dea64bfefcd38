"""Build War Machine positions for golden tests without counting 30 cards by hand.

Cards not placed anywhere are put on the battle-burned pile, which no rule reads, so a
scenario only names the cards it is about.
"""

from __future__ import annotations

from frontlines.games.warmachine import MODULE, WarMachineState
from frontlines.games.warmachine.cards import ALL_CARDS, card_code, parse_cards

# P1 GER (war machine), P2 ITA (infantry), P3 JPN (wm), P4 GBR (inf), P5 USA (wm), P6 URS (inf).
FRONT = "G^IvJ^BvU^Rv"  # front cards GI, JB, UR


def _codes(text: str) -> list[int]:
    return parse_cards(text.replace("^", "").replace("v", "")) if text else []


def position(
    *,
    piles: tuple[str, str, str, str, str, str] = ("", "", "", "", "", ""),
    hands: tuple[str, str] = ("", ""),
    sides: tuple[str, ...] = (":",) * 6,
    status: str = "oooooo",
    burned_by: tuple[str, str] = ("", ""),
    to: int = 0,
    phase: str = "play",
    first: int = 0,
    shuffler: int = 1,
    opts: str = "",
    front: str = FRONT,
) -> WarMachineState:
    used: set[int] = set()
    for k in range(3):  # the front cards: the war-machine end of each pair first
        a, b = front[4 * k : 4 * k + 2], front[4 * k + 2 : 4 * k + 4]
        wm, inf = (a, b) if a[1] == "^" else (b, a)
        used.update(parse_cards(wm[0] + inf[0]))
    for text in (*piles, *hands, *burned_by):
        used.update(_codes(text))
    for s in sides:
        for part in s.split(":"):
            used.update(parse_cards("".join(part[k : k + 2] for k in range(0, len(part), 3))))
    rest = "".join(card_code(c) for c in ALL_CARDS if c not in used)
    text = " ".join([
        "warmachine",
        *([f"opts={opts}"] if opts else []),
        f"front={front}",
        "piles=" + "/".join(piles),
        "hands=" + "/".join(hands),
        "sides=" + "/".join(sides),
        f"status={status}",
        f"burned={rest}/{burned_by[0]}/{burned_by[1]}",
        "leftover=",
        *(["dealt=/"] if "leftover_choice_blind:false" in opts else []),
        *(["match=5:1:"] if "match:best_of_3" in opts else []),
        f"shuffler={shuffler}",
        f"first={first}",
        f"to={'-' if phase == 'over' else to}",
        f"phase={phase}",
    ])
    return MODULE.parse_state(text)


def play(state: WarMachineState, moves: str) -> WarMachineState:
    for text in moves.split():
        state.apply(state.parse_action(text))
    return state


def texts(state: WarMachineState) -> set[str]:
    return {state.action_to_text(a) for a in state.legal_actions()}
