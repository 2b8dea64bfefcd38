// One adapter per game: how its table is drawn, how each legal entry (an action record,
// docs/contracts.md) becomes a path of clicks, and what each step asks. The table and replay
// pages choose one adapter once, from the view's `game`; nothing here reads action text, and
// rules differences come from the view's `features`, never from the ruleset's name.
import { t, esc, cardWord, setCardNames, setFeatures, setPlace } from "./common.js";
import { renderBattleLine, renderGeneric, renderTracker } from "./board.js";
import { renderWarMachine, renderWarMachineTracker } from "./warmachine.js";
import { setFormationNames } from "./reasons.js";

function noTracker(box) {
  box.innerHTML = `<p class="muted">${esc(t("No tracker for this game."))}</p>`;
}

const battleline = {
  game: "battleline",
  render: renderBattleLine,
  tracker: renderTracker,
  /** The clicks that make an entry: e.g. Redeploy is hand:RE, then table:R7, then flag:5. */
  pathOf(e) {
    switch (e.kind) {
      case "play": case "environment": return [`hand:${e.card}`, `flag:${e.flag}`];
      case "claim": return [`claim:${e.flag}`];
      case "pass": return ["btn:pass"];
      case "end": return ["btn:end"];
      case "draw": case "scout_draw": return [`deck:${e.deck}`];
      case "scout": return [`hand:${e.card || "SC"}`];
      case "scout_return": return [`hand:${e.card}`];
      case "redeploy": return ["hand:RE", `table:${e.card}`, e.target === "x" ? "btn:discard" : `flag:${e.target}`];
      case "deserter": return ["hand:DE", `table:${e.card}`];
      case "traitor": return ["hand:TR", `table:${e.card}`, `flag:${e.target}`];
      default: return [`text:${e.text}`];
    }
  },
  /** What to do next, in words: `c` the entries still possible, `depth` the clicks made. */
  prompt(c, depth) {
    if (!depth) {
      const kinds = new Set(c.map((e) => e.kind));
      if (kinds.has("draw") || kinds.has("scout_draw")) {
        return kinds.has("scout_draw") ? t("{tactic}: pick a deck to draw from.", { tactic: cardWord("SC") }) : t("Draw a card: pick a deck.");
      }
      if (kinds.has("scout_return")) return t("{tactic}: pick a card from your hand to put back.", { tactic: cardWord("SC") });
      return t("Pick a card from your hand, or claim a flag.");
    }
    const kind = c[0].kind;
    if (depth === 1 && ["redeploy", "deserter", "traitor"].includes(kind)) {
      return kind === "redeploy" ? t("{tactic}: pick one of your cards on the table.", { tactic: cardWord("RE") })
        : kind === "deserter" ? t("{tactic}: pick an opponent's card to discard.", { tactic: cardWord("DE") })
          : t("{tactic}: pick an opponent's troop to take.", { tactic: cardWord("TR") });
    }
    if (kind === "redeploy") return t("{tactic}: pick a flag to move it to, or discard it.", { tactic: cardWord("RE") });
    if (kind === "traitor") return t("{tactic}: pick the flag to put it at.", { tactic: cardWord("TR") });
    return t("Pick a flag for {card}.", { card: cardWord(c[0].card) });
  },
};

const warmachine = {
  game: "warmachine",
  render: renderWarMachine,
  tracker: renderWarMachineTracker,
  pathOf(e) {
    switch (e.kind) {
      case "draw": return [`pile:${e.pile}`];
      case "deploy": return [`hand:${e.card}`, `deploy:${e.end}:${e.position}`];
      case "burn": return [`hand:${e.card}`, "btn:burn"];
      default: return [`text:${e.text}`];
    }
  },
  prompt(c, depth) {
    if (!depth) {
      const kinds = new Set(c.map((e) => e.kind));
      if (kinds.has("draw")) return t("Draw: pick a pile.");
      if (kinds.has("take")) return t("Take one or two of the leftover cards.");
      return t("Pick a card from your hand.");
    }
    return t("Deploy it at a country (▲ war machine, ▼ infantry), or burn it.");
  },
};

/** A game without its own adapter: its fields as a list, every action one button. */
const generic = {
  game: "",
  render: renderGeneric,
  tracker: noTracker,
  pathOf: (e) => [`text:${e.text}`],
  prompt: () => "",
};

const ADAPTERS = { battleline, warmachine };

export function adapterFor(game) { return ADAPTERS[game] || generic; }

/** Draw a view with its game's adapter. */
export function renderBoard(adapter, box, v, opts) {
  box.dataset.game = v.game;
  setCardNames(v.card_names);
  setFeatures(v.features);
  setPlace(v.place_name);
  setFormationNames(v.formation_names);
  adapter.render(box, v, opts);
}
