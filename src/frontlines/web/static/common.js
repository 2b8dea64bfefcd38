// Shared by every page: translations, card pictures and names, remembered games.
// Plain ES module; no build step.

import { PLACE_WORDS, CARD_RULES } from "./words.js";

const LANG = document.body.dataset.lang || "en";
let catalog = {};
// What the last view calls its places ("flag"; Schotten Totten "stone"): `t()` then says the
// ruleset's own words for every message that names them (PLACE_WORDS in words.js).
let placeWords = null;
export function setPlace(name) { placeWords = (name && PLACE_WORDS[name]) || null; }

/** Load the page language's catalog (the same gettext catalog the server uses). */
export async function loadCatalog() {
  if (LANG === "en") return;
  try {
    const r = await fetch(`/i18n/${LANG}.json`);
    if (r.ok) catalog = await r.json();
  } catch (_) { /* English it is */ }
}

/** Fill `{name}` placeholders with `params`; `{name:accusative}` asks for a word's case form
 * (a Word's; any other value is the same in every case). A placeholder without a case takes
 * `inherited`, the case the sentence around this one asks of it: a phrase declines its words
 * ("{formation} ({sum})" in the accusative: "šarvátku (17)"). */
function fill(s, params, inherited = "") {
  if (!params) return s;
  return s.replace(/\{(\w+)(?::(\w+))?\}/g, (whole, key, grammaticalCase) => {
    if (!Object.prototype.hasOwnProperty.call(params, key)) return whole;
    const v = params[key];
    return v instanceof Word ? v.form(grammaticalCase || inherited) : String(v);
  });
}

/** Translate `msg` and fill `{name}` placeholders (`inherited`: see fill). */
export function t(msg, params, inherited = "") {
  const own = placeWords && placeWords[msg];
  const found = own ? catalog[own] : catalog[msg];
  return fill(typeof found === "string" && found ? found : own || msg, params, inherited);
}

// The page language's plural categories, in the order of its catalog's plural forms (the
// server's i18n.Language.plurals).
const PLURALS = (document.body.dataset.plurals || "one other").split(" ");
let pluralRules = null;
function pluralForm(n) {
  try {
    pluralRules = pluralRules || new Intl.PluralRules(LANG);
    return Math.max(0, PLURALS.indexOf(pluralRules.select(n)));
  } catch (_) { return n === 1 ? 0 : PLURALS.length - 1; }
}

/** A count message: `one` and `other` are the English singular and plural (the catalog's
 * msgid and msgid_plural), `count` the number that picks the form by the page language's own
 * rule (Czech: 1, 2-4, 5 and more); `{n}` is the count in the page's digits unless `params`
 * say otherwise. */
export function tn(one, other, count, params, inherited = "") {
  const own = placeWords && (placeWords[one] || placeWords[other]) ? [placeWords[one] || one, placeWords[other] || other] : [one, other];
  const forms = catalog[own[0]];
  const s = Array.isArray(forms) ? forms[Math.min(pluralForm(count), forms.length - 1)]
    : own[count === 1 ? 0 : 1];
  return fill(s, { n: num(count), ...params }, inherited);
}

/** `msg` in a context (gettext's msgctxt): a card word in a case ("accusative"), a colour's
 * letter on the card faces; the plain translation where the catalog has none. */
export function tc(context, msg, params) {
  const found = catalog[`${context}\u0004${msg}`];
  return typeof found === "string" && found ? fill(found, params) : t(msg, params);
}

/** A word a template may put in a grammatical case (`{card:accusative}`): `forms(c)` gives
 * it in case `c` ("" the nominative); as a string, the nominative. */
export class Word {
  constructor(forms) { this.forms = forms; }
  form(grammaticalCase) { return this.forms(grammaticalCase); }
  toString() { return this.forms(""); }
}

/** Words in a list (cards the opponent could still make), declined together. */
export function wordList(words) { return new Word((c) => listOf(words.map((w) => (w instanceof Word ? w.form(c) : String(w))))); }

/** Text a person typed (a player's name), isolated from the sentence around it (U+2068 FIRST
 * STRONG ISOLATE .. U+2069 POP DIRECTIONAL ISOLATE): a Latin name in a Persian sentence keeps
 * its own direction, and the numbers beside it stay where the sentence puts them. */
export function isolate(text) {
  const s = String(text ?? "");
  return s.startsWith("\u2068") ? s : `\u2068${s}\u2069`;
}

