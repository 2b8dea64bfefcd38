// The rules options' words (each option's label, each choice's words, its help for players)
// come from the core with /api/rulesets (OptionSpec.label, .words, .about): one source for the
// web app and the terminal; web/i18n.py lists them for the catalogs.

/** An option's help in players' words (the command line's help, should an option lack them). */
export function helpText(o) { return o.about || o.help || ""; }

// What a ruleset that calls its flags otherwise says instead (the view's and the ruleset's
// `place_name`; Schotten Totten's boundary stones, docs/rules.md §4.1), and its other words
// where they differ (clan cards for troop cards; its tactic cards' names in the rules
// options): key, the Battle Line
// words; value, the words for that ruleset. `t()` in common.js picks them once a view (or
// the home page's chosen ruleset) has said what its places are;
// web/i18n.py reads this object (plain JSON between the braces) to list them for the catalogs,
// and a test fails on a message that speaks of flags or troops without its words here.
export const PLACE_WORDS = {
  "stone": {
    "Pick a card from your hand, or claim a flag.": "Pick a card from your hand, or claim a stone.",
    "{tactic}: pick a flag to move it to, or discard it.": "{tactic}: pick a stone to move it to, or discard it.",
    "{tactic}: pick the flag to put it at.": "{tactic}: pick the stone to put it at.",
    "Pick a flag for {card}.": "Pick a stone for {card}.",
    "Flag {n}": "Stone {n}",
    "Play to flag {n}": "Play to stone {n}",
    "Claim flag {n}": "Claim stone {n}",
    "{card} to flag {flag}": "{card} to stone {flag}",
    "claim flag {flag}": "claim stone {flag}",
    "{tactic}: move {card} to flag {flag}": "{tactic}: move {card} to stone {flag}",
    "{tactic}: take {card} to flag {flag}": "{tactic}: take {card} to stone {flag}",
    "Put on a flag: formations do not count there, only the sum of the cards.": "Put on a stone: combinations do not count there, only the sum of the cards.",
    "Put on a flag: each side needs four cards there instead of three.": "Put on a stone: each side needs four cards there instead of three.",
    "Move one of your cards at an undecided flag to another undecided flag, or discard it.": "Move one of your cards at an undecided stone to another undecided stone, or discard it.",
    "Discard one of the opponent's cards at an undecided flag.": "Discard one of the opponent's cards at an undecided stone.",
    "Take one of the opponent's troops at an undecided flag and play it on your side.": "Take one of the opponent's clan cards at an undecided stone and play it on your side.",
    "claim timing: flags may be claimed any time before drawing, not now": "claim timing: stones may be claimed any time before drawing, not now",
    "claim timing: flags may be claimed only after playing a card": "claim timing: stones may be claimed only after playing a card",
    "claim timing: flags may be claimed only before playing a card": "claim timing: stones may be claimed only before playing a card",
    "flag {flag} is already claimed": "stone {flag} is already claimed",
    "your side of flag {flag} is full": "your side of stone {flag} is full",
    "{card} is not one of your cards at an unclaimed flag": "{card} is not one of your cards at an unclaimed stone",
    "{card} is not one of your opponent's cards at an unclaimed flag": "{card} is not one of your opponent's cards at an unclaimed stone",
    "flag {flag} is claimed: its cards can no longer be moved": "stone {flag} is claimed: its cards can no longer be moved",
    "{card} moves a card to another flag": "{card} moves a card to another stone",
    "there is no card at an unclaimed flag that {card} could take": "there is no card at an unclaimed stone that {card} could take",
    "no flag can take {card} now": "no stone can take {card} now",
    "When flags may be claimed": "When stones may be claimed",
    "It loses the flag": "It loses the stone",
    "More claimed flags wins": "More claimed stones wins",
    "When Mud leaves a flag": "When Mud Fight leaves a stone",
    "Scout when the decks are nearly empty": "Headhunter when the decks are nearly empty",
    "Redeploy and Deserter may take Fog and Mud": "Strategist and Banshee may take Blind-Man's Bluff and Mud Fight",
    "when flags may be claimed: any time before the draw, only after the card play, or only before it": "when stones may be claimed: any time before the draw, only after the card play, or only before it",
    "when both players are stuck for good: more claimed flags wins, or the game is drawn (house rule)": "when both players are stuck for good: more claimed stones wins, or the game is drawn (house rule)",
    "how many cards Scout returns when the decks held fewer than three": "how many cards Headhunter returns when the decks held fewer than three",
    "whether Redeploy and Deserter may move or remove Fog and Mud": "whether Strategist and Banshee may move or remove Blind-Man's Bluff and Mud Fight",
    "a side left with 4 cards when Mud goes: judge its best 3, or its owner discards one": "a side left with 4 cards when Mud Fight goes: judge its best 3, or its owner discards one",
    "Troop deck: {n} card": "Clan deck: {n} card",
    "Troop deck: {n} cards": "Clan deck: {n} cards",
    "Troops you have not seen yet are marked ○; seen ones ●.": "Clan cards you have not seen yet are marked ○; seen ones ●.",
    "draw a troop card": "draw a clan card",
    "{tactic}: pick an opponent's troop to take.": "{tactic}: pick an opponent's clan card to take.",
    "you may pass only when no troop card can be played": "you may pass only when no clan card can be played",
    "the troop deck is empty": "the clan deck is empty",
    "only {left} unseen troop cards left and they need {need}: their side can never be completed": "only {left} unseen clan cards left and they need {need}: their side can never be completed",
    "only {left} unseen troop card left and they need {need}: their side can never be completed": "only {left} unseen clan card left and they need {need}: their side can never be completed",
    "no unseen troop cards can beat your {mine}": "no unseen clan cards can beat your {mine}"
  }
};

