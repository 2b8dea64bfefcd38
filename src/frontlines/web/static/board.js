// Drawing a view dict: the Battle Line family's table and tracker, the generic table and the
// log. Each game's adapter (adapters.js) picks its renderer; the live table and replays use them.
import { t, tn, num, esc, listOf, wordList, cardImg, cardSvg, cardName, cardWord, cardRule, ruleAttrs, formationText, playerName, describeAction, sentences, asSentence, COLOURS, COLOUR_NAMES } from "./common.js";
import { proofText } from "./reasons.js";

/** The seat drawn at the bottom: the viewer, else the first player. */
export function me(v, role) {
  if (v.viewer === 0 || v.viewer === 1) return v.viewer;
  return role === 1 ? 1 : 0;
}

function cardButton(code, ruleset, tok, next, selected, extra = "") {
  const on = next.has(tok);
  const picked = selected.includes(tok);
  // A tactics card's face says its name (short in the band, whole below the mark), so no
  // caption repeats it; its rule is on the popover.
  return `<button type="button" class="card ${extra}${on ? " selectable" : ""}${picked ? " picked" : ""}" data-tok="${esc(tok)}" data-code="${esc(code)}"` +
    ` aria-label="${esc(cardName(code, ruleset))}"${ruleAttrs(code)}${picked ? ' aria-pressed="true"' : ""}${on ? "" : " disabled"}>${cardSvg(code)}</button>`;
}

function tableCard(code, ruleset, next, selected, last) {
  const tok = `table:${code}`;
  return next.has(tok) ? cardButton(code, ruleset, tok, next, selected, last ? "small last-move" : "small")
    : cardImg(code, ruleset, last ? "small last-move" : "small");
}

/** The card each seat last put on the table (the public log's last play, environment card,
 * traitor or redeploy of that seat), or null when that card left the table since. */
export function lastCards(v) {
  const last = [null, null];
  for (const e of v.log_records || []) {
    if (e.seat !== 0 && e.seat !== 1) continue;
    if (["play", "environment", "traitor"].includes(e.kind)) last[e.seat] = e.card;
    else if (e.kind === "redeploy") last[e.seat] = e.target === "x" ? null : e.card;
    else if (e.kind === "deserter") last[e.seat] = null;
  }
  return last;
}

function counterText(ce, ruleset) {
  if (!ce) return "";
  if (Array.isArray(ce)) return listOf(ce.map((c) => cardName(c, ruleset)));
  if (typeof ce === "object") return Object.values(ce).flat().map((c) => (typeof c === "string" ? c : JSON.stringify(c))).join(", ");
  return String(ce);
}

function counterCards(ce, ruleset) {
  if (Array.isArray(ce) && ce.every((c) => typeof c === "string")) return ce.map((c) => cardImg(c, ruleset, "tiny")).join("");
  return "";
}

/** A counter-example may name cards this player holds: proofs count only the cards on the
 * table (docs/rules.md §2.12), so those count as unseen; say so, or the note reads as a mistake. */
function handNote(ce, hand) {
  if (!Array.isArray(ce) || !Array.isArray(hand)) return "";
  const held = ce.filter((c) => hand.includes(c));
  if (!held.length) return "";
  const words = tn("Proofs use only the cards on the table: {cards} in your hand counts as unseen.",
    "Proofs use only the cards on the table: {cards} in your hand count as unseen.", held.length,
    { cards: wordList(held.map((c) => cardWord(c))) });
  return `<span class="hand-note">${esc(words)}</span>`;
}

