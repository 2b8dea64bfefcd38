"""The tutorials ("Learn to play"): a scripted position per step, the player's move checked by
the real engine, then by the script.

Each :class:`Tutorial` is a list of :class:`Step`: what to read, what to do (one move the
script expects, or a refused card to look at), and what the engine plays next (the draw, the
opponent's reply). A step starts from its own position (a Battle Line fragment for
``notation.build_state``, or a full position's notation) or from where the step before it
ended. The player's move is first judged by the rules (``State.why_not``: a refused move says
why, in words), then against the script (a legal move the step does not ask for gets a
hint). The texts are the ``learn`` catalog's msgids; the rules they teach are docs/rules.md's
(§2 Battle Line, §4 Schotten Totten, §5 Medieval, §6 War Machine). The last step leads to a
real game against the ``easy`` bot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from frontlines.core.errors import FrontlinesError
from frontlines.core.game import State
from frontlines.games import game_module, parse_state
from frontlines.games.battleline.notation import build_state


@dataclass(frozen=True)
class Step:
    """One step: read ``say``; then make the move ``do`` asks (any of them; ``*`` at the end
    matches any ending), or click the refused hand card ``refuse``, or just go on. ``done`` is
    said once it is made, after the engine plays ``then``. ``position`` starts the step afresh."""

    say: tuple[str, ...]
    do: tuple[str, ...] = ()
    refuse: str = ""
    done: tuple[str, ...] = ()
    then: tuple[str, ...] = ()
    position: str = ""

    @property
    def task(self) -> str:
        return "move" if self.do else "refuse" if self.refuse else "read"

    def accepts(self, text: str) -> bool:
        return any(text == d or (d.endswith("*") and text.startswith(d[:-1])) for d in self.do)


@dataclass(frozen=True)
class Tutorial:
    key: str
    ruleset: str
    title: str
    summary: str
    steps: tuple[Step, ...]
    options: tuple[tuple[str, str], ...] = ()  # the rules options of the game against ``easy`` at the end


WRONG_MOVE = "That move is allowed, but this step asks for another one: read the text again."

# --- Battle Line, with tactics (docs/rules.md §2) -------------------------------------------
_BL_START = "ruleset=battleline h0=R8.R9.R10.Y5.Y6.G2.P3 h1=B3.B4.B6.O2.O7.G8.G9 td=Y7.P9.O1.Y1.R1.R2"
# flag 1 won with the red wedge; yellow 5-6-7 complete at flag 2 against green 8-9
_BL_PROOF = ("ruleset=battleline n=8 f1=0/R8.R9.R10:5/B1/ f2=-/Y5.Y6.Y7:7/G8.G9/ f5=-//B3.B4/ f6=-/G7// "
             "h0=G10.P3.R1.O4.Y1.Y2.P6 h1=B6.O2.O7.P9.O1.R2.B8")
_BL_TACTICS = "f1=0/R8.R9.R10:5/B1/ f2=0/Y5.Y6.Y7:7/G8.G9/ f3=-/G10// f6=-/G7// n=10 "

BATTLE_LINE = Tutorial("battleline", "battleline", "Battle Line, with tactics",
    "Formations, claims by proof and all ten tactics cards, in about twenty steps.", (
    Step(("Battle Line is a duel over nine flags. You win by claiming five flags, or three flags side by side.",
          "Your cards are at the bottom; the opponent's side of each flag is at the top. On your turn you play one "
          "card from your hand to your side of a flag, then draw a card."), position=_BL_START),
    Step(("Play the red 8 to flag 1: pick the card in your hand, then the + at flag 1.",),
         do=("R8@1",), done=("Each side of a flag takes three cards. When both sides are complete, the stronger "
                             "formation wins the flag.",)),
    Step(("End your turn by drawing a card: pick the troop deck. Your hand goes back to seven cards.",),
         do=("draw:troop",), then=("B3@5", "draw:troop"), done=("The opponent played the blue 3 to flag 5 and drew.",)),
    Step(("Formations, strongest first:",
          "Wedge: three cards of one colour in sequence (red 8, 9, 10).",
          "Phalanx: three cards of the same value (three 7s).",
          "Battalion Order: three cards of one colour.",
          "Skirmish Line: three cards in sequence, of any colours.",
          "Host: any three cards. Between two equal formations the higher sum wins.")),
    Step(("Build a wedge: play the red 9 to flag 1. From now on your draw and the opponent's reply follow by "
          "themselves.",), do=("R9@1",), then=("draw:troop", "B4@5", "draw:troop"),
         done=("The opponent answered with the blue 4 at flag 5.",)),
    Step(("Complete the wedge: play the red 10 to flag 1.",), do=("R10@1",),
         done=("Red 8, 9, 10: a wedge of the highest values, the strongest side there is.",)),
    Step(("Claims by proof: you may claim a flag as soon as you can prove that nothing the opponent could still "
          "add there beats your side, even while their side is incomplete.",
          "No cards can beat your wedge (a tie would go to you, who completed first). Claim flag 1 with the button "
          "under it."), do=("claim:1",), then=("draw:troop", "B6@5", "draw:troop"),
         done=("Flag 1 is yours. Why the proof holds: {proof}. You claim on your turn, before you draw.",)),
    Step(("Now a claim that cannot be proven yet. At flag 2 your yellow 5, 6, 7 is complete, but the opponent's "
          "green 8 and 9 could still become a stronger wedge with the green 10.",
          "Under the flag the page shows the cards the opponent could still use. The proof uses only what is face "
          "up on the table: your own hand counts as unseen too."), position=_BL_PROOF),
    Step(("You hold the green 10. Play it to flag 3: once it is on the table, nobody can make that wedge.",),
         do=("G10@3",), done=("Look at flag 2: the claim can be proven now.",)),
    Step(("Claim flag 2.",), do=("claim:2",), done=("Two flags are yours.",)),
    Step(("Tactics cards: ten special cards in a deck of their own. After your play you may draw from either "
          "deck. A tactics card is played instead of a troop card.",
          "The tactics limit: you may never have played two tactics cards more than your opponent.",
          "Alexander and Darius are leaders: each counts as any colour and any value, chosen when the flag is "
          "decided. Play Alexander to flag 4, next to your blue 9 and 10: a wedge."),
         position=_BL_TACTICS + "f4=-/B9.B10// tp=0.0 h0=AL.DA.CC.R1.O4.Y1.P6 h1=B6.O2.O7.P9.O1.R2.B8",
         do=("AL@4",), done=("Alexander became the blue 8: a wedge of 8, 9, 10.",)),
    Step(("You have played one tactics card, your opponent none: the tactics limit refuses every other tactics "
          "card now. Click the Companion Cavalry in your hand to read why.",),
         position=_BL_TACTICS + "f4=-/B9.B10.AL:11// tp=1.0 lead=1 h0=DA.CC.R1.O4.Y1.P6.R3 h1=B6.O2.O7.P9.O1.R2.B8",
         refuse="CC"),
    Step(("The opponent has played a tactics card too, so the limit lets you play again. But each player may "
          "play only one leader in a game: click Darius to read why it is refused.",),
         position=_BL_TACTICS + "f4=-/B9.B10.AL:11// tp=1.1 lead=1 g1=DE d0=O3 "
                  "h0=DA.CC.R1.O4.Y1.P6.R3 h1=B6.O2.O7.P9.O1.R2.B8",
         refuse="DA"),
    Step(("Companion Cavalry is an 8 of any colour. Play it to flag 7, next to your yellow 9 and 10.",),
         position=_BL_TACTICS + "f4=-/B9.B10.AL:11// f7=-/Y9.Y10// tp=1.1 lead=1 g1=DE d0=O3 "
                  "h0=DA.CC.R1.O4.Y1.P6.R3 h1=B6.O2.O7.P9.O1.R2.B8",
         do=("CC@7",), done=("Yellow 8, 9, 10: another wedge.",)),
    Step(("Shield Bearers is a 1, 2 or 3 of any colour. Play it to flag 4 with your purple 1 and 2.",),
         position=_BL_TACTICS + "f4=-/P1.P2// tp=2.2 lead=1 h0=SB.R1.O4.Y1.P6.R3.Y2 h1=B6.O2.O7.P9.O1.R2.B8",
         do=("SB@4",), done=("Purple 1, 2, 3: a wedge, if a low one.",)),
    Step(("Fog: put beside a flag, it makes formations count for nothing there; only the sums of the cards are "
          "compared. The opponent's three 5s at flag 8 are a phalanx, which only a wedge or higher phalanx beats. "
          "Play Fog to flag 8.",),
         position=_BL_TACTICS + "f8=-/R7/B5.O5.P5:9/ tp=3.3 lead=1 h0=FO.R1.O4.Y1.P6.R3.Y2 h1=B6.O2.O7.P1.O1.R2.B8",
         do=("FO@8",), done=("At flag 8 only sums count now: their three 5s make 15, which your red 7 and two "
                              "more cards can beat.",)),
    Step(("Mud: put beside a flag, each side there needs four cards instead of three. Play Mud to flag 9, where "
          "the opponent's side is already complete.",),
         position=_BL_TACTICS + "f9=-/R4/B5.B6.B7:8/ tp=4.4 lead=1 h0=MU.R1.O4.Y1.P6.R3.Y2 h1=P5.O2.O7.P1.O1.R2.B8",
         do=("MU@9",), done=("Their side is incomplete again: it needs a fourth card.",)),
    Step(("Scout: draw three cards, from either deck, then put two cards from your hand back on top of their "
          "decks. Play Scout.",),
         position=_BL_TACTICS + "tp=5.5 lead=1 h0=SC.R1.O4.Y1.P6.R3.Y2 h1=P5.O2.O7.P1.O1.R2.B8",
         do=("SC",), then=("scout:troop", "scout:troop", "scout:tactics"),
         done=("You drew three cards: two troops and a tactics card.",)),
    Step(("Now put two cards back: pick them from your hand, one at a time. Put the red 1 back first.",),
         do=("return:R1",), done=("One more to go.",)),
    Step(("Put the orange 4 back too.",), do=("return:O4",),
         done=("Your hand has seven cards again, and you know what lies on top of the troop deck.",)),
    Step(("Redeploy: move one of your cards from an undecided flag to another one, or discard it. Move the red 7 "
          "from flag 8 to flag 5, where it joins your red 5 and 6.",),
         position=_BL_TACTICS + "f8=-/R7/B9.O9.P9:9/ f5=-/R5.R6/B3.B4/ tp=6.6 lead=1 "
                  "h0=RE.Y1.P6.R3.Y2.O3.G4 h1=P5.O2.O7.P1.O1.R2.B8",
         do=("RE:R7>5",), done=("Red 5, 6, 7 at flag 5: a wedge.",)),
    Step(("Deserter: discard one of the opponent's cards from an undecided flag. Discard their blue 4 at flag 5.",),
         position=_BL_TACTICS + "f5=-/R5.R6/B3.B4/ tp=7.7 lead=1 h0=DE.Y1.P6.R3.Y2.O3.G4 h1=P5.O2.O7.P1.O1.R2.B8",
         do=("DE:B4",), done=("Their side at flag 5 lost a card.",)),
    Step(("Traitor: take one of the opponent's troop cards from an undecided flag and put it on your side of any "
          "undecided flag. Take their red 7 from flag 6 to your side of flag 5.",),
         position=_BL_TACTICS + "f5=-/R5.R6/B3/ f6=-//R7.Y3/ tp=8.8 lead=1 h0=TR.Y1.P6.R3.Y2.O3.G4 h1=P5.O2.O7.P1.O1.R2.B8",
         do=("TR:R7>5",), done=("The red 7 is yours now: red 5, 6, 7.",)),
    Step(("That is the whole game: formations, claims by proof, and the ten tactics cards. Now play a real game "
          "against the Easy bot.",)),
))

# --- Schotten Totten (docs/rules.md §4.1) ------------------------------------------------------
_ST_START = "ruleset=schotten-totten h0=R7.R8.R9.Y3.Y4.G5 h1=B2.B5.O6.O8.P1.P9 td=Y6.G6.O1.G1.B9.P2"

SCHOTTEN_TOTTEN = Tutorial("schotten-totten", "schotten-totten", "Schotten Totten",
    "Combinations and claims by proof over nine boundary stones, in a few steps.", (
    Step(("Schotten Totten: two clans fight over nine boundary stones. Claim five stones, or "
          "three side by side, to win.",
          "The 54 clan cards are the values 1 to 9 in six colours, and you hold six of them. On your turn, play one "
          "card to your side of a stone, then draw."), position=_ST_START),
    Step(("Combinations, strongest first:",
          "Colour Run: three cards of one colour in sequence.",
          "Three of a Kind: three cards of the same value.",
          "Colour: three cards of one colour.",
          "Run: three cards in sequence, of any colours.",
          "Sum: any three cards. Between two equal combinations the higher sum wins.")),
    Step(("Play the red 7 to stone 1: pick the card, then the + at stone 1.",), do=("R7@1",),
         done=("In Schotten Totten you claim after your play, before you draw.",)),
    Step(("Draw a card from the deck to end your turn.",), do=("draw:troop",), then=("B5@4", "draw:troop"),
         done=("The opponent played the blue 5 to stone 4.",)),
    Step(("Play the red 8 to stone 1.",), do=("R8@1",), then=("draw:troop", "O8@4", "draw:troop"),
         done=("Your draw and the opponent's reply now follow by themselves.",)),
    Step(("Complete the colour run: play the red 9 to stone 1.",), do=("R9@1",),
         done=("Red 7, 8, 9: the strongest combination there is.",)),
    Step(("Claims by proof: a stone may be claimed as soon as you can prove that no cards the opponent could "
          "still add there beat your side. Nothing beats a red 7-8-9 run. Claim stone 1.",),
         do=("claim:1",), then=("draw:troop",),
         done=("Stone 1 is yours. Under a stone whose claim cannot be proven yet, the page shows the cards that could "
               "still beat you.",)),
    Step(("That is Schotten Totten. Now play a real game against the Easy bot.",)),
))

# --- Battle Line: Medieval, its battlefields face up (docs/rules.md §5) -------------------------
# Flags 1-9: Hill, Ford, Narrow Pass, Open Plain, Forest, Marsh, Castle, River, Village (our house set)
_MV_OPTIONS = (("battlefields", "face_up"), ("battlefield_set", "house"))
_MV_START = ("ruleset=medieval opts=battlefields:face_up,battlefield_set:house bf=123456789:511 "
             "h0=R9.R5.Y4.AL.G7.B2.P6 h1=B3.B4.B6.O2.O7.G8.G9 td=Y7.P9.O1.Y1.R1.R2")

MEDIEVAL = Tutorial("medieval", "medieval", "Battle Line: Medieval",
    "Battle Line's rules on nine battlefields that change them where they lie, in a few steps.", (
    Step(("Battle Line: Medieval is Battle Line with medieval names. Formations, strongest first: Wedge, Square "
          "(three of one value), Column (one colour), Skirmish (a run) and Rabble (anything else). The leaders are "
          "the King of England and the King of France.",
          "Nine battlefield cards lie at the flags. Face up, each one changes the rules where it lies: its name and "
          "its rule are under the flag. These rules are our house set, not the publisher's text."),
         position=_MV_START),
    Step(("The Marsh at flag 6 takes only troops of value 1 to 7. Pick your red 9: the flags that refuse it are "
          "marked. Click the mark at flag 6 to read why.",), refuse="R9",
         done=("A battlefield's rule is checked like every other rule, and the page names the battlefield that "
               "refuses a card.",)),
    Step(("The Open Plain at flag 4 takes four cards a side. Play the red 9 there. Your draw and the opponent's "
          "reply follow by themselves.",), do=("R9@4",), then=("draw:troop", "B3@3", "draw:troop"),
         done=("The opponent played the blue 3 to flag 3, the Narrow Pass, where two cards make a side.",)),
    Step(("Pick the King of England and read why flags 5 and 9 refuse him: the Forest takes no morale tactics "
          "(leaders, King's Guard, Shield Bearers), the Village no leaders.",), refuse="AL"),
    Step(("A leader takes any colour and any value, chosen when the flag is decided. Play the King of England to "
          "flag 4, next to your red 9.",), do=("AL@4",), then=("draw:troop", "B4@3", "draw:troop"),
         done=("The opponent's blue 3 and 4 are a whole side at the Narrow Pass.",)),
    Step(("The Ford at flag 2 counts only the sum of the cards, as Fog does. Play the green 7 there.",),
         do=("G7@2",), done=("At the Ford the higher sum wins, whatever the formations.",)),
    Step(("The others: at the Hill a tie goes to whoever completed their side last; the Castle may be claimed only "
          "when both sides are complete, never by proof; the River takes no Fog or Mud.",)),
    Step(("That is Medieval. Now play a real game against the Easy bot, with the battlefields face up.",)),
), options=_MV_OPTIONS)

# --- War Machine (docs/rules.md §6) ------------------------------------------------------------
# A deal of seed 7, the chooser (you) having taken one leftover card and the first move
_WM_START = ("warmachine opts=shuffler:1 front=U^IvJvR^B^Gv piles=IJJBUBGJ/JUBJIGGI/BIGBIBJR/UJRGGRRB/GUBRRIIR/"
             "BUUGIURU hands=UR/JGJI sides=:/:/:/:/:/: status=oooooo burned=// leftover= shuffler=1 first=0 to=0 "
             "phase=play")

WAR_MACHINE = Tutorial("warmachine", "warmachine", "War Machine",
    "Six countries, double-ended cards, support piles and battles, in a few steps.", (
    Step(("War Machine: six countries fight, each for itself. The front shows six positions, P1 nearest the game "
          "box to P6. Each is a country, drawn as a war machine (worth 2 points to whoever conquers it) or as "
          "infantry (1 point).",
          "Beside each position lies its support pile of four cards. You are the chooser here: you took one of the "
          "leftover cards, so you move first."), position=_WM_START),
    Step(("Each card has two ends: the war machine of one country (strength 2) and the infantry of another "
          "(strength 1). Your card is the USA's war machine and the USSR's infantry.",
          "No country attacks itself: pick your card and open the list of places it cannot go, and why."),
         refuse="UR"),
    Step(("Send your card as the USA's war machine to P4, the USSR: pick the card, then choose the war machine "
          "end at P4.",), do=("UR^4",), done=("A war machine brings you one support card; infantry brings two.",)),
    Step(("Take your support card from the pile of P5. When a position's pile runs out, its battle is fought.",), do=("draw:5",), then=("JGv4", "draw:1", "draw:2"),
         done=("The opponent sent Germany's infantry to P4 and took two support cards.",)),
    Step(("The colour rules: at each position you send one country for the whole game (your first card there "
          "fixes it), never the country itself, and never the country the opponent sends there.",
          "Pick your new card and read why some places refuse it."), refuse="IR"),
    Step(("Send it as the USSR's infantry to P6, Germany. Your two support cards and the opponent's reply follow "
          "by themselves.",), do=("IRv6",), then=("draw:6", "draw:6", "GI^2", "draw:2"),
         done=("The opponent sent Germany's war machine to P2, Italy.",)),
    Step(("Instead of sending a card you may burn one: it leaves the game, and you take one support card. Pick the "
          "card with the war machine of Italy and burn it.",), do=("burn:IU",), then=("draw:6", "JI^5", "draw:6"),
         done=("The pile of P6 ran out, so its battle was fought: your USSR infantry (1) against nothing. Germany "
               "is yours.",)),
    Step(("A battle starts when its pile runs out; the stronger side wins the country. A tie goes to whoever wins "
          "the battle next to it, nearer the box.",
          "The game ends when the last support card is taken. You score 2 or 1 points for each country you won, as "
          "the front shows it, and 1 point for each end of a card left in your hand whose country you won.")),
    Step(("That is War Machine. Now play a real game against the Easy bot.",)),
))

TUTORIALS: dict[str, Tutorial] = {t.key: t for t in (BATTLE_LINE, SCHOTTEN_TOTTEN, MEDIEVAL, WAR_MACHINE)}


class TutorialError(FrontlinesError):
    """A tutorial or step that does not exist."""


def tutorial(key: str) -> Tutorial:
    found = TUTORIALS.get(key)
    if found is None:
        raise TutorialError(f"no tutorial {key!r}")
    return found


def _position(text: str) -> State:
    return parse_state(text) if text.split(" ", 1)[0] in ("battleline", "warmachine") else build_state(text)


def start_of(tut: Tutorial, index: int) -> State:
    """The position step ``index`` starts from: its own, or the last one before it played on
    through each step's scripted move and replies."""
    if not 0 <= index < len(tut.steps):
        raise TutorialError(f"no step {index + 1} in {tut.key}")
    first = max(i for i in range(index + 1) if tut.steps[i].position or i == 0)
    state = _position(tut.steps[first].position)
    for step in tut.steps[first:index]:
        for text in (*step.do[:1], *step.then):
            state.apply(state.parse_action(text))
    return state


