// The table: live play over a WebSocket. The server sends this seat's view after every
// change; we draw it and turn clicks (or keys) into actions from view.legal, the game's
// action records, through the game's adapter (chosen once, at the first view).
import { loadCatalog, t, esc, listOf, myGames, rememberGame, outcomeText, playerName, describeAction, lastTurn, seatNames, installCardTips, sentences, asSentence } from "./common.js";
import { renderLog, me } from "./board.js";
import { adapterFor, renderBoard } from "./adapters.js";
import { snapshot, animate } from "./motion.js";
import { showRefusals, reasonWords } from "./refusals.js";
import { setReading, placeClocks } from "./clock.js";
import { renderRematch } from "./rematch.js";
import { yourMove, setupAlerts } from "./alerts.js";
import { setupQuick, heard } from "./quick.js";

const $ = (id) => document.getElementById(id);
const root = $("table");
const gameId = root.dataset.game;
const params = new URLSearchParams(location.search);
let token = params.get("t") || "";
// An invite link carries a one-time ticket, not a seat: the page spends it for a seat token
// of its own (a POST, so a link preview that only fetches the page spends nothing).
const invite = params.get("invite") || "";
let notice = "";

let ws = null;
let msg = null; // the last "view" message
let sel = []; // the tokens picked so far for a multi-step action
let retry = 500;
let lastMover = null; // pass-and-play: who the device was last shown to
let handoverOpen = false;
let adapter = null; // the game's adapter, chosen at the first view
let drawn = null; // the view last drawn on the board (what animations start from)
const pathOf = (e) => adapter.pathOf(e);
/** Both seats' names as shown: "You", the other player's name, the bot's level in words. */
const names = () => seatNames(msg.names, msg.opponent, msg.bot_seat, typeof msg.role === "number" ? msg.role : null);
/** This page holds one seat (not pass and play, not watching). */
const seated = () => msg.role === 0 || msg.role === 1;
/** A game between two people at two devices: quick messages are for those. */
const betweenPeople = () => msg.opponent === "friend" || msg.opponent === "lobby";
/** A friend game whose invite nobody has spent yet, seen from the creator's seat: the friend
 * has not come (not "offline": they were never here). */
const friendNotCome = () => msg.opponent === "friend" && typeof msg.role === "number" && msg.invite_open && msg.status === "active";

// --- turning legal entries into click paths (the game's adapter knows how) ----------------
function candidates() {
  const legal = (msg && msg.view.legal) || [];
  return legal.filter((e) => { const p = pathOf(e); return sel.every((s, i) => p[i] === s); });
}

function nextTokens() {
  const out = new Set();
  for (const e of candidates()) { const p = pathOf(e); if (p.length > sel.length) out.add(p[sel.length]); }
  return out;
}

/** The first clicks of every legal entry: another card of the hand stays pickable after
 * one is picked (picking it switches), and the picked card unpicks. */
function firstTokens() {
  return new Set(((msg && msg.view.legal) || []).map((e) => pathOf(e)[0]));
}

