// Replays: step through a finished game, from either seat or with both hands open.
import { loadCatalog, t, num, esc, outcomeText, describeAction, seatNames, installCardTips } from "./common.js";
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

async function show(i) {
  step = Math.max(0, Math.min(info.steps - 1, i));
  $("step").value = String(step);
  const seat = $("perspective").value;
  const v = await fetchStep(step, seat);
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
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
    const rtl = document.dir === "rtl";
    if (ev.key === (rtl ? "ArrowLeft" : "ArrowRight")) show(step + 1);
    if (ev.key === (rtl ? "ArrowRight" : "ArrowLeft")) show(step - 1);
  });
  await show(0);
}

main();