/** Digits in the page's own script (Persian digits on the Persian page). */
export function num(n) {
  if (n === null || n === undefined) return "";
  try { return new Intl.NumberFormat(LANG === "fa" ? "fa-IR" : LANG).format(n); } catch (_) { return String(n); }
}

/** Sentences one after another, as the page's language writes them: Japanese puts none
 * between "。" and the next sentence, the others a space. Empty parts are left out. */
export function sentences(...parts) {
  return parts.filter((s) => s).join(LANG === "ja" ? "" : " ");
}

/** A clause (a proof's reason, a refusal's) as a sentence of the page's language, to stand
 * among others: its first letter a capital where the script has them, and its full stop
 * ("。" in Japanese) unless it has one. */
export function asSentence(clause) {
  const s = String(clause ?? "").trim();
  if (!s) return "";
  const first = s.charAt(0).toLocaleUpperCase(LANG) + s.slice(1);
  return /[.!?。！？]$/.test(first) ? first : first + (LANG === "ja" ? "。" : ".");
}

/** Items in a list, with the page's own comma ("red 7, red 8"; Persian ، and Japanese 、). */
export function listOf(items) { return items.join(LANG === "fa" ? "، " : LANG === "ja" ? "、" : ", "); }

export const COLOURS = "ROYGBP";
export const COLOUR_NAMES = ["red", "orange", "yellow", "green", "blue", "purple"];
const COLOUR_FILL = ["#c62828", "#ef6c00", "#f9a825", "#2e7d32", "#1565c0", "#6a1b9a"];
// Every colour also has its own shape, so colour is never the only cue.
const SHAPES = ["circle", "square", "triangle", "diamond", "star", "hexagon"];
export const TACTICS = ["AL", "DA", "CC", "SB", "FO", "MU", "SC", "RE", "DE", "TR"];
const TACTICS_NAMES = {
  battleline: ["Alexander", "Darius", "Companion Cavalry", "Shield Bearers", "Fog", "Mud",
               "Scout", "Redeploy", "Deserter", "Traitor"],
  schotten: ["Joker", "Joker", "Spy", "Shield-Bearer", "Blind-Man's Bluff", "Mud Fight",
             "Headhunter", "Strategist", "Banshee", "Traitor"],
};

// The view names its own tactics cards (they differ per ruleset) and says which rules family
// it plays (its `features`); remember the last of each.
let viewCardNames = null;
let viewFamily = "battleline";
export function setCardNames(names) {
  if (Array.isArray(names) && names.length === TACTICS.length) viewCardNames = names;
}
export function setFeatures(features) {
  if (features && features.family) viewFamily = features.family;
}

function tacticsNames() {
  if (viewCardNames) return viewCardNames;
  return viewFamily === "schotten-totten" ? TACTICS_NAMES.schotten : TACTICS_NAMES.battleline;
}

/** A tactics card's rule in the page language ("" for troops and hidden cards): CARD_RULES of
 * words.js, by the card's English name, so each ruleset's cards have their own words. */
export function cardRule(code) {
  const k = TACTICS.indexOf(code);
  if (k < 0) return "";
  const rule = CARD_RULES[tacticsNames()[k]];
  return rule ? t(rule) : "";
}

/** Attributes that give a tactics card its rule on hover, focus and long-press (the popover
 * of `installCardTips`); nothing for troops. */
export function ruleAttrs(code) {
  const rule = cardRule(code);
  return rule ? ` data-tip="${esc(`${cardName(code)}: ${rule}`)}" title="${esc(`${cardName(code)}: ${rule}`)}"` : "";
}

let tip = null;
let pressTimer = 0;
function showTip(el) {
  if (!tip) {
    tip = document.createElement("div");
    tip.id = "card-tip";
    tip.className = "card-tip";
    tip.setAttribute("role", "tooltip");
    document.body.appendChild(tip);
  }
  tip.textContent = el.dataset.tip;
  tip.hidden = false;
  const r = el.getBoundingClientRect();
  tip.style.top = `${window.scrollY + r.bottom + 6}px`;
  tip.style.left = `${Math.max(4, Math.min(window.scrollX + r.left, window.scrollX + document.documentElement.clientWidth - 264))}px`;
  el.setAttribute("aria-describedby", "card-tip");
}
function hideTip() { if (tip) tip.hidden = true; clearTimeout(pressTimer); }