function pick(tok) {
  if (sel.length && tok === sel[0] && sel.length === 1) { sel = []; draw(); return; }
  if (sel.length && !nextTokens().has(tok) && firstTokens().has(tok)) sel = [];
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
  return c.length ? adapter.prompt(c, sel.length) : "";
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
  // "Your move" in the tab's title and icon (a seat of its own: pass and play needs none)
  if (seated()) yourMove(mine, mine ? lastTurnText(v) : "");
  const next = mine ? nextTokens() : new Set();
  if (mine && sel.length) for (const tok of firstTokens()) if (tok.startsWith("hand:")) next.add(tok);

  // Pass-and-play: hide the new mover's hand until they say they hold the device. Nothing
  // drawn from either hand stays on the page meanwhile: board, tracker (its ● marks count
  // the last player's hand), log, moves and status are emptied, not just covered.
  if (msg.role === "both" && v.to_move !== null && v.to_move !== lastMover && lastMover !== null && !handoverOpen) {
    handoverOpen = true;
  }
  $("handover").hidden = !handoverOpen;
  if (handoverOpen) {
    $("handover-text").textContent = t("Pass the device to {name}.", { name: playerName(names(), v.to_move) });
    for (const id of ["board", "controls", "tracker", "log", "moves"]) $(id).innerHTML = "";
    $("board").hidden = true; $("controls").hidden = true; $("panels").hidden = true;
    setStatus();
    return;
  }
  $("board").hidden = false; $("controls").hidden = false; $("panels").hidden = false;
  if (msg.role === "both") lastMover = v.to_move;

  // Re-rendering replaces the buttons; keep keyboard focus on the same thing, or on the
  // first choice of the next step, so keyboard users never fall back to the page top.
  const active = document.activeElement;
  const focusTok = active && active.dataset ? active.dataset.tok : null;
  const before = drawn && drawn.viewer === v.viewer ? snapshot($("board")) : null;
  renderBoard(adapter, $("board"), v, { seat, names: names(), next, selected: sel, online: msg.online,
    hotseat: msg.role === "both", notJoined: friendNotCome() ? 1 - msg.role : null });
  showRefusals($("board"), v, sel, mine);
  if (drawn !== v) animate($("board"), before, drawn, v);
  drawn = v;
  placeClocks($("board"), seat);
  adapter.tracker($("tracker"), v);
  renderLog($("log"), v, names(), msg.role === "both" ? null : v.viewer);
  renderControls(v, next, mine);
  setStatus();
  if (focusTok) {
    const same = document.querySelector(`[data-tok="${CSS.escape(focusTok)}"]:not([disabled])`);
    const first = document.querySelector("#board .selectable:not([disabled]), #board .claim-btn, #controls button:not([disabled])");
    (same && sel.length === 0 ? same : first || same)?.focus();
  }
  $("replay-link").hidden = msg.status !== "finished";
  if (!$("invite").hidden && typeof msg.role === "number" && (msg.online[1 - msg.role] || !msg.invite_open)) $("invite").hidden = true;
  // A friend who lost their seat link is invited again by the game's creator (the seat that
  // was not invited), with a new deal, before the first move; while the link this browser
  // sent is still unspent, the friend has only to open it.
  $("reinvite-row").hidden = !(msg.opponent === "friend" && typeof msg.role === "number" && msg.ply === 0
    && msg.guest_seat === 1 - msg.role && msg.status === "active" && !msg.online[1 - msg.role]
    && !(msg.invite_open && !$("invite").hidden));
  $("resign").hidden = msg.status === "finished" || msg.role === null || msg.role === undefined;
  renderRematch($("rematch"), msg, names(), (answer) => {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "rematch", answer }));
  }, (url) => { location.href = url; });
  showRated();
}

