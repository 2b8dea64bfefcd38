// Short animations of what just happened on the table: a card glides from where it was (your
// hand, another flag, or the opponent's side of the table when it came from their hidden hand)
// to where it now lies, and a claimed flag or a battle just decided pulses. Nothing moves when
// the player asks for reduced motion (and the CSS stops any other motion then too).
// Usage: const before = snapshot(board); ...redraw...; animate(board, before, previousView, view, seat).

const DURATION = 260; // ms
const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
// Where the cards on the table are drawn (never the hand, claim notes or zones).
const TABLE = ".flag-col .side [data-code], .wm-pos .wm-side [data-code]";

/** Where every card of the board is now, by code, and the opponent's bar (taken before the
 * board is redrawn). */
export function snapshot(board) {
  const rects = new Map();
  for (const el of board.querySelectorAll(`.hand [data-code], ${TABLE}`)) rects.set(el.dataset.code, el.getBoundingClientRect());
  const opp = board.querySelector(".opp-bar");
  return { rects, opp: opp ? opp.getBoundingClientRect() : null };
}

function fly(el, from) {
  const to = el.getBoundingClientRect();
  if (!from || !to.width) return false;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(1.15)`, opacity: 0.7 }, { transform: "none", opacity: 1 }],
    { duration: DURATION, easing: "cubic-bezier(.2,.7,.3,1)" });
  return true;
}

function pulse(el) {
  el.animate([{ transform: "scale(1.8)", opacity: 0.5 }, { transform: "scale(1)", opacity: 1 }], { duration: DURATION, easing: "ease-out" });
}

/** Animate what is new in view `v` since `prev` (both drawn for the same seat). Counts the
 * animations started in #table's data-animations (a hook for tests). */
export function animate(board, before, prev, v) {
  if (!before || !prev || reduced()) return;
  const records = (v.log_records || []).slice((prev.log_records || []).length);
  let started = 0;
  for (const e of records) {
    if (["play", "environment", "traitor", "redeploy", "deploy"].includes(e.kind) && e.card && e.card !== "?") {
      const el = [...board.querySelectorAll(TABLE)].find((x) => x.dataset.code === e.card);
      if (el && fly(el, before.rects.get(e.card) || before.opp)) started++;
    } else if (e.kind === "claim") {
      const token = board.querySelector(`.flag-col[data-flag="${e.flag}"] .flag-token`);
      if (token) { pulse(token); started++; }
    }
  }
  // War Machine: a battle is fought when its pile runs out (no record of its own).
  const was = new Map((prev.front || []).map((c) => [c.index, c.status]));
  for (const c of v.front || []) {
    if ((c.status === "won" || c.status === "no_winner") && was.get(c.index) !== c.status) {
      const mid = board.querySelector(`.wm-pos[data-pos="${c.index}"] .wm-mid`);
      if (mid) { pulse(mid); started++; }
    }
  }
  const root = document.getElementById("table");
  if (root && started) root.dataset.animations = String(Number(root.dataset.animations || 0) + started);
}