/** Battle Line family: nine flags, each with two sides, marks and a claim line. */
export function renderBattleLine(box, v, opts) {
  const { seat, names, next, selected } = opts;
  const opp = 1 - seat;
  const rs = v.ruleset;
  const flags = v.flags || [];
  const last = lastCards(v);
  const placeMark = v.place_name === "stone" ? "⬟" : "⚑";  // a boundary stone, or a flag
  const over = v.to_move === null || v.to_move === undefined || Boolean(v.outcome);
  const hand = v.hands && v.hands[seat];
  let html = `<div class="player-bar opp-bar">${playerBar(v, opp, names, opts)}</div>`;
  html += `<div class="flags" role="list">`;
  let notes = "";
  for (const f of flags) {
    const n = f.index;
    const claimed = f.claimed_by;
    const marks = [];
    // Fog and Mud by the ruleset's own names (Schotten Totten's Blind-Man's Bluff, Mud Fight)
    if (f.fog) marks.push(`<span class="mark fog" title="${esc(cardName("FO"))}">${esc(cardName("FO"))}</span>`);
    if (f.mud) marks.push(`<span class="mark mud" title="${esc(cardName("MU"))}">${esc(cardName("MU"))}</span>`);
    if (f.battlefield) {
      const b = f.battlefield;
      // The battlefield's rule is under its name, and on its popover (the phone has no room
      // for the text in a flag's column). A face-down card shows nothing of itself (every one
      // looks the same; the line under the flags says what that means) until the game ends and
      // it is turned over: its name then, its rule marked as one that did not apply.
      if (b.face_up) {
        const tip = b.text ? ` data-tip="${esc(`${t(b.name || "")}: ${t(b.text)}`)}" tabindex="0"` : "";
        marks.push(`<span class="mark bf"${tip}>${esc(t(b.name || ""))}</span>${b.text ? `<small class="bf-text">${esc(t(b.text))}</small>` : ""}`);
      } else if (b.turned_over) {
        const said = t("{battlefield}: turned over at the end; its rule did not apply.", { battlefield: t(b.name || "") });
        const tip = ` data-tip="${esc(sentences(said, b.text ? t(b.text) : ""))}" tabindex="0"`;
        marks.push(`<span class="mark bf turned"${tip}>${esc(t(b.name || ""))}</span>`);
      }
    }
    const form = f.formation || [null, null];
    const claim = f.claim;
    const claimTok = `claim:${n}`;
    const canClaim = next.has(claimTok);
    const status = claimed === null || claimed === undefined ? ""
      : claimed === seat ? t("won by you") : t("won by {name}", { name: playerName(names, claimed) });
    const label = [
      t("Flag {n}", { n: num(n) }),
      status,
      f.fog ? cardName("FO") : "", f.mud ? cardName("MU") : "",
      !f.battlefield ? "" : f.battlefield.face_up ? `${t(f.battlefield.name || "")}: ${t(f.battlefield.text || "")}`
        : f.battlefield.turned_over ? t("{battlefield}: turned over at the end; its rule did not apply.", { battlefield: t(f.battlefield.name || "") })
          : t("Battlefield face down"),
      `${t("opponent")}: ${listOf((f.sides[opp] || []).map((c) => cardName(c, rs))) || t("no cards")}` +
        (form[opp] ? ` (${formationText(form[opp])})` : ""),
      `${t("you")}: ${listOf((f.sides[seat] || []).map((c) => cardName(c, rs))) || t("no cards")}` +
        (form[seat] ? ` (${formationText(form[seat])})` : ""),
      claim && claim.claimable ? t("claimable") : "",
    ].filter(Boolean).join("; ");
    const cls = ["flag-col"];
    if (claimed === seat) cls.push("won-me"); else if (claimed === opp) cls.push("won-opp");
    if (claim && claim.claimable) cls.push("claimable");
    const env = (p) => (f.environment && f.environment[p] || []).map((c) => cardImg(c, rs, c === last[p] ? "tiny env last-move" : "tiny env")).join("");
    const slotTok = `flag:${n}`;
    const slot = next.has(slotTok)
      ? `<button type="button" class="slot selectable" data-tok="${esc(slotTok)}" aria-label="${esc(t("Play to flag {n}", { n: num(n) }))}">+</button>` : "";
    let claimHtml = "";
    if (canClaim) {
      // On a phone the column is a card wide: the button shows a tick over one short word
      // ("Claim"), its whole name stays its label.
      const words = t("Claim flag {n}", { n: num(n) });
      claimHtml += `<button type="button" class="claim-btn" data-tok="${esc(claimTok)}" aria-label="${esc(words)}">` +
        `<span class="long" aria-hidden="true">${esc(words)}</span>` +
        `<span class="short" aria-hidden="true"><span class="tick">✔</span><span class="claim-word">${esc(t("Claim"))}</span></span></button>`;
    }
    let note = "";
    if (over) {
      // the game is over: nothing is claimed any more, so no proof or "not yet" note
    } else if (claim && claim.claimable && claim.reason) {
      note = `<p class="proof"><span aria-hidden="true">✔ </span>${esc(proofText(claim))}</p>`;
    } else if (claim && !claim.claimable && (claim.counterexample || claim.reason)) {
      note = `<p class="counter"><span aria-hidden="true">✘ </span>` + sentences(esc(t("Not provable yet.")),
        claim.counterexample ? `${esc(t("The opponent could still make:"))} ${counterCards(claim.counterexample, rs)}` +
          `<span class="visually-hidden">${esc(counterText(claim.counterexample, rs))}</span>` : "",
        claim.reason ? `<span class="reason">${esc(asSentence(proofText(claim)))}</span>` : "",
        handNote(claim.counterexample, hand)) + `</p>`;
    }
    claimHtml += note;
    // The same words again, under the hand, for the phone (CSS shows one of the two).
    if (note) notes += `<li><strong>${esc(t("Flag {n}", { n: num(n) }))}:</strong> ${note}</li>`;
    html += `<section class="${cls.join(" ")}" role="listitem" aria-label="${esc(label)}" data-flag="${n}">` +
      `<div class="side opp">${env(opp)}${(f.sides[opp] || []).map((c) => tableCard(c, rs, next, selected, c === last[opp])).join("")}` +
      `<span class="form">${esc(formationText(form[opp]))}</span></div>` +
      `<div class="flag-mid"><span class="flag-token${claimed === seat ? " me" : claimed === opp ? " them" : ""}" aria-hidden="true">` +
      `${claimed === seat ? "▼" : claimed === opp ? "▲" : placeMark}${num(n)}</span>${marks.join("")}</div>` +
      `<div class="side mine">${(f.sides[seat] || []).map((c) => tableCard(c, rs, next, selected, c === last[seat])).join("")}${env(seat)}${slot}` +
      `<span class="form">${esc(formationText(form[seat]))}</span></div>` +
      `<div class="claim-line">${claimHtml}</div></section>`;
  }
  html += `</div>`;
  html += battlefieldsNote(flags);
  html += `<div class="decks">${deckButton(v, "troop", next)}${deckButton(v, "tactics", next)}</div>`;
  html += `<div class="player-bar me-bar">${playerBar(v, seat, names, opts)}</div>`;
  if (Array.isArray(hand)) {
    html += `<div class="hand" role="group" aria-label="${esc(t("Your hand"))}">` +
      hand.map((c) => cardButton(c, rs, `hand:${c}`, next, selected)).join("") + `</div>`;
  }
  if (notes) html += `<ul class="claim-notes">${notes}</ul>`;
  box.innerHTML = html;
}