// A rated game says so; once over, what it did to both ratings (read once from the server).
let ratedShown = null;
async function showRated() {
  const note = $("rated-note");
  note.hidden = !msg.rated;
  if (!msg.rated) return;
  if (msg.status !== "finished") { note.textContent = t("Rated game."); return; }
  if (ratedShown === msg.game_id) return;
  ratedShown = msg.game_id;
  let changes = [];
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/ratings`);
    if (r.ok) changes = await r.json();
  } catch (_) { /* said as a rated game only */ }
  // a rating is written without grouping (1500, not 1,500), in the page's digits
  const lang = document.body.dataset.lang || "en";
  const rating = (n) => new Intl.NumberFormat(lang === "fa" ? "fa-IR" : lang, { useGrouping: false }).format(n);
  note.textContent = changes.length
    ? t("New ratings: {list}.", { list: listOf(changes.map((c) => {
      const words = { name: c.username, before: rating(c.before), after: rating(c.after) };
      return c.provisional ? t("{name} {before} → {after} (provisional)", words) : t("{name} {before} → {after}", words);
    })) })
    : t("Rated game.");
}

function setStatus(extra) {
  const v = msg.view;
  let s;
  // while the device changes hands: who moves next, nothing of either hand (the box under it
  // says to pass the device)
  if (handoverOpen) s = t("{name} to move.", { name: playerName(names(), v.to_move) });
  else if (v.outcome) {
    s = outcomeText(v.outcome, msg.role === "both" ? null : v.viewer, names());
    // lost on time: say whose time ran out
    const loser = v.outcome.reason === "time" && v.outcome.winner !== null ? 1 - v.outcome.winner : null;
    if (loser !== null) {
      const yours = loser === v.viewer && msg.role !== "both";
      s = sentences(yours ? t("Your time ran out.") : t("{name}'s time ran out.", { name: playerName(names(), loser) }), s);
    }
  }
  else if (v.to_move === null) s = "";
  // watchers read the last turn too, then who moves
  else if (msg.role === null || msg.role === undefined) s = sentences(lastTurnText(v), t("{name} to move.", { name: playerName(names(), v.to_move) }));
  else if (v.to_move === v.viewer) {
    const last = sel.length === 0 ? lastTurnText(v) : "";
    // pass and play: the device changes hands, so the mover is named
    const yours = msg.role === "both" ? t("{name}, your move.", { name: playerName(names(), v.to_move) }) : t("Your move.");
    s = sentences(friendNotCome() ? t("Your friend has not opened the invite link yet.") : "", last, yours, prompt());
  }
  else if (friendNotCome()) s = t("Waiting for your friend to open the invite link.");
  else s = t("Waiting for {name}…", { name: playerName(names(), v.to_move) });
  if (extra) s = sentences(extra, s);
  else if (notice && (msg.role === null || msg.role === undefined)) s = sentences(notice, s);
  $("status").textContent = s;
}

/** What the other player did on their last turn, in words: the card and where, then the draw
 * ("" before anyone has moved). */
function lastTurnText(v) {
  const turn = lastTurn(v, v.to_move);
  return turn.length ? t("Last turn — {name}: {moves}.", { name: playerName(names(), 1 - v.to_move),
    moves: listOf(turn.map((e) => describeAction(e, v.ruleset))) }) : "";
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
    // entries the adapter has no clicks for are one button each
    for (const e of candidates()) {
      const tok = pathOf(e)[sel.length];
      if (tok === `text:${e.text}` && next.has(tok)) html += btn(tok, describeAction(e, v.ruleset));
    }
  }
  box.innerHTML = html;
  // The full list: every legal move as one button, for keyboards and screen readers.
  const legal = mine ? (v.legal || []) : [];
  $("moves").innerHTML = legal.length
    ? `<ul class="moves">${legal.map((e) => `<li><button type="button" data-text="${esc(e.text)}">${esc(describeAction(e, v.ruleset))} <code dir="ltr">${esc(e.text)}</code></button></li>`).join("")}</ul>`
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
  let copied = true;
  try { await navigator.clipboard.writeText($("invite-link").value); } catch (_) { copied = document.execCommand("copy"); }
  // say so (the button's own words come back after a while)
  $("copy-done").textContent = copied ? t("Link copied.") : t("Select the link and copy it yourself.");
  clearTimeout(copyTimer);
  copyTimer = setTimeout(() => { $("copy-done").textContent = ""; }, 4000);
});
let copyTimer = 0;

$("reinvite").addEventListener("click", async () => {
  const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/invite`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ t: token }) });
  if (!r.ok) { setStatus(t("Refused: {message}", { message: (await r.json()).detail || r.statusText })); return; }
  const g = await r.json();
  const known = myGames().find((e) => e.id === gameId && e.token === token);
  if (known) rememberGame({ ...known, invite: g.invite_url });
  $("invite-link").value = new URL(g.invite_url, location.href).href;
  $("invite").hidden = false;
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
    out_of_time: t("Your time ran out."),
    declined: t("The other player declined the rematch."),
    not_over: t("The game is not over yet."),
    too_fast: t("Not so fast: wait a few seconds before the next quick message."),
    no_one_to_tell: t("Quick messages are for games between two people."),
    malformed: t("The server could not read that."),
    bad_name: t("A name cannot hold invisible characters or characters that change the direction of the text."),
    ...closeWords(),
  };
  // a refused move says which rule refused it (the engine's reason, in the page's language)
  if (data.code === "illegal" && data.reason) {
    const game = msg && msg.view ? msg.view.game : undefined;
    return sentences(known.illegal, asSentence(reasonWords(data.reason, game)));
  }
  return known[data.code] || data.message;
}

