"""The sentences of the rules summaries (``/rules/<ruleset>``, built by ``rules_summary.py``):
msgids of the ``learn`` catalog, most of them the tutorials' own (learn.py), so the summary and
the lesson say the same thing in the same words. Data only: web/i18n.py reads them to extract
and place the messages, without the pages' machinery.
"""

from __future__ import annotations

# --- the sentences (msgids; the tutorials' where they say the same) --------------------------
BL_AIM = (
    "Battle Line is a duel over nine flags. You win by claiming five flags, or three flags side by side.",
    "Your cards are at the bottom; the opponent's side of each flag is at the top. On your turn you play one "
    "card from your hand to your side of a flag, then draw a card.",
    "The 60 troop cards are the values 1 to 10 in six colours, and you hold seven of them.",
    "Each side of a flag takes three cards. When both sides are complete, the stronger formation wins the flag.",
)
BL_FORMATIONS = (
    "Wedge: three cards of one colour in sequence (red 8, 9, 10).",
    "Phalanx: three cards of the same value (three 7s).",
    "Battalion Order: three cards of one colour.",
    "Skirmish Line: three cards in sequence, of any colours.",
    "Host: any three cards. Between two equal formations the higher sum wins.",
)
MEDIEVAL_NAMES = (
    "Battle Line: Medieval is Battle Line with medieval names. Formations, strongest first: Wedge, Square "
    "(three of one value), Column (one colour), Skirmish (a run) and Rabble (anything else). The leaders are "
    "the King of England and the King of France.",
)
BL_CLAIMS = (
    "Claims by proof: you may claim a flag as soon as you can prove that nothing the opponent could still "
    "add there beats your side, even while their side is incomplete.",
    "If both formations and their sums are equal, the flag goes to whoever completed their side first.",
)
PROOF_TABLE_ONLY = "A proof counts only the cards face up on the table: every card in a hand is unseen, yours too."
BL_TACTICS = (
    "Tactics cards: ten special cards in a deck of their own. After your play you may draw from either "
    "deck. A tactics card is played instead of a troop card.",
    "The tactics limit: you may never have played two tactics cards more than your opponent.",
)
MEDIEVAL_BATTLEFIELDS = (
    "Nine battlefield cards lie at the flags. Face up, each one changes the rules where it lies: its name and "
    "its rule are under the flag. These rules are our house set, not the publisher's text.",
    "Battlefields face down: none of them changes the rules. They are turned over when the game ends.",
)
ST_AIM = (
    "Schotten Totten: two clans fight over nine boundary stones. Claim five stones, or "
    "three side by side, to win.",
    "The 54 clan cards are the values 1 to 9 in six colours, and you hold six of them. On your turn, play one "
    "card to your side of a stone, then draw.",
    "Each side of a stone takes three cards. When both sides are complete, the stronger combination wins the "
    "stone.",
)
ST_TACTICAL_HAND = "In the tactical variant you hold seven cards, and ten tactic cards join the game."
ST_COMBINATIONS = (
    "Colour Run: three cards of one colour in sequence.",
    "Three of a Kind: three cards of the same value.",
    "Colour: three cards of one colour.",
    "Run: three cards in sequence, of any colours.",
    "Sum: any three cards. Between two equal combinations the higher sum wins.",
)
ST_CLAIMS = (
    "Claims by proof: a stone may be claimed as soon as you can prove that no cards the opponent could still "
    "add there beat your side, even while their side is incomplete.",
    "If both combinations and their sums are equal, the stone goes to whoever completed their side first.",
)
ST_TACTICS = (
    "Tactic cards: ten special cards in a deck of their own. After your play you may draw from either deck. "
    "A tactic card is played instead of a clan card.",
    "You may never have played two tactic cards more than your opponent.",
)
WM_AIM = (
    "War Machine: six countries fight, each for itself. The front shows six positions, P1 nearest the game "
    "box to P6. Each is a country, drawn as a war machine (worth 2 points to whoever conquers it) or as "
    "infantry (1 point).",
    "Each card has two ends: the war machine of one country (strength 2) and the infantry of another "
    "(strength 1).",
    "Beside each position lies its support pile of four cards. One player moves first with one card in hand, "
    "the other second with two.",
)
WM_TURN = (
    "On your turn, send one card from your hand to a position with the end you choose upright, then take "
    "support cards from the piles.",
    "A war machine brings you one support card; infantry brings two.",
    "The colour rules: at each position you send one country for the whole game (your first card there "
    "fixes it), never the country itself, and never the country the opponent sends there.",
    "Instead of sending a card you may burn one: it leaves the game, and you take one support card.",
)
WM_BATTLES = (
    "A battle starts when its pile runs out; the stronger side wins the country. A tie goes to whoever wins "
    "the battle next to it, nearer the box.",
    "The game ends when the last support card is taken. You score 2 or 1 points for each country you won, as "
    "the front shows it, and 1 point for each end of a card left in your hand whose country you won.",
)

# headings and the page's own words
AIM, FORMATIONS, COMBINATIONS, CLAIMS, TACTICS, TACTIC_CARDS, BATTLEFIELDS, TURN, BATTLES = (
    "Aim and turn", "Formations, strongest first", "Combinations, strongest first", "Claims",
    "Tactics cards", "Tactic cards", "Battlefields", "The turn", "Battles and the score")

TUTORIAL_OF = {"battleline": "battleline", "battleline-basic": "battleline", "schotten-totten": "schotten-totten",
               "schotten-totten-tactics": "schotten-totten", "medieval": "medieval", "warmachine": "warmachine"}


def messages() -> list[str]:
    """Every sentence and heading the summaries say (msgids of the ``learn`` catalog), in a
    stable order; card rules, battlefields and options are the ``messages`` catalog's."""
    found: dict[str, None] = {}
    for text in (*BL_AIM, *BL_FORMATIONS, *MEDIEVAL_NAMES, *BL_CLAIMS, PROOF_TABLE_ONLY, *BL_TACTICS,
                 *MEDIEVAL_BATTLEFIELDS, *ST_AIM, ST_TACTICAL_HAND, *ST_COMBINATIONS, *ST_CLAIMS, *ST_TACTICS,
                 *WM_AIM, *WM_TURN, *WM_BATTLES,
                 AIM, FORMATIONS, COMBINATIONS, CLAIMS, TACTICS, TACTIC_CARDS, BATTLEFIELDS, TURN, BATTLES):
        found[text] = None
    return list(found)


def battle_line_messages() -> list[str]:
    """The sentences only Battle Line and Medieval pages say (they speak of flags and troops)."""
    return [*BL_AIM, *BL_FORMATIONS, *MEDIEVAL_NAMES, *BL_CLAIMS, *BL_TACTICS, *MEDIEVAL_BATTLEFIELDS]
