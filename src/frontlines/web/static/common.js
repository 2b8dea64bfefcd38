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

/** Translate `msg` and fill `{name}` placeholders. */
export function t(msg, params) {
  const own = placeWords && placeWords[msg];
  let s = own ? catalog[own] || own : catalog[msg] || msg;
  if (params) for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
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

/** "Red 7", "Fog", "Hidden card": what a screen reader says for a card (tactics names are
 * the last view's; the second argument is not needed and kept for existing callers). */
export function cardName(code, _ruleset) {
  if (!code || code === "?") return t("Hidden card");
  if (isTroop(code)) {
    const i = COLOURS.indexOf(code[0]);
    return t("{colour} {value}", { colour: t(COLOUR_NAMES[i]), value: num(Number(code.slice(1))) });
  }
  const k = TACTICS.indexOf(code);
  return k >= 0 ? t(tacticsNames()[k]) : code;
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
    const value = code.slice(1);
    const ink = code[0] === "Y" ? "#111" : "#fff";  // white on yellow would not read
    return `<svg viewBox="0 0 40 56" aria-hidden="true" focusable="false">` +
      `<rect x="1" y="1" width="38" height="54" rx="4" fill="#fff" stroke="${fill}" stroke-width="2"/>` +
      `<path d="M1 5a4 4 0 0 1 4-4h30a4 4 0 0 1 4 4v11H1z" fill="${fill}"/>` +
      `<text x="4" y="13.5" font-size="13" font-weight="700" fill="${ink}" font-family="sans-serif">${value}</text>` +
      `<g fill="${ink}">${shapePath(SHAPES[i], 31, 8.5, 4.5)}</g>` +
      `<text x="20" y="36" font-size="16" font-weight="700" text-anchor="middle" fill="#111" font-family="sans-serif">${value}</text>` +
      `<g fill="${fill}">${shapePath(SHAPES[i], 13, 47, 4)}</g>` +
      `<text x="29" y="51" font-size="9" font-weight="700" text-anchor="middle" fill="${fill}" font-family="sans-serif">${code[0]}</text>` +
      `</svg>`;
  }
  return `<svg viewBox="0 0 40 56" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="38" height="54" rx="4" fill="#f5e6b8" stroke="#8d6e00" stroke-width="2"/>` +
    `<path d="M1 5a4 4 0 0 1 4-4h30a4 4 0 0 1 4 4v11H1z" fill="#8d6e00"/>` +
    `<text x="4" y="13.5" font-size="11" font-weight="700" fill="#fff" font-family="sans-serif">${esc(code)}</text>` +
    `<path d="M20 24l5 10h-10z" fill="#8d6e00"/>` +
    `<text x="20" y="48" font-size="13" font-weight="700" text-anchor="middle" fill="#3e2f00" font-family="sans-serif">${esc(code)}</text>` +
    `</svg>`;
}

export function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/** A card that is only looked at: an image with a spoken name. */
export function cardImg(code, ruleset, extra = "") {
  const rule = ruleAttrs(code);
  const label = extra.includes("last-move") ? t("{card} (last move)", { card: cardName(code, ruleset) }) : cardName(code, ruleset);
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
    if (n) return n;
    if (viewer === 0 || viewer === 1) return viewer === seat ? t("You") : t("Opponent");
    return t("Player {n}", { n: num(seat + 1) });
  });
}

export const FORMATIONS = ["Wedge", "Phalanx", "Battalion", "Skirmish", "Host"];

/** Localised formation with its sum: "Wedge 24". */
export function formationText(f) {
  if (!f) return "";
  // Battle Line's lowest rank has no name; Schotten Totten names its lowest rank "Sum" (rank 1)
  if (f.rank === 0 || f.name === "Sum") return t("sum {sum}", { sum: num(f.sum) });
  return t("{formation}, sum {sum}", { formation: t(f.name), sum: num(f.sum) });
}

/** A sentence for an action record (a `legal` or `log_records` entry), for the log and the
 * moves list. Built from the record's fields; a kind without words here shows its text. */
export function describeAction(e, ruleset) {
  if (!e) return "";
  const card = () => cardName(e.card, ruleset);
  switch (e.kind) {
    case "play": case "environment": return t("{card} to flag {flag}", { card: card(), flag: num(e.flag) });
    case "claim": return t("claim flag {flag}", { flag: num(e.flag) });
    case "draw": case "scout_draw":
      if (e.pile !== undefined) return t("draw from pile {n}", { n: num(e.pile) });
      return e.deck === "troop" ? t("draw a troop card") : t("draw a tactics card");
    case "scout_return": return t("put {card} back on its deck", { card: card() });
    case "redeploy":
      return e.target === "x" ? t("{tactic}: discard {card}", { tactic: cardName("RE"), card: card() })
        : t("{tactic}: move {card} to flag {flag}", { tactic: cardName("RE"), card: card(), flag: num(e.target) });
    case "deserter": return t("{tactic}: discard {card}", { tactic: cardName("DE"), card: card() });
    case "traitor": return t("{tactic}: take {card} to flag {flag}", { tactic: cardName("TR"), card: card(), flag: num(e.target) });
    case "scout": return t("play {tactic}", { tactic: cardName("SC") });
    case "deploy":
      return e.end === "war_machine" ? t("war machine to front {n}", { n: num(e.position) })
        : t("infantry to front {n}", { n: num(e.position) });
    case "burn": return t("burn a card");
    case "take": {
      const what = e.count === 1 ? t("take one leftover card") : t("take two leftover cards");
      return Array.isArray(e.cards) && !e.cards.includes("?") ? `${what}: ${listOf(e.cards)}` : what;
    }
    case "skip": return t("skip (no card can be deployed)");
    case "pass": return t("pass");
    case "end": return t("end the turn");
    default: return e.text || "";
  }
}
