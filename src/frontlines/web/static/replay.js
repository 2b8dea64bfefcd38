// Replays: step through a finished game, from either seat or with both hands open.
import { loadCatalog, t, num, esc, sentences, listOf, outcomeText, describeAction, seatNames, installCardTips } from "./common.js";
import { renderLog, me } from "./board.js";
import { adapterFor, renderBoard } from "./adapters.js";

const $ = (id) => document.getElementById(id);
const gameId = $("replay").dataset.game;
let info = null;
let adapter = null; // the game's adapter, chosen once from the first view
let step = 0;
const cache = new Map();

async function fetchStep(i, seat) {
  const key = `${i}/${seat}`;
  if (!cache.has(key)) {
    const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/replay/${i}?seat=${seat}`);
    if (!r.ok) throw new Error(await r.text());
    cache.set(key, (await r.json()).view);
  }
  return cache.get(key);
}

// --- the review: win chance per move, the big mistakes (/api/games/<id>/analysis) ---------------
let review = null; // the finished review, once there is one
const LANG = document.body.dataset.lang || "en";

const GRAPH = { W: 800, H: 170, P: 8 }; // the graph's own units (it is drawn the width of the panel)

function pct(x) {
  try {
    return new Intl.NumberFormat(LANG === "fa" ? "fa-IR" : LANG, { style: "percent", maximumFractionDigits: 0 }).format(x);
  } catch (_) { return `${Math.round(100 * x)}%`; }
}

// Seat 0's win chance before each reviewed decision (the mover's chance with its best move),
// and the marks of the mistakes, drawn as an SVG the width of the panel.
function drawGraph() {
  const { W, H, P } = GRAPH;
  const last = Math.max(1, info.steps - 1);
  const x = (step) => P + (W - 2 * P) * (step / last);
  const y = (p0) => P + (H - 2 * P) * (1 - p0);
  const seat0 = (m, value) => (m.player === 0 ? value : 1 - value);
  const points = review.moves.map((m) => `${x(m.index).toFixed(1)},${y(seat0(m, m.before)).toFixed(1)}`);
  const name0 = info.names[0];
  let marks = "";
  for (const m of review.moves) {
    if (!m.verdict) continue;
    const label = `${moveWords(m)} ${verdictWord(m.verdict)}`;
    marks += `<circle class="mark ${m.verdict}" data-step="${m.index}" tabindex="0" role="button" ` +
      `cx="${x(m.index).toFixed(1)}" cy="${y(seat0(m, m.after)).toFixed(1)}" r="${m.verdict === "blunder" ? 7 : 5}" ` +
      `aria-label="${esc(label)}"><title>${esc(label)}</title></circle>`;
  }
  $("review-graph").innerHTML =
    `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("Win chance of {name}", { name: name0 }))}">` +
    `<line class="even" x1="${P}" x2="${W - P}" y1="${y(0.5)}" y2="${y(0.5)}"/>` +
    `<polyline class="chance" points="${points.join(" ")}"/>` +
    `<line id="review-now" class="now" x1="0" x2="0" y1="${P}" y2="${H - P}"/>` +
    `${marks}</svg>` +
    `<p class="legend">${esc(t("Win chance of {name}: {top} at the top, {even} on the dashed line.",
      { name: name0, top: pct(1), even: pct(0.5) }))}</p>` +
    `<p class="legend">${summaryWords()}</p>`;
  $("review-graph").hidden = false;
  for (const mark of $("review-graph").querySelectorAll(".mark")) {
    const go = () => show(Number(mark.dataset.step));
    mark.addEventListener("click", go);
    mark.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(); } });
  }
}

function verdictWord(verdict) { return verdict === "blunder" ? t("A blunder.") : verdict === "mistake" ? t("A mistake.") : ""; }

function moveWords(m) {
  return t("{name} played {move}: win chance {before} → {after}.",
    { name: info.names[m.player], move: m.move, before: pct(m.before), after: pct(m.after) });
}

function summaryWords() {
  const s = review.summary;
  return [0, 1].map((p) => esc(`${info.names[p]}: ${listOf([t("mistakes: {n}", { n: num(s.mistakes[p]) }),
    t("blunders: {n}", { n: num(s.blunders[p]) })])}`)).join(" · ");
}

