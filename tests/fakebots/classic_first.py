"""A scripted classic-protocol bot (as community bots of 2015-16 spoke it), standard library only.

It plays the first card of its hand to the first flag with space on its side. Modes for
tests (first argument): ``ok`` (default), ``garbage`` (answers nonsense), ``illegal``
(plays a card it does not hold), ``closed`` (plays its first card to a claimed flag or
one full on its side, once there is one; else as ``ok``), ``hang`` (never answers ``go play-card``).
"""

from __future__ import annotations

import sys
import time


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    side = "north"
    hand: list[str] = []
    claims = ["unclaimed"] * 9
    mine: dict[int, list[str]] = {}
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "player" and len(words) == 3 and words[2] == "name":
            side = words[1]
            say(f"player {side} first-card")
        elif words[0] == "player" and len(words) >= 3 and words[1] == side and words[2] == "hand":
            hand = words[3:]
        elif words[:2] == ["flag", "claim-status"]:
            claims = words[2:]
        elif words[0] == "flag" and len(words) >= 4 and words[2] == "cards" and words[3] == side:
            mine[int(words[1])] = words[4:]
        elif words[:2] == ["go", "play-card"]:
            if mode == "hang":
                time.sleep(3600)
            if mode == "garbage":
                say("play the best card please")
                continue
            flag = next(i for i in range(1, 10) if claims[i - 1] == "unclaimed" and len(mine.get(i, [])) < 3)
            if mode == "closed":
                closed = [i for i in range(1, 10) if claims[i - 1] != "unclaimed" or len(mine.get(i, [])) >= 3]
                flag = closed[-1] if closed else flag
            card = hand[0]
            if mode == "illegal":
                held = set(hand)
                for m in mine.values():
                    held.update(m)
                card = next(f"color{c},{v}" for c in range(1, 7) for v in range(1, 11) if f"color{c},{v}" not in held)
            say(f"play {flag} {card}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
