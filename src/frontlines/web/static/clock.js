// Game clocks on the table: each player's time left, counted down on the page between the
// server's readings. The server keeps the time (docs/web.md, "Clocks"); every view message
// carries a reading (`clock`: each seat's seconds left when the message was made, whose clock
// runs), and the page counts the running one down from the moment the message arrived, so
// neither the page's clock nor the network's delay shifts it for long: the next message
// corrects it.
import { t, tn, esc } from "./common.js";

const LANG = document.body.dataset.lang || "en";
const LOCALE = LANG === "fa" ? "fa-IR" : LANG;
const whole = new Intl.NumberFormat(LOCALE, { useGrouping: false, maximumFractionDigits: 0 });
const twoDigits = new Intl.NumberFormat(LOCALE, { useGrouping: false, minimumIntegerDigits: 2, maximumFractionDigits: 0 });
const tenths = new Intl.NumberFormat(LOCALE, { useGrouping: false, minimumFractionDigits: 1, maximumFractionDigits: 1 });
const DAY = 86400;

let reading = null; // the last reading from the server
let readAt = 0; // performance.now() when it arrived

/** A new reading from the server (a view message's `clock`, null for a game without one). */
export function setReading(clock) {
  reading = clock || null;
  readAt = performance.now();
}

export function hasClock() { return reading !== null; }

/** Seconds `seat` has now, as the page counts (null: that seat has no clock). */
export function timeLeft(seat) {
  if (!reading || reading.left[seat] === null || reading.left[seat] === undefined) return null;
  let left = reading.left[seat];
  if (reading.running === seat) left -= (performance.now() - readAt) / 1000;
  return Math.max(0, left);
}

/** A clock as the page's language writes it: 4:59, 1:02:03, tenths under ten seconds (9.4;
 * never rounded up: 0.0 only once the time is gone), days and hours past a day. */
export function clockText(seconds) {
  if (seconds >= DAY) {
    return t("{days} d {hours} h", { days: whole.format(Math.floor(seconds / DAY)),
      hours: whole.format(Math.floor((seconds % DAY) / 3600)) });
  }
  if (seconds < 10) return tenths.format(Math.floor(seconds * 10) / 10);
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return h ? `${whole.format(h)}:${twoDigits.format(m)}:${twoDigits.format(sec)}`
    : `${whole.format(m)}:${twoDigits.format(sec)}`;
}

/** The control in words: "5 min + 3 s", "90 s + 2 s", "3 days a move". */
export function controlText(clock) {
  if (!clock) return "";
  if (clock.kind === "days") return tn("{n} day a move", "{n} days a move", Math.round(clock.base / DAY));
  // a base of whole minutes reads in minutes; any other (the API takes 15 s and up) in
  // seconds, which rounding to minutes would turn into "0 min" or "2 min" for 90 s
  if (clock.base % 60 !== 0) {
    return t("{b} s + {s} s", { b: whole.format(clock.base), s: whole.format(clock.increment) });
  }
  return t("{m} min + {s} s", { m: whole.format(clock.base / 60), s: whole.format(clock.increment) });
}

function clockHtml(seat) {
  // Clocks read left to right in every language (Persian too), and are a timer to screen
  // readers (which do not announce each tick).
  return `<span class="clock" data-seat="${seat}" role="timer" dir="ltr"` +
    ` title="${esc(clockTitle())}"></span>`;
}

function clockTitle() {
  if (!reading) return "";
  const first = reading.running === null && reading.to_move !== null
    ? ` ${t("The clocks start after each player's first move.")}` : "";
  return `${t("Clock")}: ${controlText(reading)}.${first}`;
}

/** Put each seat's clock into its player bar (the board was just drawn): `seat` is the seat
 * drawn at the bottom (".me-bar"). */
export function placeClocks(board, seat) {
  if (!reading) return;
  for (const [cls, p] of [[".me-bar", seat], [".opp-bar", 1 - seat]]) {
    const bar = board.querySelector(cls);
    if (bar && reading.left[p] !== null && reading.left[p] !== undefined && !bar.querySelector(".clock")) {
      bar.insertAdjacentHTML("beforeend", clockHtml(p));
    }
  }
  tick();
}

/** Show the time left on every clock of the page; called often (ten times a second). */
export function tick() {
  if (!reading) return;
  for (const el of document.querySelectorAll(".clock[data-seat]")) {
    const seat = Number(el.dataset.seat);
    const left = timeLeft(seat);
    if (left === null) continue;
    const text = clockText(left);
    if (el.textContent !== text) el.textContent = text;
    const running = reading.running === seat;
    el.classList.toggle("running", running);
    el.classList.toggle("low", running && left < 10);
    el.classList.toggle("out", left <= 0);
  }
}

setInterval(tick, 100);
