// War Machine's table (docs/rules.md §6): the war front as six positions side by side, nearest
// the game box first, each a column like a Battle Line flag: the opponent's forces above, the
// position (its country, what conquering it is worth, its support pile) in the middle, yours
// below, then your margin and who would win its battle if the game ended now. A card code is
// two country letters, war-machine end first: "GU" is German war machine / US infantry.
// Everything here comes from the player's own view.
import { t, tn, num, esc, playerName, wmCardWord } from "./common.js";

export { wmCardWord };

const COUNTRY = { U: "USA", G: "GER", J: "JPN", I: "ITA", R: "URS", B: "GBR" };
const LETTER = Object.fromEntries(Object.entries(COUNTRY).map(([l, c]) => [c, l]));
const ORDER = ["GER", "ITA", "JPN", "GBR", "USA", "URS"];  // docs/rules.md §6.1
const FILL = { USA: "#1565c0", GER: "#424242", JPN: "#c62828", ITA: "#2e7d32", URS: "#6d4c41", GBR: "#6a1b9a" };
const NAMES = { USA: "USA", GER: "Germany", JPN: "Japan", ITA: "Italy", URS: "USSR", GBR: "Britain" };
const ALL_CARDS = ORDER.flatMap((a) => ORDER.filter((b) => b !== a).map((b) => LETTER[a] + LETTER[b]));

export function countryName(code) { return t(NAMES[code] || code); }

/** Spoken name of a War Machine card: "war machine Germany / infantry USA". */
export function wmCardName(code) { return String(wmCardWord(code)); }

/** "+2", "−1", "0" in the page's digits. */
function signed(n) {
  return n > 0 ? `+${num(n)}` : n < 0 ? `−${num(-n)}` : num(0);
}

/** Who wins each position's battle if the game ended now (0, 1 or null): a decided battle
 * keeps its winner; an open one goes to the stronger side; a tie follows its reference
 * battle (§6.5), and a circle of ties has no winner. */
export function projectedWinners(front) {
  const winner = (i, seen) => {
    const c = front[i];
    if (c.status === "won") return c.winner;
    if (c.status === "no_winner") return null;
    const [a, b] = c.strengths;
    if (a !== b) return a > b ? 0 : 1;
    if (!c.tie_reference || seen.has(i)) return null;
    seen.add(i);
    return winner(c.tie_reference - 1, seen);
  };
  return front.map((_, i) => winner(i, new Set()));
}

/** Points for the cards of `hand` if `won` (a set of countries) were this player's (§6.6). */
function handPoints(hand, won, perCard) {
  let n = 0;
  for (const code of hand || []) {
    const ends = [COUNTRY[code[0]], COUNTRY[code[1]]].filter((c) => won.has(c)).length;
    n += perCard ? Math.min(ends, 1) : ends;
  }
  return n;
}

/** The three front cards, rebuilt from the six positions (positions 1-2, 3-4, 5-6 are one
 * card's two ends); they are public from the start. */
function frontCards(front) {
  const out = [];
  for (let i = 0; i + 1 < front.length; i += 2) {
    const [a, b] = front[i].depicted === "war_machine" ? [front[i], front[i + 1]] : [front[i + 1], front[i]];
    out.push(a.letter + b.letter);
  }
  return out;
}

/** The cards this viewer has seen: the front, the own hand, every deployed card, the cards
 * burned face up (battles, own burns), the leftover cards shown, a hand shown at the end, and
 * the leftover cards a chooser looked at (`leftover_seen`: known after the choice too, though
 * the opponent holds them). */
export function seenCards(v) {
  const seen = new Set(frontCards(v.front || []));
  for (const hand of v.hands || []) for (const c of hand || []) seen.add(c);
  for (const c of v.front || []) for (const side of c.sides) for (const u of side) seen.add(u.code);
  for (const c of [...(v.burned_cards || []), ...(v.leftover || []), ...(v.leftover_seen || [])]) if (c !== "?") seen.add(c);
  return seen;
}

function units(side) {
  return side.map((u) => `<span class="wm-u${u.up === "war_machine" ? " wm" : ""}" data-code="${esc(u.code)}" style="--c:${FILL[u.country] || "#333"}">${u.up === "war_machine" ? "▲" : "▼"}</span>`).join("");
}

function sideHtml(c, p, who) {
  const country = c.colours[p];
  const side = c.sides[p] || [];
  return `<div class="wm-side ${who}">` +
    (country ? `<span class="wm-nation" style="--c:${FILL[country]}">${esc(countryName(country))}</span>` : "") +
    `<span class="wm-units">${units(side)}</span>` +
    (side.length ? `<span class="wm-strength">${num(c.strengths[p])}</span>` : "") + `</div>`;
}

