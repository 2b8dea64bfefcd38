"""A scripted engine speaking our frontlines protocol, for testing the host's failure handling.

Usage: python frontlines_fake.py MODE [ARG]. Modes:
  ok            play the first legal action
  hang          never answer ``go``
  garbage       answer ``go`` with nonsense
  illegal       answer ``go`` with a well-formed but illegal action
  crash N       play N actions, then die (exit code 3) on the next ``go``
  slow S        sleep S seconds before finishing the handshake, then play like ok
  silent        exit as soon as it starts
  killhost N F  play like ok, but once (while file F does not exist) create F and kill the
                process that hosts it (an arena worker) with SIGKILL before its N-th answer
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from frontlines.games import parse_view

CANDIDATES = ["claim:1", "claim:2", "claim:3", "claim:4", "claim:5", "claim:6", "claim:7", "claim:8", "claim:9",
              "draw:tactics", "end", "pass", "R1@1", "P10@9"]


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    arg = sys.argv[2] if len(sys.argv) > 2 else "0"
    if mode == "silent":
        return 0
    view = None
    played = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "frontlines":
            say(f"id name fake-{mode}")
            say("id author tests")
            say("option name style type string default none")
            if mode == "slow":
                time.sleep(float(arg))
            say("frontlinesok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "position":
            view = parse_view(line.strip()[len("position"):].strip())
        elif words[0] == "go":
            assert view is not None
            if mode == "hang":
                time.sleep(3600)
            elif mode == "garbage":
                say("I think therefore I am")
            elif mode == "illegal":
                legal = {view.action_to_text(a) for a in view.legal_actions()}
                for text in CANDIDATES:
                    if text not in legal:
                        try:
                            view.parse_action(text)
                        except ValueError:
                            continue
                        say(f"action {text}")
                        break
            elif mode == "killhost" and played >= int(arg) and not Path(sys.argv[3]).exists():
                # The marker makes it happen once, whichever worker plays the game again.
                Path(sys.argv[3]).touch()
                os.kill(os.getppid(), signal.SIGKILL)
                sys.stdin.read()  # until the host's death closes our stdin; never answer this game
                return 0
            elif mode == "crash" and played >= int(arg):
                sys.stderr.write("fake engine: simulated crash\n")
                sys.stderr.flush()
                return 3
            else:
                say("info winprob 0.5 string first legal")
                say(f"action {view.action_to_text(view.legal_actions()[0])}")
                played += 1
        elif words[0] == "quit":
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
