// The table: live play over a WebSocket. The server sends this seat's view after every
// change; we draw it and turn clicks (or keys) into action text from view.legal.
import { loadCatalog, t, esc, cardName, rememberGame, outcomeText, playerName, describeAction } from "./common.js";
import { renderBoard, renderTracker, renderLog, me } from "./board.js";

const $ = (id) => document.getElementById(id);
const root = $("table");
const gameId = root.dataset.game;
const params = new URLSearchParams(location.search);
const token = params.get("t") || "";

let ws = null;
let msg = null; // the last "view" message
let sel = []; // the tokens picked so far for a multi-step action
let retry = 500;
let lastMover = null; // pass-and-play: who the device was last shown to
let handoverOpen = false;

// --- turning legal entries into click paths ---------------------------------------------
/** The clicks that make an entry: e.g. Redeploy is hand:RE, then table:R7, then flag:5. */
function pathOf(e) {
  switch (e.kind) {
    case "play": case "environment": return [`hand:${e.card}`, `flag:${e.flag}`];
    case "claim": return [`claim:${e.flag}`];
    case "pass": return ["btn:pass"];
    case "end": return ["btn:end"];
    case "draw": case "scout_draw": return e.pile !== undefined ? [`pile:${e.pile}`] : [`deck:${e.deck}`];
    case "deploy": return [`hand:${e.card}`, `deploy:${e.end}:${e.position}`];
    case "burn": return [`hand:${e.card}`, "btn:burn"];
    case "scout": return [`hand:${e.card || "SC"}`];
    case "scout_return": return [`hand:${e.card}`];
    case "redeploy": return ["hand:RE", `table:${e.card}`, e.target === "x" ? "btn:discard" : `flag:${e.target}`];
    case "deserter": return ["hand:DE", `table:${e.card}`];
    case "traitor": return ["hand:TR", `table:${e.card}`, `flag:${e.target}`];
    default: return [`text:${e.text}`];
  }
}

function candidates() {
  const legal = (msg && msg.view.legal) || [];
  return legal.filter((e) => { const p = pathOf(e); return sel.every((s, i) => p[i] === s); });
}

function nextTokens() {
  const out = new Set();
  for (const e of candidates()) { const p = pathOf(e); if (p.length > sel.length) out.add(p[sel.length]); }
  return out;
}

function pick(tok) {
  sel.push(tok);
  const done = candidates().filter((e) => pathOf(e).length === sel.length);
  if (done.length === 1) { send(done[0].text); sel = []; }
  else if (!candidates().length) sel = [];
  draw();
}

function send(text) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  ws.send(JSON.stringify({ type: "action", text, ply: msg.ply }));
}

/** What to do next, in words, for the prompt line. */
function prompt() {
  const c = candidates();
  if (!c.length) return "";
  if (!sel.length) {
    const kinds = new Set(c.map((e) => e.kind));
    if (kinds.has("draw") && c.some((e) => e.pile !== undefined)) return t("Draw: pick a pile.");
    if (kinds.has("draw") || kinds.has("scout_draw")) {
      return kinds.has("scout_draw") ? t("Scout: pick a deck to draw from.") : t("Draw a card: pick a deck.");
    }
    if (kinds.has("scout_return")) return t("Scout: pick a card from your hand to put back.");
    if (kinds.has("take")) return t("Take one or two of the leftover cards.");
    if (kinds.has("deploy")) return t("Pick a card from your hand.");
    return t("Pick a card from your hand, or claim a flag.");
  }
  const kind = c[0].kind;
  if (kind === "deploy" || kind === "burn") return t("Deploy it at a country (▲ war machine, ▼ infantry), or burn it.");
  if (sel.length === 1 && ["redeploy", "deserter", "traitor"].includes(kind)) {
    return kind === "redeploy" ? t("Redeploy: pick one of your cards on the table.")
      : kind === "deserter" ? t("Deserter: pick an opponent's card to discard.")
        : t("Traitor: pick an opponent's troop to take.");
  }
  if (kind === "redeploy") return t("Redeploy: pick a flag to move it to, or discard it.");
  if (kind === "traitor") return t("Traitor: pick the flag to put it at.");
  return t("Pick a flag for {card}.", { card: describeCard(sel[0]) });
}