def step_payload(key: str, index: int) -> dict[str, Any]:
    """What the page draws for a step: its texts, its task and the learner's view (seat 0)."""
    tut = tutorial(key)
    step = tut.steps[index] if 0 <= index < len(tut.steps) else None
    state = start_of(tut, index)
    assert step is not None
    return {
        "key": tut.key, "title": tut.title, "ruleset": tut.ruleset, "options": dict(tut.options),
        "index": index, "count": len(tut.steps),
        "say": list(step.say), "task": step.task, "refuse": step.refuse, "done": list(step.done),
        "view": state.view(0).to_dict(), "last": index == len(tut.steps) - 1,
    }


def try_move(key: str, index: int, text: str) -> dict[str, Any]:
    """The learner's move at step ``index``: refused by the rules (with the reason), legal but
    not the step's (a hint), or the step's (the position after it and the engine's replies)."""
    tut = tutorial(key)
    state = start_of(tut, index)
    step = tut.steps[index]
    words = game_module(state.game).reason_words
    try:
        action = state.parse_action(text)
    except FrontlinesError:
        return {"ok": False, "reason": {"code": "not_legal", "params": {}, "words": words["not_legal"]}}
    reason = state.why_not(action)
    if reason is not None:
        return {"ok": False, "reason": reason.to_dict(words)}
    if not step.accepts(text):
        return {"ok": False, "hint": WRONG_MOVE}
    # A claim's proof as the flag showed it before the claim: once claimed, the flag has none
    # to show, and the step's words (``{proof}``) say it.
    proof = None
    if text.startswith("claim:"):
        flag = state.view(0).to_dict()["flags"][int(text.split(":", 1)[1]) - 1]
        proof = flag["claim"]
    state.apply(action)
    for reply in step.then:
        state.apply(state.parse_action(reply))
    return {"ok": True, "view": state.view(0).to_dict(), "done": list(step.done), "proof": proof}


def tutorial_list() -> list[dict[str, str]]:
    return [{"key": t.key, "title": t.title, "summary": t.summary, "ruleset": t.ruleset} for t in TUTORIALS.values()]


def tutorial_messages() -> list[str]:
    """Every text the tutorials show (msgids of the ``learn`` catalog), in a stable order."""
    found: dict[str, None] = {WRONG_MOVE: None}
    for t in TUTORIALS.values():
        found[t.title] = None
        found[t.summary] = None
        for step in t.steps:
            for text in (*step.say, *step.done):
                found[text] = None
    return list(found)
