// War Machine: the front (six countries with their reinforcement piles), both sides'
// units at each country, hands, burned cards and scores. A card code is two country
// letters: the war-machine end first, the infantry end second ("GU": Germany ▲ / USA ▼).
import { t, num, esc, playerName } from "./common.js";

const COUNTRY = { U: "USA", G: "GER", J: "JPN", I: "ITA", R: "URS", B: "GBR" };
const FILL = { USA: "#1565c0", GER: "#424242", JPN: "#c62828", ITA: "#2e7d32", URS: "#b71c1c", GBR: "#6a1b9a" };
const NAMES = { USA: "USA", GER: "Germany", JPN: "Japan", ITA: "Italy", URS: "USSR", GBR: "Britain" };

export function countryName(code) { return t(NAMES[code] || code); }

/** Spoken name of a War Machine card: "war machine Germany / infantry USA". */
export function wmCardName(code) {
  if (!code || code === "?") return t("Hidden card");
  const a = COUNTRY[code[0]], b = COUNTRY[code[1]];
  return t("war machine {a} / infantry {b}", { a: countryName(a), b: countryName(b) });
}

function badge(country, strength, up) {
  const shape = up === "war_machine" ? "▲" : "▼";
  return `<span class="wm-unit" style="border-color:${FILL[country] || "#333"}" role="img" ` +
    `aria-label="${esc(t(up === "war_machine" ? "war machine" : "infantry"))} ${esc(countryName(country))}, ${esc(t("strength {n}", { n: num(strength) }))}">` +
    `<span aria-hidden="true" style="color:${FILL[country] || "#333"}">${shape}</span> ${esc(country)} ${num(strength)}</span>`;
}

function handCard(code, next, selected) {
  const tok = `hand:${code}`;
  const on = next.has(tok), picked = selected.includes(tok);
  const a = COUNTRY[code[0]] || "?", b = COUNTRY[code[1]] || "?";
  return `<button type="button" class="wm-card${on ? " selectable" : ""}${picked ? " picked" : ""}" data-tok="${esc(tok)}" ` +
    `aria-label="${esc(wmCardName(code))}"${picked ? ' aria-pressed="true"' : ""}${on ? "" : " disabled"}>` +
    `<span style="color:${FILL[a]}">▲ ${esc(a)} 2</span><br><span style="color:${FILL[b]}">▼ ${esc(b)} 1</span></button>`;
}

export function renderWarMachine(box, v, opts) {
  const { seat, names, next, selected } = opts;
  const opp = 1 - seat;
  let html = `<div class="player-bar">${esc(playerName(names, opp))} · ${esc(t("hand: {n} cards", { n: num((v.hand_sizes || [])[opp]) }))}` +
    `${v.to_move === opp ? ` <span class="turn">● ${esc(t("to move"))}</span>` : ""}</div>`;
  html += `<div class="wm-front" role="list">`;
  for (const c of v.front || []) {
    const won = c.status === "pending" ? t("tied: waiting")
      : c.status === "no_winner" ? t("no winner")
        : c.winner === null || c.winner === undefined ? "" : c.winner === seat ? t("won by you") : t("won by {name}", { name: playerName(names, c.winner) });
    const pileTok = `pile:${c.index}`;
    const pile = next.has(pileTok)
      ? `<button type="button" class="selectable" data-tok="${pileTok}">${esc(t("Draw from this pile ({n})", { n: num(c.pile) }))}</button>`
      : `<span>${esc(t("pile: {n}", { n: num(c.pile) }))}</span>`;
    const deployHtml = ["war_machine", "infantry"].map((end) => {
      const k = `deploy:${end}:${c.index}`;
      return next.has(k) ? `<button type="button" class="selectable" data-tok="${esc(k)}">${esc(end === "war_machine" ? t("Deploy as war machine ▲") : t("Deploy as infantry ▼"))}</button>` : "";
    }).join("");
    const label = `${countryName(c.country)} (${t("value {n}", { n: num(c.value) })}) ${won}; ${t("you")}: ${num(c.strengths[seat])}, ${t("opponent")}: ${num(c.strengths[opp])}`;
    html += `<section class="wm-country" role="listitem" aria-label="${esc(label)}">` +
      `<h3><span style="color:${FILL[c.country]}" aria-hidden="true">${c.depicted === "war_machine" ? "▲" : "▼"}</span> ${num(c.index)}. ${esc(countryName(c.country))} <small>(${esc(t("value {n}", { n: num(c.value) }))})</small></h3>` +
      `<p>${esc(t("opponent"))}: ${(c.sides[opp] || []).map((u) => badge(u.country, u.strength, u.up)).join("")} = ${num(c.strengths[opp])}</p>` +
      `<p>${esc(t("you"))}: ${(c.sides[seat] || []).map((u) => badge(u.country, u.strength, u.up)).join("")} = ${num(c.strengths[seat])}</p>` +
      `<p>${pile} ${won ? `<strong>${esc(won)}</strong>` : ""}</p>${deployHtml}</section>`;
  }
  html += `</div>`;
  html += `<p>${esc(t("Support cards left: {n}", { n: num(v.support) }))} · ${esc(t("burned: {n}", { n: num(v.burned) }))}`;
  if (Array.isArray(v.burned_by_me) && v.burned_by_me.length) html += ` · ${esc(t("you burned:"))} ${v.burned_by_me.map((c) => esc(c)).join(" ")}`;
  if (v.draws_left) html += ` · ${esc(t("draws left: {n}", { n: num(v.draws_left) }))}`;
  html += `</p>`;
  if (v.phase === "choose" && Array.isArray(v.leftover) && v.leftover.length) {
    html += `<p>${esc(t("Leftover cards:"))} ${v.leftover.map((c) => (c === "?" ? `<span class="wm-unit" role="img" aria-label="${esc(t("Hidden card"))}">?</span>` : `<span class="wm-unit" role="img" aria-label="${esc(wmCardName(c))}">${esc(c)}</span>`)).join("")}</p>`;
  }
  if (v.match && Array.isArray(v.match.wins)) {
    html += `<p>${esc(t("Best of three: game {n}, wins {a} : {b}", { n: num(v.match.game), a: num(v.match.wins[0]), b: num(v.match.wins[1]) }))}</p>`;
  }
  if (Array.isArray(v.scores)) {
    html += `<p>${v.scores.map((s, p) => `${esc(playerName(names, p))}: ${num(s.total)} (${esc(t("countries"))} ${num(s.countries)}, ${esc(t("hand"))} ${num(s.hand)})`).join(" · ")}</p>`;
  }
  html += `<div class="player-bar">${esc(t("You"))}${v.to_move === seat ? ` <span class="turn">● ${esc(t("to move"))}</span>` : ""}</div>`;
  const hand = v.hands && v.hands[seat];
  if (Array.isArray(hand)) {
    html += `<div class="hand" role="group" aria-label="${esc(t("Your hand"))}">${hand.map((c) => handCard(c, next, selected)).join("")}</div>`;
  }
  box.innerHTML = html;
}