// Under the graph, the decision of the step shown (the position before the move).
function showReviewOf(i) {
  if (!review) return;
  const now = $("review-now");
  if (now) {
    const { W, P } = GRAPH, last = Math.max(1, info.steps - 1);
    const at = (P + (W - 2 * P) * (i / last)).toFixed(1);
    now.setAttribute("x1", at);
    now.setAttribute("x2", at);
  }
  const m = review.moves.find((r) => r.index === i);
  if (!m) { $("review-move").textContent = ""; return; }
  const better = m.best !== m.move ? t("Better: {move}.", { move: m.best }) : "";
  $("review-move").textContent = sentences(moveWords(m), better, verdictWord(m.verdict));
}

async function analyse() {
  $("analyse").disabled = true;
  for (;;) {
    const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/analysis`);
    const a = r.ok ? await r.json() : { status: "failed" };
    if (a.status === "ready") {
      review = a;
      $("review-status").textContent = "";
      $("analyse").hidden = true;
      drawGraph();
      showReviewOf(step);
      return;
    }
    if (a.status === "failed") {
      $("review-status").textContent = t("The analysis failed. Try again later.");
      $("analyse").disabled = false;
      return;
    }
    $("review-status").textContent = t("Analysing: {done}/{total}", { done: num(a.done), total: num(a.total) });
    await new Promise((done) => setTimeout(done, 700));
  }
}

async function show(i) {
  step = Math.max(0, Math.min(info.steps - 1, i));
  $("step").value = String(step);
  showReviewOf(step);
  const wanted = step;
  const seat = $("perspective").value;
  const v = await fetchStep(step, seat);
  // A later step asked for while this one was loading draws itself: never draw over it.
  if (wanted !== step || seat !== $("perspective").value) return;
  const shownSeat = seat === "1" ? 1 : 0;
  if (seat === "all") v.viewer = null;
  adapter = adapter || adapterFor(v.game);
  renderBoard(adapter, $("board"), v, { seat: me(v, shownSeat), names: info.names, next: new Set(), selected: [], online: null });
  renderLog($("log"), v, info.names, null);
  // the words, and the figures alone for a phone's one row of controls (style.css picks)
  $("step-label").innerHTML = `<span class="long">${esc(t("Step {n} of {total}", { n: num(step), total: num(info.steps - 1) }))}</span>` +
    `<span class="short" aria-hidden="true">${num(step)}/${num(info.steps - 1)}</span>`;
  $("status").textContent = v.outcome ? outcomeText(v.outcome, null, info.names)
    : (step > 0 ? describeAction((v.log_records || [])[step - 1], v.ruleset) : t("Start of the game"));
  $("replay").dataset.shown = String(step); // the step whose board is drawn (tests wait on it)
}

async function main() {
  await loadCatalog();
  installCardTips();
  const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/replay`);
  if (!r.ok) { $("status").textContent = t("This game is not finished yet; replays open at the end."); return; }
  info = await r.json();
  // Seats by their players' names (a bot by its level in words), never "first"/"second".
  const rows = await fetch(`/api/games?ids=${encodeURIComponent(gameId)}`).then((x) => (x.ok ? x.json() : []));
  const row = rows.find((g) => g.id === gameId) || {};
  info.names = seatNames(info.names, row.opponent, row.bot_seat, null);
  for (const seat of [0, 1]) $("perspective").querySelector(`option[value="${seat}"]`).textContent = info.names[seat];
  $("step").max = String(info.steps - 1);
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(step - 1);
  $("next").onclick = () => show(step + 1);
  $("last").onclick = () => show(info.steps - 1);
  $("step").oninput = () => show(Number($("step").value));
  $("perspective").onchange = () => show(step);
  $("analyse").onclick = analyse;
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
    const rtl = document.dir === "rtl";
    if (ev.key === (rtl ? "ArrowLeft" : "ArrowRight")) show(step + 1);
    if (ev.key === (rtl ? "ArrowRight" : "ArrowLeft")) show(step - 1);
  });
  await show(0);
}

main();