/** One popover for every card with a rule: on hover, on keyboard focus, on a long press. */
export function installCardTips() {
  const target = (ev) => ev.target.closest && ev.target.closest("[data-tip]");
  document.addEventListener("mouseover", (ev) => { const el = target(ev); if (el) showTip(el); else hideTip(); });
  document.addEventListener("focusin", (ev) => { const el = target(ev); if (el) showTip(el); else hideTip(); });
  document.addEventListener("focusout", hideTip);
  document.addEventListener("pointerdown", (ev) => {
    const el = target(ev);
    clearTimeout(pressTimer);
    if (el && ev.pointerType !== "mouse") pressTimer = setTimeout(() => showTip(el), 450);
  });
  document.addEventListener("pointerup", () => clearTimeout(pressTimer));
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") hideTip(); });
}

export function isTroop(code) { return /^[ROYGBP]\d+$/.test(code || ""); }

/** A card word in a grammatical case: `word`'s form in `case` (a catalog entry in that
 * context, "accusative"/"red" -> "červenou"), the nominative for "". */
function declined(grammaticalCase, word, params) {
  return grammaticalCase ? tc(grammaticalCase, word, params) : t(word, params);
}

/** "Red 7", "Fog", "Hidden card": what a screen reader says for a card (tactics names are
 * the last view's; the second argument is not needed and kept for existing callers). */
export function cardName(code, _ruleset) { return String(cardWord(code)); }

/** A card's name as a Word, for a sentence: a template may put it in a case ("Vyberte vlajku
 * pro {card:accusative}."); as a string, the nominative (cardName). */
export function cardWord(code) {
  if (!code || code === "?") return new Word((c) => declined(c, "Hidden card"));
  if (isTroop(code)) {
    const i = COLOURS.indexOf(code[0]);
    const value = num(Number(code.slice(1)));
    return new Word((c) => t("{colour} {value}", { colour: declined(c, COLOUR_NAMES[i]), value }));
  }
  const k = TACTICS.indexOf(code);
  if (k < 0) return new Word(() => code);
  const name = tacticsNames()[k];
  return new Word((c) => declined(c, name));
}

function shapePath(shape, cx, cy, r) {
  switch (shape) {
    case "circle": return `<circle cx="${cx}" cy="${cy}" r="${r}"/>`;
    case "square": return `<rect x="${cx - r}" y="${cy - r}" width="${2 * r}" height="${2 * r}"/>`;
    case "triangle": return `<path d="M${cx} ${cy - r}L${cx + r} ${cy + r}H${cx - r}Z"/>`;
    case "diamond": return `<path d="M${cx} ${cy - r}L${cx + r} ${cy}L${cx} ${cy + r}L${cx - r} ${cy}Z"/>`;
    case "star": {
      let d = "";
      for (let i = 0; i < 10; i++) {
        const a = Math.PI / 5 * i - Math.PI / 2, rr = i % 2 ? r * 0.45 : r;
        d += `${i ? "L" : "M"}${(cx + rr * Math.cos(a)).toFixed(1)} ${(cy + rr * Math.sin(a)).toFixed(1)}`;
      }
      return `<path d="${d}Z"/>`;
    }
    default: {
      let d = "";
      for (let i = 0; i < 6; i++) {
        const a = Math.PI / 3 * i;
        d += `${i ? "L" : "M"}${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`;
      }
      return `<path d="${d}Z"/>`;
    }
  }
}

/** The letter of each colour on the card faces, in the page's language (colour is never the
 * only cue: each colour has its shape and its letter too). */
function colourLetter(i) {
  return [tc("colour letter", "R"), tc("colour letter", "O"), tc("colour letter", "Y"), tc("colour letter", "G"),
    tc("colour letter", "B"), tc("colour letter", "P")][i];
}

/** A tactics card's short name, for the top band of its face (all a stack of cards on a phone
 * leaves visible), in the page's language; `name` is the card's English name. */
