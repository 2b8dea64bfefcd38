// Shared by every page: translations, card pictures and names, remembered games.
// Plain ES module; no build step.

const LANG = document.body.dataset.lang || "en";
let catalog = {};

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
  let s = catalog[msg] || msg;
  if (params) for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** Digits in the page's own script (Persian digits on the Persian page). */
export function num(n) {
  if (n === null || n === undefined) return "";
  try { return new Intl.NumberFormat(LANG === "fa" ? "fa-IR" : LANG).format(n); } catch (_) { return String(n); }
}

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
  if (isTroop(code)) {
    const i = COLOURS.indexOf(code[0]);
    const fill = COLOUR_FILL[i];
    return `<svg viewBox="0 0 40 56" aria-hidden="true" focusable="false">` +
      `<rect x="1" y="1" width="38" height="54" rx="4" fill="#fff" stroke="${fill}" stroke-width="2"/>` +
      `<rect x="1" y="1" width="38" height="12" rx="4" fill="${fill}"/>` +
      `<text x="5" y="11" font-size="10" font-weight="700" fill="#fff" font-family="sans-serif">${code[0]}</text>` +
      `<g fill="#fff">${shapePath(SHAPES[i], 30, 7, 4)}</g>` +
      `<g fill="${fill}">${shapePath(SHAPES[i], 20, 45, 5)}</g>` +
      `<text x="20" y="31" font-size="17" font-weight="700" text-anchor="middle" fill="#111" font-family="sans-serif">${code.slice(1)}</text>` +
      `</svg>`;
  }
  return `<svg viewBox="0 0 40 56" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="38" height="54" rx="4" fill="#f5e6b8" stroke="#8d6e00" stroke-width="2"/>` +
    `<path d="M20 8l4 8h-8z" fill="#8d6e00"/>` +
    `<text x="20" y="38" font-size="13" font-weight="700" text-anchor="middle" fill="#3e2f00" font-family="sans-serif">${esc(code)}</text>` +
    `</svg>`;
}

export function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/** A card that is only looked at: an image with a spoken name. */
export function cardImg(code, ruleset, extra = "") {
  return `<span class="card ${extra}" role="img" aria-label="${esc(cardName(code, ruleset))}" data-code="${esc(code)}">${cardSvg(code)}</span>`;
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
  return n ? n : (seat === 0 ? t("First player") : t("Second player"));
}

export const FORMATIONS = ["Wedge", "Phalanx", "Battalion", "Skirmish", "Host"];

/** Localised formation with its sum: "Wedge 24". */
export function formationText(f) {
  if (!f) return "";
  if (f.rank === 0) return t("sum {sum}", { sum: num(f.sum) });
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
      return e.target === "x" ? t("Redeploy: discard {card}", { card: card() })
        : t("Redeploy: move {card} to flag {flag}", { card: card(), flag: num(e.target) });
    case "deserter": return t("Deserter: discard {card}", { card: card() });
    case "traitor": return t("Traitor: take {card} to flag {flag}", { card: card(), flag: num(e.target) });
    case "scout": return t("play Scout");
    case "deploy":
      return e.end === "war_machine" ? t("war machine to front {n}", { n: num(e.position) })
        : t("infantry to front {n}", { n: num(e.position) });
    case "burn": return t("burn a card");
    case "take": {
      const what = e.count === 1 ? t("take one leftover card") : t("take two leftover cards");
      return Array.isArray(e.cards) && !e.cards.includes("?") ? `${what}: ${e.cards.join(", ")}` : what;
    }
    case "skip": return t("skip (no card can be deployed)");
    case "pass": return t("pass");
    case "end": return t("end the turn");
    default: return e.text || "";
  }
}