/** One line under the flags for the face-down battlefields, instead of a mark on each. */
function battlefieldsNote(flags) {
  const down = flags.filter((f) => f.battlefield && !f.battlefield.face_up);
  if (!down.length) return "";
  const text = down.some((f) => f.battlefield.turned_over)
    ? t("The face-down battlefields are turned over: their rules did not apply in this game.")
    : down.length === flags.length
      ? t("Battlefields face down: none of them changes the rules. They are turned over when the game ends.")
      : t("Flags without a battlefield name have theirs face down: no rule changes there. They are turned over when the game ends.");
  return `<p class="bf-note muted">${esc(text)}</p>`;
}

function deckButton(v, deck, next) {
  const size = deck === "troop" ? v.troop_deck : v.tactics_deck;
  if (size === undefined) return "";
  if (deck === "tactics" && !v.has_tactics) return "";
  const tok = `deck:${deck}`;
  const label = deck === "troop" ? tn("Troop deck: {n} card", "Troop deck: {n} cards", size) : tn("Tactics deck: {n} card", "Tactics deck: {n} cards", size);
  return `<button type="button" class="deck ${deck}${next.has(tok) ? " selectable" : ""}" data-tok="${tok}"${next.has(tok) ? "" : " disabled"}>` +
    `${cardSvg("?")}<span>${esc(label)}</span></button>`;
}

