// A tutorial ("Learn to play"): one scripted step at a time on a real table. The server
// (web/learn.py) sets up each step's position and judges the learner's move: the rules first
// (a refused move says why, in words), then the script (another legal move gets a hint).
import { loadCatalog, t, num, esc, installCardTips, rememberGame, sentences } from "./common.js";
import { adapterFor, renderBoard } from "./adapters.js";
import { showRefusals, reasonWords } from "./refusals.js";
import { proofText } from "./reasons.js";

const $ = (id) => document.getElementById(id);
const root = $("learn");
const key = root.dataset.key;
let index = Math.max(1, Number(new URLSearchParams(location.search).get("step")) || 1);
let step = null; // the server's step payload
let view = null; // the board shown (the step's, or after the learner's move)
let sel = []; // clicks made so far towards a move
let done = false; // the step's task is done
let adapter = null;

const pathOf = (e) => adapter.pathOf(e);
const legal = () => (view && view.to_move === 0 && view.legal) || [];
const candidates = () => legal().filter((e) => { const p = pathOf(e); return sel.every((s, i) => p[i] === s); });
function nextTokens() {
  const out = new Set();
  for (const e of candidates()) { const p = pathOf(e); if (p.length > sel.length) out.add(p[sel.length]); }
  return out;
}
const firstTokens = () => new Set(legal().map((e) => pathOf(e)[0]));

function feedback(text, kind = "") {
  const el = $("learn-feedback");
  el.textContent = text;
  el.className = `learn-feedback ${kind}`;
}

async function load(i) {
  const r = await fetch(`/api/learn/${encodeURIComponent(key)}/${i}`);
  if (!r.ok) { feedback(t("This step cannot be loaded."), "bad"); return; }
  step = await r.json();
  index = i;
  view = step.view;
  adapter = adapterFor(view.game);
  sel = [];
  done = step.task === "read";
  feedback("");
  $("learn-next-why").hidden = true;
  const url = new URL(location.href);
  url.searchParams.set("step", String(i));
  history.replaceState(null, "", url.pathname + url.search);
  draw();
  $("learn-title").focus?.();
}

function pick(tok) {
  if (step.task === "refuse" && tok === `hand:${step.refuse}`) refusedSeen();
  if (sel.length === 1 && tok === sel[0]) { sel = []; draw(); return; }
  if (sel.length && !nextTokens().has(tok) && firstTokens().has(tok)) sel = [];
  sel.push(tok);
  const complete = candidates().filter((e) => pathOf(e).length === sel.length);
  if (complete.length === 1) { const text = complete[0].text; sel = []; send(text); return; }
  if (!candidates().length) sel = [];
  draw();
}

async function send(text) {
  const r = await fetch(`/api/learn/${encodeURIComponent(key)}/${index}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text }) });
  const out = await r.json();
  if (out.ok) {
    view = out.view;
    done = true;
    // a claim's proof, as the flag showed it before the claim (the step's words promise it)
    const proof = proofText(out.proof);
    feedback(sentences(t("Well done."), ...out.done.map((d) => t(d, { proof }))), "good");
  } else if (out.reason) {
    feedback(t("Not allowed: {why}", { why: reasonWords(out.reason, view.game) }), "bad");
  } else {
    feedback(t(out.hint || "Try again."), "bad");
  }
  draw();
}

/** The step asked to look at why a card is refused: the learner has. */
function refusedSeen() {
  if (done) return;
  done = true;
  const said = step.done.length ? sentences(...step.done.map((d) => t(d))) : t("That is the reason the rules give.");
  feedback(said, "good");
  setTimeout(draw, 0);
}

function draw() {
  $("learn-title").textContent = t(step.title);
  $("learn-progress").textContent = t("Step {n} of {count}", { n: num(index), count: num(step.count) });
  $("learn-say").innerHTML = step.say.map((s) => `<p>${esc(t(s))}</p>`).join("");
  const active = !done && step.task !== "read";
  const next = active ? nextTokens() : new Set();
  if (active && sel.length) for (const tok of firstTokens()) if (tok.startsWith("hand:")) next.add(tok);
  const names = [t("You"), t("Opponent")];
  renderBoard(adapter, $("board"), view, { seat: 0, names, next, selected: sel, online: null });
  showRefusals($("board"), view, sel, !done || step.task === "refuse");
  const list = $("board").querySelector(".refused-list");
  if (list) list.open = true;
  let html = "";
  if (active) {
    const btn = (tok, label) => (next.has(tok) ? `<button type="button" data-tok="${esc(tok)}">${esc(label)}</button>` : "");
    html += btn("btn:pass", t("Pass")) + btn("btn:end", t("End turn")) + btn("btn:discard", t("Discard it")) + btn("btn:burn", t("Burn this card"));
    if (sel.length) html += `<button type="button" id="learn-cancel">${esc(t("Cancel"))}</button>`;
  }
  $("controls").innerHTML = html;
  $("status").textContent = active ? (step.task === "move" ? t("Your move.") : t("Click the card the text names.")) : "";
  $("status").hidden = !active;
  $("learn-back").disabled = index <= 1;
  $("learn-next").hidden = step.last;
  // Next stays focusable and clickable while the step's task is open (aria-disabled, not
  // disabled), so that a click or focus can say what opens it.
  if (done) $("learn-next").removeAttribute("aria-disabled"); else $("learn-next").setAttribute("aria-disabled", "true");
  $("learn-next-why").textContent = done ? "" : step.task === "move"
    ? t("Next opens once you have made the move the text asks for.")
    : t("Next opens once you have clicked the card the text names.");
  if (done) $("learn-next-why").hidden = true;
  $("learn-play").hidden = !step.last;
  root.dataset.step = String(index);
  root.dataset.done = String(done);
}

document.addEventListener("click", (ev) => {
  if (!step) return;
  const el = ev.target.closest("[data-tok],#learn-cancel");
  if (!el) return;
  if (el.id === "learn-cancel") { sel = []; draw(); return; }
  const tok = el.dataset.tok;
  // a refused card (aria-disabled) is not a move, but the step may ask to look at it
  if (el.getAttribute("aria-disabled") === "true" || el.disabled) {
    if (step.task === "refuse" && tok === `hand:${step.refuse}`) refusedSeen();
    return;
  }
  pick(tok);
});
document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && sel.length) { sel = []; draw(); } });
$("learn-next").addEventListener("click", () => {
  if (!done) { $("learn-next-why").hidden = false; return; }
  load(index + 1);
});
$("learn-next").addEventListener("focus", () => { if (!done) $("learn-next-why").hidden = false; });
$("learn-back").addEventListener("click", () => load(index - 1));
$("learn-play").addEventListener("click", async () => {
  // the game the lesson taught (Medieval: its battlefields face up)
  const body = { ruleset: step.ruleset, options: step.options || {}, opponent: "bot:easy", seat: "random" };
  const r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) { feedback(t("Refused: {message}", { message: (await r.json()).detail || r.statusText }), "bad"); return; }
  const g = await r.json();
  rememberGame({ id: g.id, token: g.token, seat: g.seat, ruleset: g.ruleset, opponent: g.opponent });
  location.href = g.url;
});

await loadCatalog();
installCardTips();
load(index);