function faceName(name) {
  switch (name) {
    case "Alexander": return tc("card face", "Alexander");
    case "Darius": return tc("card face", "Darius");
    case "Companion Cavalry": return tc("card face", "Cavalry");
    case "Shield Bearers": return tc("card face", "Shields");
    case "Fog": return tc("card face", "Fog");
    case "Mud": return tc("card face", "Mud");
    case "Scout": return tc("card face", "Scout");
    case "Redeploy": return tc("card face", "Redeploy");
    case "Deserter": return tc("card face", "Deserter");
    case "Traitor": return tc("card face", "Traitor");
    case "Joker": return tc("card face", "Joker");
    case "Spy": return tc("card face", "Spy");
    case "Shield-Bearer": return tc("card face", "Shield");
    case "Blind-Man's Bluff": return tc("card face", "Bluff");
    case "Mud Fight": return tc("card face", "Mud Fight");
    case "Headhunter": return tc("card face", "Hunter");
    case "Strategist": return tc("card face", "Strategist");
    case "Banshee": return tc("card face", "Banshee");
    case "King of England": return tc("card face", "England");
    case "King of France": return tc("card face", "France");
    case "King's Guard": return tc("card face", "Guard");
    case "Spies": return tc("card face", "Spies");
    default: return t(name);
  }
}

// What the middle of a tactics card shows: its kind at a glance (a leader's crown, a morale
// card's value, the weather, an arrow for the guile cards), no letters.
const FACE_MARKS = { AL: "♛", DA: "♛", FO: "☁", MU: "≈", SC: "⇅", RE: "⇄", DE: "✕", TR: "⇆" };
function faceMark(code) {
  if (code === "CC") return num(tacticsNames()[2] === "Spy" ? 7 : 8);
  if (code === "SB") return `${num(1)}–${num(3)}`;
  return FACE_MARKS[code] || "";
}