function handCard(code, next, selected) {
  const tok = `hand:${code}`;
  const on = next.has(tok), picked = selected.includes(tok);
  const end = (letter, up) => {
    const country = COUNTRY[letter] || "?";
    return `<span class="wm-end ${up ? "up" : "down"}" style="--c:${FILL[country] || "#333"}">` +
      `<span class="wm-glyph">${up ? "▲" : "▼"}${num(up ? 2 : 1)}</span><span class="wm-end-name">${esc(countryName(country))}</span></span>`;
  };
  return `<button type="button" class="wm-card${on ? " selectable" : ""}${picked ? " picked" : ""}" data-tok="${esc(tok)}" data-code="${esc(code)}" ` +
    `aria-label="${esc(wmCardName(code))}"${picked ? ' aria-pressed="true"' : ""}${on ? "" : " disabled"}>` +
    `${end(code[0], true)}${end(code[1], false)}</button>`;
}

/** A small picture of a card that is only looked at (burned, open hand, leftover). */
function miniCard(code) {
  if (code === "?") return `<span class="wm-mini hidden" role="img" aria-label="${esc(t("Hidden card"))}">?</span>`;
  const a = COUNTRY[code[0]], b = COUNTRY[code[1]];
  return `<span class="wm-mini" role="img" aria-label="${esc(wmCardName(code))}" data-code="${esc(code)}">` +
    `<span style="--c:${FILL[a]}">▲</span><span style="--c:${FILL[b]}">▼</span></span>`;
}

function bar(v, p, names, opts, extra) {
  const me = p === opts.seat && v.viewer === p;
  let s = `<strong>${esc(me && !opts.hotseat ? t("You") : playerName(names, p))}</strong>`;  // pass and play: names
  s += ` · ${esc(tn("hand: {n} card", "hand: {n} cards", (v.hand_sizes || [])[p]))}`;
  if (v.to_move === p) s += ` <span class="turn">● ${esc(t("to move"))}</span>`;
  return `<div class="player-bar ${me ? "me-bar" : "opp-bar"}">${s}${extra}</div>`;
}

