// Home page: start a game, resume my games, watch live ones.
import { loadCatalog, t, tn, esc, myGames, rememberGame, forgetGame, num, levelDescription, setPlace, seatNames, outcomeText, sentences } from "./common.js";
import { helpText } from "./words.js";
import { clockText } from "./clock.js";
import { startLobby, playAnyone, STARTER } from "./lobby.js";

const $ = (id) => document.getElementById(id);
const homeTitle = document.title;
let rulesets = [];

function optionFields() {
  const rs = rulesets.find((r) => r.name === $("ruleset").value);
  const box = $("options");
  box.innerHTML = "";
  setPlace(rs && rs.place_name);  // Schotten Totten's options speak of stones (and its own cards)
  if (!rs) return;
  for (const o of rs.options) {
    if (STARTER[o.name]) continue; // set by "Who moves first"
    const id = `opt-${o.name}`;
    const div = document.createElement("div");
    div.className = "field";
    // Identifiers stay values; people read the option's words and its help in their language.
    div.innerHTML = `<label for="${id}">${esc(t(o.label || o.name))}</label>` +
      `<select id="${id}" data-option="${esc(o.name)}">` +
      o.choices.map((c, i) => `<option value="${esc(c)}"${c === o.default ? " selected" : ""}>${esc(t((o.words || [])[i] || c))}</option>`).join("") +
      `</select>` + (helpText(o) ? `<small class="muted">${esc(t(helpText(o)))}</small>` : "");
    box.appendChild(div);
  }
}

// The names typed last on this device fill the fields next time (two people who play here
// often need not type them again); a seat left unnamed is "Player 1" or "Player 2" (seatNames).
const NAMES_KEY = "frontlines.names";
function rememberNames() {
  const names = { me: $("name").value.trim(), other: $("other-name").value.trim() };
  try { localStorage.setItem(NAMES_KEY, JSON.stringify(names)); } catch (_) { /* private mode */ }
}
function recallNames() {
  let names = {};
  try { names = JSON.parse(localStorage.getItem(NAMES_KEY) || "{}"); } catch (_) { /* none */ }
  if (names.me) $("name").value = names.me;
  if (names.other) $("other-name").value = names.other;
}

// Clocks: the presets people play most (live: minutes + seconds back a move, as lichess
// writes them; correspondence: days a move), a custom live clock, or none.
const LIVE_PRESETS = [[3, 2], [5, 3], [10, 5], [15, 10], [30, 20]];
const DAY_PRESETS = [1, 2, 3, 5, 7, 14];
const CLOCK_KEY = "frontlines.clock";

function clockFields() {
  $("clock-live").innerHTML = LIVE_PRESETS.map(([m, s]) =>
    `<option value="${m * 60}+${s}">${esc(t("{m} min + {s} s", { m: num(m), s: num(s) }))}</option>`).join("") +
    `<option value="custom">${esc(t("Custom…"))}</option>`;
  $("clock-days").innerHTML = DAY_PRESETS.map((d) =>
    `<option value="${d}d">${esc(tn("{n} day a move", "{n} days a move", d))}</option>`).join("");
  let kept = "";
  try { kept = localStorage.getItem(CLOCK_KEY) || ""; } catch (_) { /* private mode */ }
  if ([...$("clock").options].some((o) => o.value === kept)) $("clock").value = kept;
  $("clock").addEventListener("change", clockHelp);
  clockHelp();
}

function clockHelp() {
  const value = $("clock").value;
  $("clock-custom").hidden = value !== "custom";
  const words = value === "" ? "" : value.endsWith("d")
    ? t("Each move may take that many days; the clock runs only while it is that player's turn.")
    : t("Each player has that many minutes for the whole game and gets the seconds back after each move.");
  const bot = opponentKind() === "bot" && value !== "" ? t("Against a bot only your clock runs.") : "";
  const first = value === "" ? "" : t("The clocks start after each player's first move.");
  $("clock-help").textContent = sentences(words, first, bot);
}

/** The clock the form asks for, as the server writes it ("300+3", "3d", "" for none). */
function chosenClock() {
  const value = $("clock").value;
  if (value !== "custom") return value;
  const minutes = Math.min(180, Math.max(1, Math.round(Number($("clock-minutes").value) || 10)));
  const seconds = Math.min(180, Math.max(0, Math.round(Number($("clock-increment").value) || 0)));
  return `${minutes * 60}+${seconds}`;
}

function opponentKind() {
  return document.querySelector('input[name="kind"]:checked').value;
}