/** SVG text that fits `width` units: squeezed to it when it would run wider. */
function fitted(text, x, y, size, width, attrs) {
  const wide = [...text].reduce((w, ch) => w + (/[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? 1 : 0.6), 0) * size > width;
  return `<text x="${x}" y="${y}" font-size="${size}" ${attrs}${wide ? ` textLength="${width}" lengthAdjust="spacingAndGlyphs"` : ""}>${esc(text)}</text>`;
}

/** The SVG picture of a card (decorative: the element around it carries the label). */
export function cardSvg(code) {
  if (!code || code === "?") {
    return `<svg viewBox="0 0 40 56" aria-hidden="true" focusable="false"><rect x="1" y="1" width="38" height="54" rx="4" fill="#37474f" stroke="#111"/><path d="M6 8h28v40H6z" fill="none" stroke="#90a4ae" stroke-dasharray="3 2"/></svg>`;
  }
  // The value and the colour's shape sit in the top band too (a corner index), so a card
  // still reads when the next card of a stack covers the rest of it (the phone table).
  if (isTroop(code)) {
    const i = COLOURS.indexOf(code[0]);
    const fill = COLOUR_FILL[i];
    const value = num(Number(code.slice(1)));  // in the page's digits
    const ink = code[0] === "Y" ? "#111" : "#fff";  // white on yellow would not read
    return `<svg viewBox="0 0 40 56" aria-hidden="true" focusable="false" direction="ltr">` +
      `<rect x="1" y="1" width="38" height="54" rx="4" fill="#fff" stroke="${fill}" stroke-width="2"/>` +
      `<path d="M1 5a4 4 0 0 1 4-4h30a4 4 0 0 1 4 4v11H1z" fill="${fill}"/>` +
      `<text x="4" y="13.5" font-size="13" font-weight="700" fill="${ink}" font-family="sans-serif">${value}</text>` +
      `<g fill="${ink}">${shapePath(SHAPES[i], 31, 8.5, 4.5)}</g>` +
      `<text x="20" y="36" font-size="16" font-weight="700" text-anchor="middle" fill="#111" font-family="sans-serif">${value}</text>` +
      `<g fill="${fill}">${shapePath(SHAPES[i], 13, 47, 4)}</g>` +
      `<text x="29" y="51" font-size="9" font-weight="700" text-anchor="middle" fill="${fill}" font-family="sans-serif">${esc(colourLetter(i))}</text>` +
      `</svg>`;
  }
  // A tactics card: its short name in the top band, what kind of card it is in the middle,
  // and its whole name under that (all in the page's language, no letter codes).
  const k = TACTICS.indexOf(code);
  const name = k >= 0 ? tacticsNames()[k] : code;
  const short = faceName(name);
  // the whole name under the mark, unless the band already says all of it ("Fog", "Dareios")
  const whole = String(t(name));
  const words = whole === short ? [] : whole.split(/\s+/);
  const half = Math.ceil(words.length / 2);
  const lines = words.length > 1 ? [words.slice(0, half).join(" "), words.slice(half).join(" ")] : words;
  return `<svg viewBox="0 0 40 56" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="38" height="54" rx="4" fill="#f5e6b8" stroke="#8d6e00" stroke-width="2"/>` +
    `<path d="M1 5a4 4 0 0 1 4-4h30a4 4 0 0 1 4 4v11H1z" fill="#8d6e00"/>` +
    fitted(short, 20, 12.5, 9, 34, 'font-weight="700" text-anchor="middle" fill="#fff" font-family="sans-serif"') +
    `<text x="20" y="32" font-size="13" font-weight="700" text-anchor="middle" fill="#8d6e00" font-family="sans-serif" direction="ltr">${esc(faceMark(code))}</text>` +
    lines.map((line, j) => fitted(line, 20, lines.length > 1 ? 43 + j * 8 : 47, 7, 34,
      'text-anchor="middle" fill="#3e2f00" font-family="sans-serif"')).join("") +
    `</svg>`;
}

export function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/** A card that is only looked at: an image with a spoken name. */
export function cardImg(code, ruleset, extra = "") {
  const rule = ruleAttrs(code);
  const label = extra.includes("last-move") ? t("{card} (last move)", { card: cardWord(code) }) : cardName(code, ruleset);
  return `<span class="card ${extra}" role="img" aria-label="${esc(label)}" data-code="${esc(code)}"` +
    `${rule}${rule ? ' tabindex="0"' : ""}>${cardSvg(code)}</span>`;
}

// --- games remembered in this browser (seat tokens never leave it except in links) ---
const KEY = "frontlines.games";

export function myGames() {
  try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (_) { return []; }
}

export function rememberGame(entry) {
  const games = myGames().filter((g) => !(g.id === entry.id && g.token === entry.token));
  games.unshift({ created: Date.now(), ...entry });
  localStorage.setItem(KEY, JSON.stringify(games.slice(0, 100)));
}

export function forgetGame(id) {
  localStorage.setItem(KEY, JSON.stringify(myGames().filter((g) => g.id !== id)));
}

/** "You won by breakthrough" and the like. */
export function outcomeText(outcome, viewer, names) {
  if (!outcome) return "";
  const reason = t(outcome.reason || "");
  let s;
  if (outcome.winner === null || outcome.winner === undefined) s = t("Draw ({reason})", { reason });
  else if (viewer === outcome.winner) s = t("You won ({reason})", { reason });
  else if (viewer === 0 || viewer === 1) s = t("You lost ({reason})", { reason });
  else s = t("{name} won ({reason})", { name: playerName(names, outcome.winner), reason });
  if (outcome.scores) s += ` — ${num(outcome.scores[0])} : ${num(outcome.scores[1])}`;
  return s;
}

/** A seat's name for a sentence: the name given (seatNames' names: a typed name comes
 * isolated from there, see `isolate`), else "Player 1"/"Player 2". */
export function playerName(names, seat) {
  const n = names && names[seat];
  return n ? n : t("Player {n}", { n: num(seat + 1) });
}

// The bot levels, weakest first, as the server lists them in every page (web/levels.py, from
// bots/levels.py): {id, name, description, offered}, the words English msgids.
const BOT_LEVELS = (() => {
  try { return JSON.parse(document.getElementById("bot-levels").textContent); } catch (_) { return []; }
})();
const botLevel = (level) => BOT_LEVELS.find((l) => l.id === level);

/** The bot levels in words ("Waiting for the easy bot…", never the level id). */
export function levelName(level) { const l = botLevel(level); return t(l ? l.name : level); }

/** What playing a level is like, in words ("" for a level the server does not list). */
export function levelDescription(level) { const l = botLevel(level); return l && l.description ? t(l.description) : ""; }

/** The names to show for both seats: a bot by its level in words, an unnamed person as
 * "Opponent" (seen from the other seat) or "Player 1/2" (watchers, pass and play). Seats
 * are never called first or second: who moves first is decided apart from the seat. */
export function seatNames(names, opponent, botSeat, viewer) {
  return [0, 1].map((seat) => {
    if (opponent && opponent.startsWith("bot:") && botSeat === seat) {
      return t("Bot ({level})", { level: levelName(opponent.slice(4)) });
    }
    const n = names && names[seat];
    if (n) return isolate(n);
    if (viewer === 0 || viewer === 1) return viewer === seat ? t("You") : t("Opponent");
    return t("Player {n}", { n: num(seat + 1) });
  });
}

// War Machine's countries by the codes its records use (warmachine.js names them so too),
// and by the letters of a card's code (war-machine end first: "GU").
const WM_COUNTRY = { USA: "USA", GER: "Germany", JPN: "Japan", ITA: "Italy", URS: "USSR", GBR: "Britain" };
const WM_LETTER = { U: "USA", G: "GER", J: "JPN", I: "ITA", R: "URS", B: "GBR" };

/** A War Machine card's name as a Word ("war machine Germany / infantry USA"): a template may
 * put it in a case, as cardWord's. */
export function wmCardWord(code) {
  if (!code || code === "?") return new Word((c) => declined(c, "Hidden card"));
  const country = (letter) => t(WM_COUNTRY[WM_LETTER[letter]] || letter);
  const params = { a: country(code[0]), b: country(code[1]) };
  return new Word((c) => declined(c, "war machine {a} / infantry {b}", params));
}

export const FORMATIONS = ["Wedge", "Phalanx", "Battalion", "Skirmish", "Host"];

/** Localised formation with its sum: "Wedge 24". */
export function formationText(f) {
  if (!f) return "";
  // Battle Line's lowest rank has no name; Schotten Totten names its lowest rank "Sum" (rank 1)
  if (f.rank === 0 || f.name === "Sum") return t("sum {sum}", { sum: num(f.sum) });
  return t("{formation}, sum {sum}", { formation: t(f.name), sum: num(f.sum) });
}

/** The records of the last turn the other player made before `seat`'s turn (the play and
 * the draw, a claim, a Scout's draws and returns; War Machine's deployment and draws): the
 * run of the other seat's records before this seat's own records at the end of the log. */
export function lastTurn(v, seat) {
  const log = v.log_records || [];
  let end = log.length;
  while (end > 0 && log[end - 1].seat === seat) end--;
  let start = end;
  while (start > 0 && log[start - 1].seat === 1 - seat) start--;
  return log.slice(start, end);
}

/** A sentence for an action record (a `legal` or `log_records` entry), for the log and the
 * moves list. Built from the record's fields; a kind without words here shows its text. */
export function describeAction(e, ruleset) {
  if (!e) return "";
  const card = () => cardWord(e.card);
  switch (e.kind) {
    case "play": case "environment": return t("{card} to flag {flag}", { card: card(), flag: num(e.flag) });
    case "claim": return t("claim flag {flag}", { flag: num(e.flag) });
    case "draw": case "scout_draw":
      if (e.pile !== undefined) return t("draw from pile {n}", { n: num(e.pile) });
      return e.deck === "troop" ? t("draw a troop card") : t("draw a tactics card");
    case "scout_return":
      return !e.card || e.card === "?" ? t("put a card back on a deck") : t("put {card} back on its deck", { card: card() });
    case "redeploy":
      return e.target === "x" ? t("{tactic}: discard {card}", { tactic: cardWord("RE"), card: card() })
        : t("{tactic}: move {card} to flag {flag}", { tactic: cardWord("RE"), card: card(), flag: num(e.target) });
    case "deserter": return t("{tactic}: discard {card}", { tactic: cardWord("DE"), card: card() });
    case "traitor": return t("{tactic}: take {card} to flag {flag}", { tactic: cardWord("TR"), card: card(), flag: num(e.target) });
    case "scout": return t("play {tactic}", { tactic: cardWord("SC") });
    case "deploy":
      // the country of the end deployed (the record's colour) and the position
      if (e.colour) {
        return e.end === "war_machine" ? t("war machine of {country} to position {n}", { country: t(WM_COUNTRY[e.colour] || e.colour), n: num(e.position) })
          : t("infantry of {country} to position {n}", { country: t(WM_COUNTRY[e.colour] || e.colour), n: num(e.position) });
      }
      return e.end === "war_machine" ? t("war machine to front {n}", { n: num(e.position) })
        : t("infantry to front {n}", { n: num(e.position) });
    // a burn names its card where this player may see it (its own, or face up by the rules)
    case "burn": return e.card && e.card !== "?" ? t("burn {card}", { card: wmCardWord(e.card) }) : t("burn a card");
    case "take":
      if (Array.isArray(e.cards) && e.cards.length && !e.cards.includes("?")) {
        return tn("take the leftover card {cards}", "take the leftover cards {cards}", e.cards.length,
          { cards: wordList(e.cards.map(wmCardWord)) });
      }
      return e.count === 1 ? t("take one leftover card") : t("take two leftover cards");
    case "skip": return t("skip (no card can be deployed)");
    case "pass": return t("pass");
    case "end": return t("end the turn");
    default: return e.text || "";
  }
}
