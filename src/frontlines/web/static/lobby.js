// The lobby on the home page: every open seek, live (its own WebSocket, /ws/lobby), taking
// one, "play anyone", and going to the table once someone takes ours (docs/web.md, Lobby).
import { t, tn, esc, num, listOf, isolate, rememberGame } from "./common.js";
import { controlText } from "./clock.js";

const $ = (id) => document.getElementById(id);
// The option that says who starts, and its value for "seat 0 starts": Battle Line names
// the first player; in War Machine the player who did not shuffle chooses first.
export const STARTER = { first_player: "0", shuffler: "1" };
const SHOWN = 50;  // seeks listed before "show all"

let ws = null;
let retry = 500;
let rulesets = [];
let seeks = new Map();  // id -> seek, oldest first
let showAll = false;
let pending = [];  // messages waiting for the socket
// The seeks this tab posted and their seat tokens: the tab holds them again after a reload
// (within the server's grace) and opens the table with the token once one is taken.
const TAB_KEY = "frontlines.seeks";
// Every seek this browser posted, in any tab: never offered to itself.
const MINE_KEY = "frontlines.myseeks";

function load(store, key) {
  try { return JSON.parse(store.getItem(key) || "{}"); } catch (_) { return {}; }
}
function save(store, key, value) {
  try { store.setItem(key, JSON.stringify(value)); } catch (_) { /* private mode */ }
}
function remember(seek, token) {
  save(sessionStorage, TAB_KEY, { ...load(sessionStorage, TAB_KEY), [seek.id]: { token, ruleset: seek.ruleset } });
  const mine = load(localStorage, MINE_KEY);
  const day = Date.now() - 86400000;
  save(localStorage, MINE_KEY, Object.fromEntries([...Object.entries(mine).filter(([, at]) => at > day), [seek.id, Date.now()]]));
}
function forget(id) {
  const tab = load(sessionStorage, TAB_KEY);
  delete tab[id];
  save(sessionStorage, TAB_KEY, tab);
}
const tabSeeks = () => load(sessionStorage, TAB_KEY);
const isMine = (id) => id in load(localStorage, MINE_KEY);

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  else pending.push(message);
}

function status(text) { $("lobby-status").textContent = text; }

// --- words ------------------------------------------------------------------------------------
/** A seek's clock in words: "5 min + 3 s", "3 days a move", "no clock". */
export function clockWords(clock) {
  if (!clock) return t("no clock");
  const days = /^(\d+)d$/.exec(clock);
  if (days) return controlText({ kind: "days", base: Number(days[1]) * 86400 });
  const live = /^(\d+)\+(\d+)$/.exec(clock);
  return live ? controlText({ kind: "live", base: Number(live[1]), increment: Number(live[2]) }) : clock;
}

/** Who moves first, seen by whoever would take the seek. */
function firstWords(seek) {
  const rs = rulesets.find((r) => r.name === seek.ruleset);
  const starter = rs && rs.options.find((o) => STARTER[o.name]);
  const value = starter && seek.options[starter.name];
  if (seek.seat === null || value === undefined || value === "random") return t("who moves first is drawn");
  // first_player names the seat that starts; in War Machine the one who did not shuffle starts
  const startingSeat = starter.name === "shuffler" ? 1 - Number(value) : Number(value);
  return startingSeat === 1 - seek.seat ? t("you move first") : t("they move first");
}

/** The options a seek changes from the ruleset's defaults, in words. */
function rulesWords(seek) {
  const rs = rulesets.find((r) => r.name === seek.ruleset);
  if (!rs) return "";
  const changed = rs.options.filter((o) => !STARTER[o.name] && o.name in seek.options).map((o) => {
    const i = o.choices.indexOf(seek.options[o.name]);
    return `${t(o.label || o.name)}: ${t((o.words || [])[i] || seek.options[o.name])}`;
  });
  return changed.length ? listOf(changed) : "";
}

function seekItem(seek) {
  const rs = rulesets.find((r) => r.name === seek.ruleset);
  const who = seek.name ? isolate(seek.name) : t("Anonymous player");
  const rating = seek.rating === null || seek.rating === undefined ? "" : ` (${num(seek.rating)})`;
  const parts = [clockWords(seek.clock), seek.rated ? t("rated") : t("casual"), firstWords(seek)];
  const rules = rulesWords(seek);
  const mine = isMine(seek.id);
  const act = mine
    ? `<span class="seek-mine">${esc(t("your seek"))}</span> <button type="button" class="link" data-cancel="${esc(seek.id)}">${esc(t("Cancel"))}</button>`
    : `<button type="button" data-accept="${esc(seek.id)}" aria-label="${esc(t("Play {name}", { name: who }))}">${esc(t("Play"))}</button>`;
  return `<li class="seek${mine ? " mine" : ""}" data-seek="${esc(seek.id)}">` +
    `<span class="g-title">${esc(who)}${esc(rating)}</span> ` +
    `<span>${esc(t(rs ? rs.title : seek.ruleset))}</span> ` +
    `<span class="muted">${parts.map(esc).join(" · ")}</span>` +
    (rules ? ` <span class="muted seek-rules">${esc(t("Rules: {rules}", { rules }))}</span>` : "") +
    ` <span class="seek-act">${act}</span></li>`;
}

