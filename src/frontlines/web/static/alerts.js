// "Your move": while it is this player's turn the tab's title and icon say so (and go back when
// it is not); when the turn comes to them, a short sound (off unless they turn it on) and a
// browser notification (only if they asked for it with a click, and only while the tab is
// hidden). The two settings are remembered on the device. docs/web.md, "Your move".
import { t } from "./common.js";

const SOUND_KEY = "frontlines.alerts.sound";
const NOTIFY_KEY = "frontlines.alerts.notify";
const ICONS = { idle: "/static/flag.svg", turn: "/static/flag-turn.svg" };
const baseTitle = document.title;
const $ = (id) => document.getElementById(id);

let mine = null; // whether it was this player's move at the last view (null: no view yet)
let audio = null; // the Web Audio context, made once sound is on and the page was touched
let words = ""; // what a notification says: the other player's last turn

function setting(key) {
  try { return localStorage.getItem(key) === "1"; } catch (_) { return false; }
}

function remember(key, on) {
  try { localStorage.setItem(key, on ? "1" : "0"); } catch (_) { /* private mode: this page only */ }
}

const canNotify = () => "Notification" in window;
const notifying = () => canNotify() && Notification.permission === "granted" && setting(NOTIFY_KEY);

/** The page says whose turn it is: `now` true while this player is to move (a seated player
 * of a game between two devices); `said` the other player's last turn in words. */
export function yourMove(now, said = "") {
  words = said;
  if (now === mine) return;
  const first = mine === null;
  mine = now;
  document.title = now ? t("Your move — {title}", { title: baseTitle }) : baseTitle;
  const icon = document.querySelector('link[rel="icon"]');
  if (icon) icon.href = now ? ICONS.turn : ICONS.idle;
  document.documentElement.dataset.yourMove = now ? "yes" : "no";
  // Not when the page opens on the player's turn: they are looking at it.
  if (!now || first) return;
  if (setting(SOUND_KEY)) chime();
  if (document.hidden && notifying()) notify();
}

function context() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!audio && Context) audio = new Context();
  if (audio && audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** Two short soft notes, made here (no sound file to load). */
function chime() {
  const ctx = context();
  if (!ctx) return;
  const start = ctx.currentTime + 0.01;
  [660, 880].forEach((freq, i) => {
    const at = start + i * 0.16;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.15);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + 0.16);
  });
  // for scripts and tests: how many times the page chimed
  const root = document.documentElement;
  root.dataset.chimes = String(Number(root.dataset.chimes || 0) + 1);
}

function notify() {
  try {
    const n = new Notification(t("Your move — {title}", { title: "Frontlines" }),
      { body: words, tag: `frontlines-${location.pathname}`, icon: ICONS.turn, lang: document.documentElement.lang });
    n.onclick = () => { window.focus(); n.close(); };
  } catch (_) { /* a browser that shows notifications only from a service worker (Chrome on Android) */ }
}

/** The alert settings of the table (`box`, a seated player's): a sound, notifications. */
export function setupAlerts(box) {
  box.hidden = false;
  const sound = $("alert-sound");
  sound.checked = setting(SOUND_KEY);
  sound.addEventListener("change", () => {
    remember(SOUND_KEY, sound.checked);
    if (sound.checked) chime(); // the click lets the page play it, and the player hears what it is
  });
  // A browser lets a page play sound once the person has touched it: wake the sound up then.
  const wake = () => { if (setting(SOUND_KEY)) context(); };
  document.addEventListener("pointerdown", wake, { once: true });
  document.addEventListener("keydown", wake, { once: true });
  const button = $("alert-notify");
  if (!canNotify()) { button.hidden = true; return; }
  const show = () => {
    const on = notifying();
    button.textContent = on ? t("Stop notifications") : t("Notify me when it is my move");
    button.setAttribute("aria-pressed", on ? "true" : "false");
    $("alert-notify-state").textContent = on ? t("You will be notified while this tab is in the background.")
      : Notification.permission === "denied" ? t("This browser blocks notifications from this site; its site settings can allow them.")
        : "";
  };
  button.addEventListener("click", async () => {
    if (notifying()) remember(NOTIFY_KEY, false);
    else {
      // The browser asks only now, on the player's click, never by itself.
      let permission = Notification.permission;
      if (permission === "default") {
        try { permission = await Notification.requestPermission(); } catch (_) { permission = "denied"; }
      }
      remember(NOTIFY_KEY, permission === "granted");
    }
    show();
  });
  show();
}
