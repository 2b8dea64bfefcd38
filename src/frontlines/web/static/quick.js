// Quick messages: a fixed set of short phrases a player says to the other player and the
// spectators. Only the phrase's id goes over the wire; each page says it in its own language.
// A player may mute them (remembered on the device). docs/web.md, "Quick messages".
import { t, esc } from "./common.js";

const MUTE_KEY = "frontlines.quick.mute";
const SHOWN_MS = 12000; // how long the last phrase stays under the status line
const KEPT = 20; // phrases listed in the panel

// The ids are the server's (play/quick.py PHRASES), in the order the buttons show them.
const PHRASES = ["hello", "good_luck", "nice_move", "well_played", "thanks", "oops", "one_moment", "good_game"];

/** A phrase in the page's language. */
export function phraseText(id) {
  switch (id) {
    case "hello": return t("Hello!");
    case "good_luck": return t("Good luck!");
    case "nice_move": return t("Nice move!");
    case "well_played": return t("Well played!");
    case "thanks": return t("Thanks!");
    case "oops": return t("Oops!");
    case "one_moment": return t("One moment, please.");
    case "good_game": return t("Good game!");
    default: return "";
  }
}

const $ = (id) => document.getElementById(id);
let heardList = []; // {seat, phrase} as they came
let hideTimer = 0;
let ready = false;

function muted() {
  try { return localStorage.getItem(MUTE_KEY) === "1"; } catch (_) { return false; }
}

/** Show the quick messages panel for `role` (a seat may speak; everyone may mute). `send(id)`
 * sends a phrase. */
export function setupQuick(role, send) {
  if (ready) return;
  ready = true;
  $("quick").hidden = false;
  const speaks = role === 0 || role === 1;
  const buttons = $("quick-buttons");
  buttons.hidden = !speaks;
  if (speaks) {
    buttons.innerHTML = PHRASES.map((id) => `<button type="button" data-phrase="${id}">${esc(phraseText(id))}</button>`).join("");
    buttons.addEventListener("click", (ev) => {
      const b = ev.target.closest("[data-phrase]");
      if (b) send(b.dataset.phrase);
    });
  }
  const mute = $("quick-mute");
  mute.checked = muted();
  mute.addEventListener("change", () => {
    try { localStorage.setItem(MUTE_KEY, mute.checked ? "1" : "0"); } catch (_) { /* this page only */ }
    if (mute.checked) $("quick-said").hidden = true;
    list();
  });
}

/** A `quick` message came: `mine` whether this page's seat said it, `who(seat)` the speaker's
 * name as the page shows it. */
export function heard(data, mine, who) {
  const line = { seat: data.seat, phrase: data.phrase, mine, who: who(data.seat) };
  if (!phraseText(line.phrase)) return; // a phrase of a newer server: nothing to say it with
  heardList = [...heardList, line].slice(-KEPT);
  list();
  if (!mine && muted()) return;
  const said = $("quick-said");
  said.textContent = lineText(line);
  said.hidden = false;
  said.classList.toggle("mine", mine);
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => { said.hidden = true; }, SHOWN_MS);
}

function lineText(line) {
  return t("{name}: {message}", { name: line.mine ? t("You") : line.who, message: phraseText(line.phrase) });
}

/** The panel's list: what was said since the page opened (the other player's left out when
 * muted). */
function list() {
  const shown = heardList.filter((line) => line.mine || !muted());
  $("quick-log").innerHTML = shown.map((line) => `<li${line.mine ? ' class="mine"' : ""}>${esc(lineText(line))}</li>`).join("");
  $("quick-empty").hidden = shown.length > 0;
}