function draw() {
  const all = [...seeks.values()];
  const shown = showAll ? all : all.slice(0, SHOWN);
  $("seeks").innerHTML = shown.length ? shown.map(seekItem).join("")
    : `<li class="muted">${esc(t("Nobody is waiting right now. Play anyone and you will be listed here."))}</li>`;
  $("lobby-count").textContent = tn("{n} player waiting", "{n} players waiting", all.length);
  const more = $("seeks-more");
  more.hidden = showAll || all.length <= SHOWN;
  more.textContent = tn("Show {n} more", "Show {n} more", all.length - SHOWN);
  const waiting = Object.keys(tabSeeks()).filter((id) => seeks.has(id)).length;
  if (waiting && !$("lobby-status").dataset.sticky) status(t("Waiting for an opponent… Keep this page open."));
}

// --- what the server says -------------------------------------------------------------------
const ERRORS = {
  seek_gone: () => t("Someone else took that seek first, or its player left."),
  own_seek: () => t("That is your own seek."),
  rated_needs_account: () => t("Rated games need an account on both sides."),
  too_many_seeks: () => t("You have as many seeks open as you may."),
  lobby_full: () => t("The lobby is full; try again in a moment."),
  rate_limited: () => t("Too many new games; please wait a little."),
  bad_name: () => t("A name cannot hold invisible characters or characters that change the direction of the text."),
};

function matched(m) {
  const mine = tabSeeks()[m.seek];
  const token = m.token || (mine && mine.token);
  forget(m.seek);
  if (!token) return;  // another tab of this browser posted it: that tab opens the game
  rememberGame({ id: m.game, token, seat: m.seat, ruleset: m.ruleset || (mine && mine.ruleset), opponent: "lobby" });
  document.title = t("Opponent found!");
  status(t("Opponent found! Opening the game…"));
  location.href = `/g/${encodeURIComponent(m.game)}?t=${encodeURIComponent(token)}`;
}

function onMessage(ev) {
  const m = JSON.parse(ev.data);
  if (m.type === "lobby") {
    seeks = new Map(m.seeks.map((s) => [s.id, s]));
  } else if (m.type === "seeks") {
    for (const s of m.add) seeks.set(s.id, s);
    for (const id of m.remove) seeks.delete(id);
  } else if (m.type === "posted" || m.type === "held") {
    if (m.token) remember(m.seek, m.token);
    seeks.set(m.seek.id, m.seek);
    $("lobby-status").dataset.sticky = "";
  } else if (m.type === "matched") {
    matched(m);
    return;
  } else if (m.type === "expired") {
    forget(m.id);
    status(t("Your seek has closed. Play anyone to be listed again."));
  } else if (m.type === "error") {
    const words = ERRORS[m.code];
    status(words ? words() : t("Refused: {message}", { message: m.message }));
    $("lobby-status").dataset.sticky = "1";
    setTimeout(() => { delete $("lobby-status").dataset.sticky; }, 8000);
  }
  draw();
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/lobby`);
  ws.onopen = () => {
    retry = 500;
    const held = Object.entries(tabSeeks()).map(([id, s]) => ({ id, token: s.token }));
    if (held.length) ws.send(JSON.stringify({ type: "resume", seeks: held.slice(0, 10) }));
    for (const message of pending) ws.send(JSON.stringify(message));
    pending = [];
  };
  ws.onmessage = onMessage;
  ws.onclose = (ev) => {
    // 1012: this server process stops; another one answers at once
    const wait = ev.code === 1012 ? 200 + Math.random() * 800 : retry;
    retry = Math.min(retry * 2, 8000);
    setTimeout(connect, wait);
  };
}

// --- what the page does ---------------------------------------------------------------------
/** Play anyone on these terms: take the best seek that fits, or be listed until someone does. */
export function playAnyone({ ruleset, options, clock, seat, name, rated }) {
  $("lobby-status").dataset.sticky = "";
  status(t("Looking for an opponent…"));
  send({ type: "anyone", ruleset, options, clock, seat, name, rated: Boolean(rated) });
  $("lobby").scrollIntoView({ block: "nearest" });
}

/** Start the lobby: the list, its buttons, the socket. ``nameOf()`` is the name the player typed. */
export function startLobby(list, nameOf) {
  rulesets = list;
  $("seeks").addEventListener("click", (ev) => {
    const accept = ev.target.closest("[data-accept]");
    const cancel = ev.target.closest("[data-cancel]");
    if (accept) {
      status(t("Joining…"));
      send({ type: "accept", id: accept.dataset.accept, name: nameOf() });
    } else if (cancel) {
      send({ type: "cancel", id: cancel.dataset.cancel });
      forget(cancel.dataset.cancel);
      status("");
    }
  });
  $("seeks-more").addEventListener("click", () => { showAll = true; draw(); });
  draw();
  connect();
}