// What each tactics card does, keyed by the card's English name (the view's `card_names`), so
// Schotten Totten and Medieval cards get their own words (docs/rules.md §2.16-2.19, §4.2): the
// table's popovers (common.js) and the rules pages (web/rules_summary.py) read it. Plain JSON.
export const CARD_RULES = {
  "Alexander": "Leader: any colour and any value, chosen when the flag is decided. One leader per player.",
  "Darius": "Leader: any colour and any value, chosen when the flag is decided. One leader per player.",
  "King of England": "Leader: any colour and any value, chosen when the flag is decided. One leader per player.",
  "King of France": "Leader: any colour and any value, chosen when the flag is decided. One leader per player.",
  "Joker": "Any colour and any value from 1 to 9, chosen when the stone is decided. One joker per player.",
  "Companion Cavalry": "Any colour, value 8.",
  "King's Guard": "Any colour, value 8.",
  "Spy": "Any colour, value 7.",
  "Shield Bearers": "Any colour, value 1, 2 or 3.",
  "Shield-Bearer": "Any colour, value 1, 2 or 3.",
  "Fog": "Put on a flag: formations do not count there, only the sum of the cards.",
  "Blind-Man's Bluff": "Put on a flag: formations do not count there, only the sum of the cards.",
  "Mud": "Put on a flag: each side needs four cards there instead of three.",
  "Mud Fight": "Put on a flag: each side needs four cards there instead of three.",
  "Scout": "Draw three cards from the decks, then put two cards of your hand back on top.",
  "Spies": "Draw three cards from the decks, then put two cards of your hand back on top.",
  "Headhunter": "Draw three cards from the decks, then put two cards of your hand back under them.",
  "Redeploy": "Move one of your cards at an undecided flag to another undecided flag, or discard it.",
  "Strategist": "Move one of your cards at an undecided flag to another undecided flag, or discard it.",
  "Deserter": "Discard one of the opponent's cards at an undecided flag.",
  "Banshee": "Discard one of the opponent's cards at an undecided flag.",
  "Traitor": "Take one of the opponent's troops at an undecided flag and play it on your side."
};