function playerBar(v, p, names, opts) {
  const size = v.hand_sizes ? v.hand_sizes[p] : null;
  const tac = v.hand_tactics ? v.hand_tactics[p] : null;
  // pass and play: both people read the table, so each bar shows its player's name
  const who = p === opts.seat && v.viewer === p && !opts.hotseat ? t("You") : playerName(names, p);
  // a friend who has not opened the invite yet was never here: not "offline"
  const online = opts.online ? (p === opts.notJoined ? t("not joined yet") : opts.online[p] ? t("online") : t("offline")) : "";
  let s = `<strong>${esc(who)}</strong>`;
  if (p !== opts.seat || v.viewer !== p) s += ` <span class="muted">${esc(online)}</span>`;
  // "hand: 7 cards (1 tactics card)": Japanese puts no space before its bracket (手札：7枚（戦術1枚）)
  if (size !== null && size !== undefined) {
    s += ` · ${esc(sentences(tn("hand: {n} card", "hand: {n} cards", size), tac ? tn("({n} tactics card)", "({n} tactics cards)", tac) : ""))}`;
  }
  if (v.tactics_played && v.has_tactics) s += ` · ${esc(t("tactics played: {n}", { n: num(v.tactics_played[p]) }))}`;
  if (v.to_move === p) s += ` <span class="turn">● ${esc(t("to move"))}</span>`;
  // Every pile of cards is a labelled zone of its own (a replay's open hand must not read as
  // the guile cards before it).
  const zone = (label, cards, cls) => `<span class="zone ${cls}" role="group" aria-label="${esc(label)}">` +
    `<span class="zone-label" aria-hidden="true">${esc(label)}</span> ${cards.map((c) => cardImg(c, v.ruleset, "tiny")).join("")}</span>`;
  const guile = v.guile && v.guile[p] || [];
  if (guile.length) s += zone(t("guile:"), guile, "guile");
  const disc = v.discards && v.discards[p] || [];
  if (disc.length) s += zone(t("discarded:"), disc, "discards");
  const open = p !== opts.seat && v.hands && Array.isArray(v.hands[p]) ? v.hands[p] : null;
  if (open) s += zone(t("open hand:"), open, "open-hand");
  return s;
}

/** Anything else: the view's fields as a plain list (a game without its own renderer yet). */
export function renderGeneric(box, v) {
  const skip = new Set(["legal", "log", "log_seats", "log_records", "game", "ruleset", "viewer", "to_move", "phase", "outcome"]);
  box.innerHTML = `<dl class="generic">` + Object.entries(v).filter(([k]) => !skip.has(k))
    .map(([k, val]) => `<dt>${esc(t(k))}</dt><dd><code>${esc(JSON.stringify(val))}</code></dd>`).join("") + `</dl>`;
}

/** Troops not yet seen (by colour), and tactics cards played so far. */
export function renderTracker(box, v) {
  if (!Array.isArray(v.unseen)) { box.innerHTML = `<p class="muted">${esc(t("No tracker for this game."))}</p>`; return; }
  const unseen = new Set(v.unseen);
  const maxValue = (v.features && v.features.max_value) || 10;
  let html = `<p class="muted">${esc(t("Troops you have not seen yet are marked ○; seen ones ●."))}</p><table class="tracker"><tbody>`;
  for (const c of COLOURS) {
    html += `<tr><th scope="row">${esc(t(COLOUR_NAMES[COLOURS.indexOf(c)]))}</th>`;
    for (let val = 1; val <= maxValue; val++) {
      const code = `${c}${val}`;
      const u = unseen.has(code);
      html += `<td class="${u ? "unseen" : "seen"} c-${c}" aria-label="${esc(cardName(code, v.ruleset))}: ${esc(u ? t("not seen") : t("seen"))}">${u ? "○" : "●"}${num(val)}</td>`;
    }
    html += `</tr>`;
  }
  html += `</tbody></table>`;
  box.innerHTML = html;
}

/** The public log (the view's `log_records`); each entry says who made it ("You" for the
 * seat `you`). */
export function renderLog(box, v, names, you) {
  const log = v.log_records || [];
  box.innerHTML = log.map((entry, i) => {
    const seat = entry.seat === 0 || entry.seat === 1 ? entry.seat : null;
    const who = seat === null ? "" : `<span class="who">${esc(seat === you ? t("You") : playerName(names, seat))}:</span> `;
    const rule = entry.card ? cardRule(entry.card) : "";
    return `<li value="${i + 1}"${rule ? ` title="${esc(`${cardName(entry.card)}: ${rule}`)}"` : ""}>${who}${esc(describeAction(entry, v.ruleset))} <code dir="ltr">${esc(entry.text)}</code></li>`;
  }).join("");
  box.scrollTop = box.scrollHeight;
}