function describeCard(tok) {
  return tok.startsWith("hand:") ? cardName(tok.slice(5), msg.view.ruleset) : tok;
}

// --- drawing ----------------------------------------------------------------------------
function draw() {
  if (!msg) return;
  const v = msg.view;
  // Hooks for scripts and tests: the ply shown and whose turn it is.
  root.dataset.ply = String(msg.ply);
  root.dataset.turn = v.to_move === null ? "over" : v.to_move === v.viewer && (v.legal || []).length ? "me" : "other";
  const seat = me(v, msg.role);
  const mine = v.to_move !== null && v.to_move === v.viewer && (v.legal || []).length > 0;
  const next = mine ? nextTokens() : new Set();

  // Pass-and-play: hide the new mover's hand until they say they hold the device.
  if (msg.role === "both" && v.to_move !== null && v.to_move !== lastMover && lastMover !== null && !handoverOpen) {
    handoverOpen = true;
  }
  $("handover").hidden = !handoverOpen;
  if (handoverOpen) {
    $("handover-text").textContent = t("Pass the device to {name}.", { name: playerName(msg.names, v.to_move) });
    $("board").hidden = true; $("controls").hidden = true;
    setStatus();
    return;
  }
  $("board").hidden = false; $("controls").hidden = false;
  if (msg.role === "both") lastMover = v.to_move;

  // Re-rendering replaces the buttons; keep keyboard focus on the same thing, or on the
  // first choice of the next step, so keyboard users never fall back to the page top.
  const active = document.activeElement;
  const focusTok = active && active.dataset ? active.dataset.tok : null;
  renderBoard($("board"), v, { seat, names: msg.names, next, selected: sel, online: msg.online });
  renderTracker($("tracker"), v);
  renderLog($("log"), v, msg.names, msg.role === "both" ? null : v.viewer);
  renderControls(v, next, mine);
  setStatus();
  if (focusTok) {
    const same = document.querySelector(`[data-tok="${CSS.escape(focusTok)}"]:not([disabled])`);
    const first = document.querySelector("#board .selectable:not([disabled]), #board .claim-btn, #controls button:not([disabled])");
    (same && sel.length === 0 ? same : first || same)?.focus();
  }
  $("replay-link").hidden = msg.status !== "finished";
  if (!$("invite").hidden && typeof msg.role === "number" && msg.online[1 - msg.role]) $("invite").hidden = true;
  $("resign").hidden = msg.status === "finished" || msg.role === null || msg.role === undefined;
}

function setStatus(extra) {
  const v = msg.view;
  let s;
  if (v.outcome) s = outcomeText(v.outcome, msg.role === "both" ? null : v.viewer, msg.names);
  else if (v.to_move === null) s = "";
  else if (msg.role === null || msg.role === undefined) s = t("{name} to move.", { name: playerName(msg.names, v.to_move) });
  else if (v.to_move === v.viewer) {
    const log = v.log || [];
    const last = log.length && sel.length === 0 ? t("Last move: {move}.", { move: describeAction(String(log[log.length - 1]), v.ruleset) }) + " " : "";
    s = last + t("Your move.") + " " + prompt();
  }
  else s = t("Waiting for {name}…", { name: playerName(msg.names, v.to_move) });
  if (extra) s = `${extra} ${s}`;
  $("status").textContent = s;
}

