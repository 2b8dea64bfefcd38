// Why a play is refused, in the page's language. The engine gives reasons as data (a code,
// its parameters and its English words, docs/contracts.md `refusals`); the catalogs give the
// words. On the table, a hand card that cannot be played says why when clicked (and on
// hover), and once a card is picked, each flag or place that refuses it says why.
import { t, num, esc, cardWord, sentences } from "./common.js";
import { reasonWords } from "./reasons.js";
import { wmCardWord } from "./warmachine.js";

export { reasonWords };

// Our own small style sheet (the table's is another's): loaded once with this module.
if (!document.querySelector('link[href="/static/learn.css"]')) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/learn.css";
  document.head.appendChild(link);
}

/** The place where refusals are said (made once, after the status line). */
function note() {
  let el = document.getElementById("refusal");
  if (!el) {
    el = document.createElement("p");
    el.id = "refusal";
    el.className = "refusal-note";
    el.setAttribute("role", "status");
    el.setAttribute("aria-live", "polite");
    const status = document.getElementById("status");
    if (status) status.after(el); else document.body.prepend(el);
  }
  return el;
}

/** Say why, under the status line ("" clears it). */
export function sayRefusal(text) {
  const el = note();
  el.textContent = text ? `⊘ ${text}` : "";
  el.hidden = !text;
}

document.addEventListener("click", (ev) => {
  const el = ev.target.closest && ev.target.closest("[data-refusal]");
  if (el) sayRefusal(el.dataset.refusal);
});

/** After the board is drawn: mark what `v.refusals` refuses, for the cards picked in `sel`.
 * `box` is the board element; `mine` whether the viewer is to move. */
export function showRefusals(box, v, sel, mine) {
  const r = mine ? v.refusals : null;
  if (!r) { sayRefusal(""); return; }
  const game = v.game;
  // hand cards that cannot be played at all: clickable, to say why
  for (const [code, reason] of Object.entries(r.cards || {})) {
    const card = game === "warmachine" ? wmCardWord(code) : cardWord(code);
    const words = t("{card} cannot be played now: {why}", { card, why: reasonWords(reason, game) });
    for (const el of box.querySelectorAll(`[data-tok="hand:${CSS.escape(code)}"]:not(.selectable)`)) {
      el.disabled = false;
      el.setAttribute("aria-disabled", "true");
      el.classList.add("refused");
      el.dataset.refusal = words;
      // hover, focus and long-press show it too, after the card's rule if it has one (the
      // title is also the button's accessible description)
      el.dataset.tip = sentences(el.dataset.tip || "", el.dataset.tip ? `⊘ ${words}` : words);
      el.title = el.dataset.tip;
    }
  }
  // a reason said stays until a card is picked (the places it cannot go are marked then)
  const picked = sel.length === 1 && sel[0].startsWith("hand:") ? sel[0].slice(5) : null;
  if (!picked) return;
  sayRefusal("");
  if (game === "warmachine") { placesRefused(box, (r.deploy || {})[picked], picked, v); return; }
  for (const [flag, reason] of Object.entries((r.flags || {})[picked] || {})) {
    const col = box.querySelector(`[data-flag="${CSS.escape(flag)}"]`);
    if (!col) continue;
    const words = reasonWords(reason, game);
    col.classList.add("refuses");
    const mark = document.createElement("button");
    mark.type = "button";
    mark.className = "refused-slot";
    mark.dataset.refusal = words;  // every flag reason names its flag
    mark.title = mark.dataset.refusal;
    mark.setAttribute("aria-label", mark.dataset.refusal);
    mark.textContent = "⊘";
    (col.querySelector(".side.mine") || col).appendChild(mark);
  }
}

/** War Machine: the places that refuse the picked card, as a short list under the board. */
function placesRefused(box, refused, code, v) {
  if (!refused) return;
  const items = Object.entries(refused).map(([key, reason]) => {
    const [end, pos] = key.split(":");
    const n = num(Number(pos));
    const where = end === "war_machine" ? t("▲ war machine at P{n}", { n }) : t("▼ infantry at P{n}", { n });
    return `<li>${esc(where)}: ${esc(reasonWords(reason, v.game))}</li>`;
  });
  const list = document.createElement("details");
  list.className = "refused-list";
  list.innerHTML = `<summary>${esc(t("Where {card} cannot go, and why", { card: wmCardWord(code) }))}</summary><ul>${items.join("")}</ul>`;
  box.appendChild(list);
}