async function startGame(ev) {
  ev.preventDefault();
  $("new-error").textContent = "";
  const kind = opponentKind();
  const options = {};
  for (const sel of document.querySelectorAll("[data-option]")) options[sel.dataset.option] = sel.value;
  // "I move first" means a seat and who starts: seat 0 always starts (the game's starter
  // option), and the person's seat is 0, 1 or drawn by the server.
  const rs = rulesets.find((r) => r.name === $("ruleset").value);
  const starter = rs && rs.options.find((o) => STARTER[o.name]);
  const pickSeat = { first: "0", second: "1", random: "random" }[$("seat").value] || "random";
  if (starter) options[starter.name] = STARTER[starter.name];
  if (kind === "lobby") {  // anyone: the lobby pairs or lists us (lobby.js)
    rememberNames();
    try { localStorage.setItem(CLOCK_KEY, $("clock").value); } catch (_) { /* private mode */ }
    playAnyone({ ruleset: $("ruleset").value, options, clock: chosenClock(), seat: starter ? pickSeat : "random",
                 name: $("name").value, rated: Boolean(ACCOUNT) && $("rated").checked });
    return;
  }
  const body = {
    ruleset: $("ruleset").value,
    options,
    opponent: kind === "bot" ? `bot:${$("level").value}` : kind,
    seat: starter ? pickSeat : "random",
    name: $("name").value,
    // pass and play: both players are here, and each is named (the other seat too)
    other_name: kind === "hotseat" ? $("other-name").value : "",
    clock: chosenClock(),
    // a rated game: between two accounts, so only with a friend and logged in
    rated: kind === "friend" && Boolean(ACCOUNT) && $("rated").checked,
  };
  rememberNames();
  try { localStorage.setItem(CLOCK_KEY, $("clock").value); } catch (_) { /* private mode */ }
  const r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) {
    let msg = r.statusText;
    try {
      const body = await r.json();
      // a refused name is said in the page language; other refusals as the server words them
      msg = body.code === "bad_name"
        ? t("A name cannot hold invisible characters or characters that change the direction of the text.")
        : body.code === "csrf" ? t("This page is out of date; reload it.") : body.detail || msg;
    } catch (_) { /* keep */ }
    $("new-error").textContent = t("Could not start the game: {error}", { error: msg });
    return;
  }
  const g = await r.json();
  rememberGame({ id: g.id, token: g.token, seat: g.seat, ruleset: g.ruleset, opponent: g.opponent, invite: g.invite_url });
  location.href = g.url;
}

// A finished game's result tag (core/record.py result_text): who won, by seat.
const WINNER = { "1-0": 0, "0-1": 1, "1/2-1/2": null };

/** One game of a list: its title, both players (a bot by its level in words; `seat` the
 * reader's own seat in their own games, "You"), how it is played, and how far it got or who
 * won. */
function gameItem(g, links, seat = null) {
  const viewer = (seat === 0 || seat === 1) && g.opponent !== "hotseat" ? seat : null;
  const names = seatNames(g.names, g.opponent, g.bot_seat, viewer);
  const title = rulesets.find((r) => r.name === g.ruleset)?.title || g.ruleset;
  const how = { friend: t("friend"), hotseat: t("pass and play"), lobby: t("from the lobby") }[g.opponent] || "";
  const state = g.status === "finished" && g.result in WINNER
    ? outcomeText({ winner: WINNER[g.result], reason: g.reason }, viewer, names)
    : g.status === "finished" ? t("finished")
      : g.status === "abandoned" ? t("abandoned") : tn("{n} move", "{n} moves", g.plies);
  const parts = [names.join(" – "), how, state].filter(Boolean).map(esc).join(" · ");
  return `<li><span class="g-title">${esc(t(title))}</span> <span class="muted">${parts}</span> ${links}</li>`;
}

// Logged in, "My games" are the account's (on every device: the table seats the account
// without a seat link), then those only this browser remembers.
const ACCOUNT = document.body.dataset.account || "";

async function listMine() {
  const mine = myGames();
  let held = [];
  if (ACCOUNT) {
    const r = await fetch("/api/account/games");
    held = r.ok ? await r.json() : [];
  }
  const heldIds = new Set(held.map((g) => g.id));
  const local = mine.filter((g) => !heldIds.has(g.id));
  // Where this browser's games stand, and whose move it is in the account's active ones
  // (the "waiting for you" list): one request.
  const asked = [...new Set([...local.map((g) => g.id), ...held.filter((g) => g.status === "active").map((g) => g.id)])];
  let byId = {};
  if (asked.length) {
    const r = await fetch(`/api/games?ids=${encodeURIComponent(asked.slice(0, 200).join(","))}`);
    byId = Object.fromEntries((r.ok ? await r.json() : []).map((row) => [row.id, row]));
  }
  // an account's seat needs no token: the table seats the account
  listWaiting([...local, ...held.filter((g) => g.seats.length === 1).map((g) => ({ id: g.id, seat: g.seats[0], token: "" }))], byId);
  const links = (g, row, href) => {
    const play = `<a href="${esc(href)}">${row.status === "active" ? t("Resume") : t("Open")}</a>`;
    const replay = row.status === "finished" ? ` <a href="/replay/${esc(g.id)}">${t("Replay")}</a>` : "";
    return play + replay;
  };
  const items = [
    ...held.map((row) => gameItem(row, links(row, row, `/g/${row.id}`), row.seats.length === 1 ? row.seats[0] : null)),
    ...local.filter((g) => byId[g.id]).map((g) => {
      const row = byId[g.id];
      const forget = ` <button type="button" class="link" data-forget="${esc(g.id)}">${t("Forget")}</button>`;
      return gameItem(row, links(g, row, `/g/${g.id}?t=${g.token}`) + forget, g.seat);
    }),
  ];
  $("my-empty").hidden = items.length > 0;
  $("my-games").innerHTML = items.join("");
}

