// Claim proofs arrive as English sentences from the engine; rebuild them in the page's
// language from their parts (formation, sums, cards), falling back to the English text.
import { t, num, cardName } from "./common.js";

const NAMES = "wedge|phalanx|battalion|skirmish|host";

function formation(phrase) {
  let m;
  if ((m = new RegExp(`^(?:a )?(${NAMES}) \\((\\d+)\\)$`).exec(phrase))) return t("{formation} ({sum})", { formation: t(m[1]), sum: num(m[2]) });
  if ((m = new RegExp(`^(${NAMES}) (\\d+)$`).exec(phrase))) return t("{formation} ({sum})", { formation: t(m[1]), sum: num(m[2]) });
  if ((m = /^sum (\d+)$/.exec(phrase))) return t("sum {sum}", { sum: num(m[1]) });
  return phrase;
}

function cards(codes, ruleset) {
  return codes.split(/\s+/).map((c) => cardName(c, ruleset)).join(", ");
}

/** The proof sentence in the page language. */
export function reasonText(reason, ruleset) {
  if (!reason) return "";
  let m;
  if ((m = /^both complete: your (.+) beats (.+)$/.exec(reason))) return t("both complete: your {mine} beats {theirs}", { mine: formation(m[1]), theirs: formation(m[2]) });
  if ((m = /^both complete: their (.+) beats your (.+)$/.exec(reason))) return t("both complete: their {theirs} beats your {mine}", { theirs: formation(m[1]), mine: formation(m[2]) });
  if ((m = /^tie at (.+): you completed (first|second)$/.exec(reason))) {
    return m[2] === "first" ? t("tie at {what}: you completed first", { what: formation(m[1]) }) : t("tie at {what}: you completed second", { what: formation(m[1]) });
  }
  if ((m = /^your side is not complete \((\d+) of (\d+) cards\)$/.exec(reason))) return t("your side is not complete ({n} of {capacity} cards)", { n: num(m[1]), capacity: num(m[2]) });
  if ((m = /^their side can never be completed: your (.+) wins$/.exec(reason))) return t("their side can never be completed: your {mine} wins", { mine: formation(m[1]) });
  if ((m = /^only (\d+) unseen troop cards? left and they need (\d+): their side can never be completed$/.exec(reason))) {
    return t("only {left} unseen troop cards left and they need {need}: their side can never be completed", { left: num(m[1]), need: num(m[2]) });
  }
  if ((m = /^no unseen troop cards can beat your (.+)$/.exec(reason))) return t("no unseen troop cards can beat your {mine}", { mine: formation(m[1]) });
  if ((m = /^(.+) would make a higher sum \((\d+) > (\d+)\)$/.exec(reason))) return t("{cards} would make a higher sum ({a} > {b})", { cards: cards(m[1], ruleset), a: num(m[2]), b: num(m[3]) });
  if ((m = new RegExp(`^(.+) would make a stronger (${NAMES}) \\((\\d+) > (\\d+)\\)$`).exec(reason))) {
    return t("{cards} would make a stronger {formation} ({a} > {b})", { cards: cards(m[1], ruleset), formation: t(m[2]), a: num(m[3]), b: num(m[4]) });
  }
  if ((m = /^(.+?) would make (.+), beating your (.+)$/.exec(reason))) return t("{cards} would make {theirs}, beating your {mine}", { cards: cards(m[1], ruleset), theirs: formation(m[2]), mine: formation(m[3]) });
  return t(reason);
}