export function renderWarMachine(box, v, opts) {
  const { seat, names, next, selected } = opts;
  const opp = 1 - seat;
  const front = v.front || [];
  const proj = projectedWinners(front);
  const over = v.phase === "over";
  // "you" and "opponent" only for a player at their own seat; watchers (and pass-and-play at
  // the end) read both players' names.
  const own = v.viewer === seat;
  const meWord = own ? t("you") : playerName(names, seat);
  const oppWord = own ? t("opponent") : playerName(names, opp);
  // The other hand, whenever this view shows it: at the end of a game, and in a replay that
  // shows both hands.
  const openHand = (v.hands && Array.isArray(v.hands[opp]) && v.hands[opp].length
    ? `<span class="zone open-hand" role="group" aria-label="${esc(t("open hand:"))}"><span class="zone-label" aria-hidden="true">${esc(t("open hand:"))}</span> ${v.hands[opp].map(miniCard).join("")}</span>` : "");
  let html = bar(v, opp, names, opts, openHand);
  html += `<div class="wm-front" role="list">`;
  for (const c of front) {
    const i = c.index - 1;
    const decided = c.status === "won" || c.status === "no_winner";
    const status = c.status === "pending" ? t("tied: waiting")
      : c.status === "no_winner" ? t("no winner")
        : c.status === "won" ? (c.winner === seat && own ? t("won by you") : t("won by {name}", { name: playerName(names, c.winner) })) : "";
    const margin = c.strengths[seat] - c.strengths[opp];
    const who = proj[i] === null ? "none" : proj[i] === seat ? "me" : "opp";
    const whoWord = who === "none" ? t("nobody") : who === "me" ? meWord : oppWord;
    const ifNow = t("if it ended now: {who}", { who: who === "opp" ? playerName(names, opp) : whoWord });
    const pileTok = `pile:${c.index}`;
    const pile = next.has(pileTok)
      ? `<button type="button" class="wm-pile selectable" data-tok="${pileTok}" aria-label="${esc(t("Draw from this pile ({n})", { n: num(c.pile) }))}">▮ ${num(c.pile)}</button>`
      : `<span class="wm-pile" title="${esc(t("pile: {n}", { n: num(c.pile) }))}">▮ ${num(c.pile)}</span>`;
    const deploy = ["war_machine", "infantry"].map((end) => {
      const k = `deploy:${end}:${c.index}`;
      const wm = end === "war_machine";
      return next.has(k) ? `<button type="button" class="wm-deploy selectable" data-tok="${esc(k)}" aria-label="${esc(wm ? t("Deploy as war machine ▲") : t("Deploy as infantry ▼"))}">${wm ? "▲" : "▼"}</button>` : "";
    }).join("");
    const label = [
      t("Position {n}", { n: num(c.index) }),
      `${countryName(c.country)} (${t(c.depicted === "war_machine" ? "war machine" : "infantry")}, ${t("value {n}", { n: num(c.value) })})`,
      t("pile: {n}", { n: num(c.pile) }),
      status,
      `${oppWord}: ${c.colours[opp] ? countryName(c.colours[opp]) + " " : ""}${t("strength {n}", { n: num(c.strengths[opp]) })}`,
      `${meWord}: ${c.colours[seat] ? countryName(c.colours[seat]) + " " : ""}${t("strength {n}", { n: num(c.strengths[seat]) })}`,
      decided || !own ? "" : t("your margin: {n}", { n: signed(margin) }),
      decided ? "" : ifNow,
    ].filter(Boolean).join("; ");
    const cls = ["wm-pos", `proj-${who}`];
    if (decided) cls.push("decided");
    if (c.status === "won") cls.push(c.winner === seat ? "won-me" : "won-opp");
    html += `<section class="${cls.join(" ")}" role="listitem" aria-label="${esc(label)}" data-pos="${c.index}">` +
      sideHtml(c, opp, "opp") +
      `<div class="wm-mid" style="--c:${FILL[c.country]}" aria-hidden="true">` +
      `<span class="wm-num">${num(c.index)}</span>` +
      `<span class="wm-home">${esc(countryName(c.country))}</span>` +
      `<span class="wm-worth">${c.depicted === "war_machine" ? "▲" : "▼"}${num(c.value)}</span></div>` +
      `<div class="wm-pilebox">${pile}</div>` +
      sideHtml(c, seat, "mine") +
      `<div class="wm-foot">${decided || c.status === "pending"
        ? `<span class="wm-status">${esc(status)}</span>`
        : own ? `<span class="wm-margin" dir="ltr">${signed(margin)}</span>` : ""}` +
      (decided ? "" : `<span class="wm-proj" title="${esc(ifNow)}">${esc(whoWord)}</span>`) + `</div>` +
      `<div class="wm-deploys">${deploy}</div></section>`;
  }
  html += `</div>`;
  if (!over && own) html += `<p class="wm-legend muted">${esc(t("Under each country: your margin, and who would win its battle if the game ended now."))}</p>`;
  html += summary(v, seat, opp, names, proj);
  html += bar(v, seat, names, opts, "");
  const hand = v.hands && v.hands[seat];
  if (Array.isArray(hand)) {
    html += `<div class="hand wm-hand" role="group" aria-label="${esc(t("Your hand"))}">${hand.map((c) => handCard(c, next, selected)).join("")}</div>`;
  }
  box.innerHTML = html;
}

function summary(v, seat, opp, names, proj) {
  const front = v.front || [];
  let s = `<p class="wm-summary">${esc(t("Support cards left: {n}", { n: num(v.support) }))} · ${esc(t("burned: {n}", { n: num(v.burned) }))}`;
  if (v.draws_left) s += ` · ${esc(t("draws left: {n}", { n: num(v.draws_left) }))}`;
  if (Array.isArray(v.burned_by_me) && v.burned_by_me.length) {
    s += ` · <span class="zone" role="group" aria-label="${esc(t("you burned:"))}"><span class="zone-label" aria-hidden="true">${esc(t("you burned:"))}</span> ${v.burned_by_me.map(miniCard).join("")}</span>`;
  }
  s += `</p>`;
  if (v.phase === "choose" && Array.isArray(v.leftover) && v.leftover.length) {
    s += `<p class="wm-summary">${esc(t("Leftover cards:"))} ${v.leftover.map(miniCard).join("")}</p>`;
  }
  if (v.match && Array.isArray(v.match.wins)) {
    s += `<p class="wm-summary">${esc(t("Best of three: game {n}, wins {a} : {b}", { n: num(v.match.game), a: num(v.match.wins[0]), b: num(v.match.wins[1]) }))}</p>`;
  }
  if (Array.isArray(v.scores)) {
    s += `<p class="wm-summary wm-score">${v.scores.map((sc, p) => esc(t("{name}: {total} (countries {countries}, hand {hand})",
      { name: playerName(names, p), total: num(sc.total), countries: num(sc.countries), hand: num(sc.hand) }))).join(" · ")}</p>`;
  } else if (v.viewer === seat) {
    // If the game ended now: the countries each would take, and this player's hand points
    // (the opponent's hand is hidden, so only their countries are counted).
    const won = (p) => new Set(front.filter((_, i) => proj[i] === p).map((c) => c.country));
    const pts = (p) => front.reduce((n, c, i) => n + (proj[i] === p ? c.value : 0), 0);
    const hand = handPoints((v.hands || [])[seat], won(seat), (v.options || {}).hand_scoring === "per_card");
    s += `<p class="wm-summary wm-score">${esc(t("If it ended now: you {total} (countries {countries}, hand {hand}); {name} {theirs} from countries, their hand unseen.",
      { total: num(pts(seat) + hand), countries: num(pts(seat)), hand: num(hand), name: playerName(names, opp), theirs: num(pts(opp)) }))}</p>`;
  }
  return s;
}