/** "Waiting for you": this browser's games against people (a friend's, the lobby's), and the
 * logged-in account's, where it is its seat's turn, the longest waiting first, with the time
 * left where a clock runs. */
function listWaiting(mine, byId) {
  const waiting = mine.filter((g) => {
    const row = byId[g.id];
    return row && row.status === "active" && (g.seat === 0 || g.seat === 1) && row.to_move === g.seat
      && (row.opponent === "friend" || row.opponent === "lobby");
  }).sort((a, b) => byId[a.id].updated - byId[b.id].updated);
  $("waiting-panel").hidden = waiting.length === 0;
  $("waiting").innerHTML = waiting.map((g) => {
    const row = byId[g.id];
    const left = row.clock && row.clock.left ? row.clock.left[g.seat] : null;
    const time = left === null || left === undefined ? ""
      : ` <span class="muted">${esc(t("{time} left", { time: clockText(left) }))}</span>`;
    const href = g.token ? `/g/${g.id}?t=${g.token}` : `/g/${g.id}`;
    return gameItem(row, `<a href="${esc(href)}">${esc(t("Play your move"))}</a>${time}`, g.seat);
  }).join("");
  // The tab says how many games wait, as the table's says "your move".
  document.title = waiting.length ? t("({n}) {title}", { n: num(waiting.length), title: homeTitle }) : homeTitle;
}

async function listLive() {
  const [live, done] = await Promise.all([
    fetch("/api/games?status=active").then((r) => (r.ok ? r.json() : [])),
    fetch("/api/games?status=finished").then((r) => (r.ok ? r.json() : [])),
  ]);
  $("live-games").innerHTML = live.length
    ? live.map((g) => gameItem(g, `<a href="/g/${esc(g.id)}">${t("Watch")}</a>`)).join("")
    : `<li class="muted">${t("No live games right now.")}</li>`;
  $("done-games").innerHTML = done.length
    ? done.slice(0, 20).map((g) => gameItem(g, `<a href="/replay/${esc(g.id)}">${t("Replay")}</a>`)).join("")
    : `<li class="muted">${t("None yet.")}</li>`;
}

async function main() {
  await loadCatalog();
  rulesets = await fetch("/api/rulesets").then((r) => r.json());
  // One control for game and ruleset: the rulesets grouped under their game.
  const games = [...new Set(rulesets.map((r) => r.game))];
  const gameTitle = { battleline: t("Battle Line family"), warmachine: t("War Machine") };
  $("ruleset").innerHTML = games.map((g) => `<optgroup label="${esc(gameTitle[g] || g)}">` +
    rulesets.filter((r) => r.game === g).map((r) => `<option value="${esc(r.name)}">${esc(t(r.title))}</option>`).join("") +
    `</optgroup>`).join("");
  $("ruleset").addEventListener("change", optionFields);
  optionFields();
  const kindFields = () => {
    $("level-field").hidden = opponentKind() !== "bot";
    $("other-name-field").hidden = opponentKind() !== "hotseat";
    // a seek is live unless its player says otherwise: strangers keep each other waiting
    if (opponentKind() === "lobby" && $("clock").value === "") { $("clock").value = "300+3"; clockHelp(); }
    $("start").textContent = opponentKind() === "lobby" ? t("Play anyone") : t("Start");
    // an account plays under its username: no name to type, except for pass and play
    $("name-field").hidden = Boolean(ACCOUNT) && opponentKind() !== "hotseat";
    // rated: between two accounts, a friend's or a stranger's from the lobby
    $("rated-field").hidden = opponentKind() !== "friend" && opponentKind() !== "lobby";
    for (const help of document.querySelectorAll("[data-rated-help]")) help.hidden = help.dataset.ratedHelp !== opponentKind();
  };
  for (const radio of document.querySelectorAll('input[name="kind"]')) {
    radio.addEventListener("change", kindFields);
    radio.addEventListener("change", clockHelp);
  }
  kindFields();
  clockFields();
  recallNames();
  const levelHelp = () => { $("level-help").textContent = levelDescription($("level").value); };
  $("level").addEventListener("change", levelHelp);
  levelHelp();
  $("new-game").addEventListener("submit", startGame);
  $("my-games").addEventListener("click", (ev) => {
    const id = ev.target.dataset?.forget;
    if (id) { forgetGame(id); listMine(); }
  });
  startLobby(rulesets, () => $("name").value);
  await Promise.all([listMine(), listLive()]);
  setInterval(listLive, 10000);
  setInterval(listMine, 30000); // a move made meanwhile puts a game in "waiting for you"
}

main();