/** Why the server ended or refused a connection (its caps), by error code and close code. */
function closeWords() {
  return {
    spectators_full: t("This game has as many spectators as it can take; trying again in a while."),
    too_many_connections: t("Too many connections from your address; close other tabs. Trying again in a while."),
    too_many_messages: t("This page sent too many messages; reconnecting…"),
    too_slow: t("The connection could not keep up; reconnecting…"),
  };
}
const CLOSE_CODES = { 4001: "spectators_full", 4002: "too_many_connections", 4003: "too_many_messages", 4004: "too_slow" };

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
      setReading(msg.clock);
      if (first) adapter = adapterFor(msg.view.game);
      if (first) onFirstView();
      draw();
    } else if (data.type === "quick") {
      // A quick message, said by its id: in this page's words, unless muted.
      if (msg) heard(data, data.seat === msg.role, (seat) => playerName(names(), seat));
    } else if (data.type === "presence") {
      // Who is online changed (sent to spectators, at most once a second).
      if (msg) { msg.online = data.online; msg.spectators = data.spectators; draw(); }
    } else if (data.type === "error") {
      sel = [];
      if (data.code === "bad_name") $("join").hidden = false;  // the name form again, to fix it
      const text = errorText(data);
      if (msg) { draw(); setStatus(t("Refused: {message}", { message: text })); }
      else $("status").textContent = sentences(notice, text);
    }
  };
  ws.onclose = (ev) => {
    const cause = CLOSE_CODES[ev.code];
    if (cause) {
      // A cap of the server: say which, in words; wait longer before trying again when
      // the game or this address is full.
      const words = closeWords()[cause];
      if (msg) setStatus(words); else $("status").textContent = words;
      if (cause === "spectators_full" || cause === "too_many_connections") retry = 30000;
    } else if (msg) setStatus(t("Connection lost; reconnecting…"));
    // 1012: this server process is stopping and another one carries on: come back at once,
    // at a moment of our own so that all its pages do not arrive together.
    if (ev.code === 1012) retry = 200 + Math.random() * 800;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, cause ? 60000 : 8000);
  };
}

function onFirstView() {
  // The rules of this game (its options marked) and its lesson, in the page's language, in a
  // tab of their own so the table stays as it is.
  const lang = document.body.dataset.lang || "en";
  const options = new URLSearchParams({ ...(msg.view.options || {}), lang });
  $("rules-link").href = `/rules/${encodeURIComponent(msg.ruleset)}?${options}`;
  $("learn-link").href = `/learn/for/${encodeURIComponent(msg.ruleset)}?lang=${lang}`;
  const seat = msg.role;
  if (token && seat !== null && seat !== undefined) {
    const entry = { id: gameId, token, seat, ruleset: msg.ruleset, opponent: msg.opponent };
    const known = JSON.parse(localStorage.getItem("frontlines.games") || "[]").find((g) => g.id === gameId && g.token === token);
    rememberGame({ ...entry, invite: known ? known.invite : undefined });
    if (known && known.invite && msg.invite_open && !msg.online[1 - seat]) {
      $("invite").hidden = false;
      $("invite-link").value = new URL(known.invite, location.href).href;
    }
    // an account's seat bears its username: nothing to name
    if (!known && msg.opponent === "friend" && !(msg.players && msg.players[seat])) $("join").hidden = false;
  }
  if (msg.role === "both") lastMover = msg.view.to_move;
  if (seated()) setupAlerts($("alerts"));
  if (betweenPeople()) {
    setupQuick(msg.role, (phrase) => { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "quick", phrase })); });
  }
}

/** Spend the invite ticket: on success this page holds the seat under a token of its own. */
async function claimInvite() {
  let r = null;
  try {
    r = await fetch(`/api/games/${encodeURIComponent(gameId)}/claim`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ invite }) });
  } catch (_) { /* the network: watch for now */ }
  if (r && r.status === 409) {
    let body = {};
    try { body = await r.json(); } catch (_) { /* said below */ }
    if (body.code === "rated_needs_account") {
      // a rated game's seat is taken by an account: log in (or sign up) and come back here
      notice = t("This is a rated game: log in with your own account to take the seat.");
      $("login-for-seat").hidden = false;
      $("login-for-seat-link").href = `/account?next=${encodeURIComponent(location.pathname + location.search)}`;
      return;
    }
  }
  if (!r || !r.ok) { notice = t("This invite link has been used; you are watching the game."); return; }
  const g = await r.json();
  token = g.token;
  // The address bar and the language links now carry the seat, not the spent ticket.
  const swap = (href) => {
    const url = new URL(href, location.href);
    url.searchParams.delete("invite");
    url.searchParams.set("t", token);
    return url.pathname + url.search;
  };
  history.replaceState(null, "", swap(location.href));
  for (const a of document.querySelectorAll("a[hreflang]")) a.setAttribute("href", swap(a.getAttribute("href")));
}

// A page that comes back to the front asks for a fresh reading of the clocks (its timers
// may have been slowed down in the background).
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && ws && ws.readyState === WebSocket.OPEN && msg && msg.clock) ws.send(JSON.stringify({ type: "sync" }));
});

await loadCatalog();
installCardTips();
if (invite && !token) {
  // The creator opening their own invite link keeps their seat and leaves the ticket unspent.
  const mine = myGames().find((g) => g.id === gameId && g.token);
  if (mine) token = mine.token;
  else await claimInvite();
}
connect();
