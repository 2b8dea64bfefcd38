// Rematch at the end of a game: offer, accept, decline or withdraw; when the new game is
// made, a player's page moves there with its own seat token (the server swapped the seats,
// keeping each token), a spectator's offers a link. The server's word is the view message's
// `rematch` (docs/web.md, "Rematch").
import { t, esc, playerName } from "./common.js";

let state = null; // the last view's rematch reading
let readAt = 0; // performance.now() when it came
let expiryTimer = 0;
let moving = false; // this page is on its way to the rematch

/** The seats a role answers for (bits), as the server counts them. */
function bitsOf(role) {
  if (role === "both") return 3;
  return role === 0 || role === 1 ? 1 << role : 0;
}

function expired() {
  return state && state.expires_in !== null && state.game === null && state.offers
    && performance.now() - readAt >= state.expires_in * 1000;
}

/** Draw the rematch box for the view message `msg` (names: the seats' names as shown);
 * `send(answer)` sends the player's answer; `go(url)` moves the page. */
export function renderRematch(box, msg, names, send, go) {
  if (msg.rematch !== state) { state = msg.rematch || null; readAt = performance.now(); }
  const over = msg.status === "finished";
  const mine = bitsOf(msg.role) & (state ? state.needed : (msg.bot_seat === null ? 3 : 3 & ~(1 << msg.bot_seat)));
  box.hidden = !over || (!mine && !(state && state.game));
  if (box.hidden) { box.innerHTML = ""; return; }
  if (state && state.game) {
    const lang = document.body.dataset.lang || "en";
    if (mine) {
      const token = new URLSearchParams(location.search).get("t") || "";
      box.innerHTML = `<p>${esc(t("The rematch is starting…"))}</p>`;
      if (!moving) go(`/g/${encodeURIComponent(state.game)}?t=${encodeURIComponent(token)}&lang=${lang}`);
      moving = true;
    } else {
      box.innerHTML = `<p><a href="/g/${encodeURIComponent(state.game)}?lang=${lang}">${esc(t("Watch the rematch"))}</a></p>`;
    }
    return;
  }
  const offers = state && !expired() ? state.offers : 0;
  const theirs = offers & ~mine & (state ? state.needed : 3);
  const other = msg.role === 0 || msg.role === 1 ? 1 - msg.role : null;
  const button = (answer, label, cls = "") => `<button type="button" data-rematch="${answer}" class="${cls}">${esc(label)}</button>`;
  let words = "";
  let buttons = "";
  if (theirs && other !== null) {
    words = t("{name} offers a rematch: same rules and clock, seats swapped.", { name: playerName(names, other) });
    buttons = button("yes", t("Accept"), "primary") + button("no", t("Decline"));
  } else if (offers & mine) {
    words = t("You offered a rematch; waiting for {name}.", { name: playerName(names, other ?? 0) });
    buttons = button("no", t("Withdraw the offer"));
  } else {
    if (state && state.declined !== null && state.declined !== undefined) {
      words = state.declined === other ? t("{name} declined the rematch.", { name: playerName(names, other) })
        : t("You declined the rematch.");
    } else if (state && state.offers && expired()) {
      words = t("The rematch offer expired.");
    }
    const closed = state && state.declined === other && other !== null;
    if (!closed) buttons = button("yes", t("Rematch (seats swapped)"), "primary");
  }
  box.innerHTML = `${words ? `<p id="rematch-text">${esc(words)}</p>` : ""}${buttons}`;
  for (const b of box.querySelectorAll("[data-rematch]")) b.addEventListener("click", () => send(b.dataset.rematch));
  // An offer that runs out while the page is open says so without a message.
  clearTimeout(expiryTimer);
  if (state && state.offers && state.expires_in !== null && !expired()) {
    expiryTimer = setTimeout(() => renderRematch(box, msg, names, send, go), state.expires_in * 1000 + 50);
  }
}
