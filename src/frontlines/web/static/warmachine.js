// War Machine: the front (three country cards) and the reinforcement piles.
// Filled in from docs/warmachine.md; until then its fields are listed plainly.
import { t, esc } from "./common.js";

export function renderWarMachine(box, v, opts) {
  const skip = new Set(["legal", "log", "game", "ruleset", "viewer", "to_move", "phase", "outcome"]);
  box.innerHTML = `<dl class="generic">` + Object.entries(v).filter(([k]) => !skip.has(k))
    .map(([k, val]) => `<dt>${esc(t(k))}</dt><dd><code>${esc(JSON.stringify(val))}</code></dd>`).join("") + `</dl>`;
  void opts;
}