/** The 30 cards as a grid, war-machine end by row and infantry end by column: the ones this
 * player has not seen yet (in the support piles, the opponent's hand or face-down burns) are
 * ○, seen ones ●; the sums say how many war machines and infantry of each country may still
 * come. */
export function renderWarMachineTracker(box, v) {
  if (!Array.isArray(v.front)) { box.innerHTML = ""; return; }
  const seen = seenCards(v);
  const unseen = ALL_CARDS.filter((c) => !seen.has(c));
  const oppHand = [0, 1].reduce((n, p) => n + (Array.isArray((v.hands || [])[p]) ? 0 : (v.hand_sizes || [0, 0])[p]), 0);
  const facedown = [...(v.burned_cards || []), ...(v.leftover || [])].filter((c) => c === "?").length;
  // hidden places holding cards this player knows: the leftover cards it looked at as chooser
  const known = v.support + oppHand + facedown - unseen.length;
  let html = `<p class="muted">${esc(t("Cards you have not seen yet are marked ○; seen ones ●. Rows: the war machine end (▲); columns: the infantry end (▼)."))}</p>`;
  const where = { piles: num(v.support), hand: num(oppHand), down: num(facedown), known: num(known) };
  html += `<p class="wm-unseen">${esc(known > 0
    ? tn("Not seen: {n} card (support piles {piles}, opponent's hand {hand}, face down {down}, less {known} you saw among the leftover cards).",
      "Not seen: {n} cards (support piles {piles}, opponent's hand {hand}, face down {down}, less {known} you saw among the leftover cards).", unseen.length, where)
    : tn("Not seen: {n} card (support piles {piles}, opponent's hand {hand}, face down {down}).",
      "Not seen: {n} cards (support piles {piles}, opponent's hand {hand}, face down {down}).", unseen.length, where))}</p>`;
  html += `<table class="tracker wm-tracker"><thead><tr><th scope="col"><span aria-hidden="true">▲ \\ ▼</span></th>` +
    ORDER.map((b) => `<th scope="col" style="--c:${FILL[b]}">▼ <span class="wm-name">${esc(countryName(b))}</span></th>`).join("") +
    `<th scope="col"><span aria-hidden="true">Σ ○</span><span class="visually-hidden">${esc(t("not seen"))}</span></th></tr></thead><tbody>`;
  for (const a of ORDER) {
    html += `<tr><th scope="row" style="--c:${FILL[a]}">▲ <span class="wm-name">${esc(countryName(a))}</span></th>`;
    for (const b of ORDER) {
      if (a === b) { html += `<td aria-hidden="true">·</td>`; continue; }
      const code = LETTER[a] + LETTER[b];
      const u = !seen.has(code);
      html += `<td class="${u ? "unseen" : "seen"}" data-code="${code}" aria-label="${esc(wmCardName(code))}: ${esc(u ? t("not seen") : t("seen"))}">${u ? "○" : "●"}</td>`;
    }
    html += `<td class="sum">${num(unseen.filter((c) => c[0] === LETTER[a]).length)}</td></tr>`;
  }
  html += `<tr><th scope="row"><span aria-hidden="true">Σ ○</span><span class="visually-hidden">${esc(t("not seen"))}</span></th>` +
    ORDER.map((b) => `<td class="sum">${num(unseen.filter((c) => c[1] === LETTER[b]).length)}</td>`).join("") + `<td class="sum">${num(unseen.length)}</td></tr>`;
  html += `</tbody></table>`;
  box.innerHTML = html;
}