function renderControls(v, next, mine) {
  const box = $("controls");
  const btn = (tok, label) => `<button type="button" data-tok="${esc(tok)}"${next.has(tok) ? "" : " disabled"}>${esc(label)}</button>`;
  let html = "";
  if (mine) {
    if (next.has("btn:pass")) html += btn("btn:pass", t("Pass"));
    if (next.has("btn:end")) html += btn("btn:end", t("End turn"));
    if (next.has("btn:discard")) html += btn("btn:discard", t("Discard it"));
    if (next.has("btn:burn")) html += btn("btn:burn", t("Burn this card"));
    if (sel.length) html += `<button type="button" id="cancel">${esc(t("Cancel"))}</button>`;
    const unknown = [...next].filter((k) => k.startsWith("text:"));
    for (const k of unknown) html += btn(k, describeAction(k.slice(5), v.ruleset));
  }
  box.innerHTML = html;
  // The full list: every legal move as one button, for keyboards and screen readers.
  const legal = mine ? (v.legal || []) : [];
  $("moves").innerHTML = legal.length
    ? `<ul class="moves">${legal.map((e) => `<li><button type="button" data-text="${esc(e.text)}">${esc(describeAction(e.text, v.ruleset))} <code>${esc(e.text)}</code></button></li>`).join("")}</ul>`
    : `<p class="muted">${esc(t("No moves for you right now."))}</p>`;
}

// --- events -----------------------------------------------------------------------------
document.addEventListener("click", (ev) => {
  const el = ev.target.closest("[data-tok],[data-text],#cancel");
  if (!el || el.disabled || el.getAttribute("aria-disabled") === "true") return;
  if (el.id === "cancel") { sel = []; draw(); return; }
  if (el.dataset.text) { sel = []; send(el.dataset.text); return; }
  if (el.dataset.tok) pick(el.dataset.tok);
});

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && sel.length) { sel = []; draw(); }
});

$("handover-ok").addEventListener("click", () => { handoverOpen = false; lastMover = msg.view.to_move; draw(); });

$("resign").addEventListener("click", () => {
  if (ws && confirm(t("Resign this game?"))) ws.send(JSON.stringify({ type: "resign" }));
});

$("copy-invite").addEventListener("click", async () => {
  $("invite-link").select();
  try { await navigator.clipboard.writeText($("invite-link").value); } catch (_) { document.execCommand("copy"); }
});

$("join-save").addEventListener("click", () => {
  if (ws) ws.send(JSON.stringify({ type: "name", name: $("join-name").value }));
  $("join").hidden = true;
});

/** The server's error codes in the page language (its English message as a fallback). */
function errorText(data) {
  const known = {
    illegal: t("That move is not legal now."),
    stale: t("The game has moved on; look again."),
    not_your_turn: t("It is not your turn."),
    spectator: t("Spectators cannot move."),
    game_over: t("The game is over."),
    bad_token: t("That seat link is not valid; you are watching."),
    not_found: t("There is no such game."),
    internal: t("Server error; please try again."),
  };
  return known[data.code] || data.message;
}

// --- connection -------------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(gameId)}?t=${encodeURIComponent(token)}`);
  ws.onopen = () => { retry = 500; };
  ws.onmessage = (ev) => {
    const data = JSON.parse(ev.data);
    if (data.type === "view") {
      const first = msg === null;
      if (msg && data.ply !== msg.ply) sel = [];
      msg = data;
      if (first) onFirstView();
      draw();
    } else if (data.type === "error") {
      sel = [];
      const text = errorText(data);
      if (msg) { draw(); setStatus(t("Refused: {message}", { message: text })); }
      else $("status").textContent = text;
    }
  };
  ws.onclose = () => {
    if (msg) setStatus(t("Connection lost; reconnecting…"));
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function onFirstView() {
  const seat = msg.role;
  if (token && seat !== null && seat !== undefined) {
    const entry = { id: gameId, token, seat, ruleset: msg.ruleset, opponent: msg.opponent };
    const known = JSON.parse(localStorage.getItem("frontlines.games") || "[]").find((g) => g.id === gameId && g.token === token);
    rememberGame({ ...entry, invite: known ? known.invite : undefined });
    if (known && known.invite && !msg.online[1 - seat]) {
      $("invite").hidden = false;
      $("invite-link").value = new URL(known.invite, location.href).href;
    }
    if (!known && msg.opponent === "friend") $("join").hidden = false;
  }
  if (msg.role === "both") lastMover = msg.view.to_move;
}

await loadCatalog();
connect();
