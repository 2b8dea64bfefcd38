// Refusal reasons and claim proofs arrive as data from the engine (docs/contracts.md): a code,
// its parameters and its English words. The catalogs translate the words; each parameter is
// put in words here (a card's name for its code, a nested reason in words, a formation by the
// name the view's ruleset gives it), never read back out of an English sentence.
import { t, tn, tc, num, cardWord, wordList, Word } from "./common.js";
import { wmCardWord } from "./warmachine.js";

// The engine names formations in proofs by Battle Line's rank words, weakest first; the view's
// `formation_names` (same order) say what its ruleset calls them (Schotten Totten's colour run).
const RANK_WORDS = ["host", "skirmish", "battalion", "phalanx", "wedge"];
let formationNames = null;
export function setFormationNames(names) {
  formationNames = Array.isArray(names) && names.length === RANK_WORDS.length ? names : null;
}

/** A formation's name as a Word: small letters inside a sentence ("your colour run (24)"), in
 * the form a template asks for (Czech declines it and makes "your" agree with it: "vaši
 * šarvátku"; catalog entries in the contexts accusative, your_nominative, your_accusative,
 * their_nominative). */
function formationWord(word) {
  const rank = RANK_WORDS.indexOf(word);
  const name = rank >= 0 && formationNames ? formationNames[rank] : word;
  return new Word((c) => (c ? tc(c, name) : t(name)).toLocaleLowerCase());
}

function param(name, value, game) {
  if (value && typeof value === "object") return reasonWord(value, game);
  switch (name) {
    case "card": return game === "warmachine" ? wmCardWord(value) : cardWord(value);
    case "cards": return wordList(String(value).split(/\s+/).map((c) => cardWord(c)));
    case "formation": return formationWord(String(value));
    case "country": case "battlefield": case "rule": return t(String(value).replace(/\.+$/, ""));
    default: return typeof value === "number" ? num(value) : String(value);
  }
}

/** A reason as a Word: a nested one ("{formation} ({sum})" inside "beating your {mine}") is
 * filled in the case the sentence around it asks for, and passes that case on to its words. */
function reasonWord(reason, game) {
  const params = {};
  for (const [k, v] of Object.entries(reason.params || {})) params[k] = param(k, v, game);
  return new Word((c) => {
    const counted = countedWords(reason, params, c);
    return counted === null ? t(reason.words || reason.code, params, c) : counted;
  });
}

/** A reason dict ({code, params, words}) in the page's language. */
export function reasonWords(reason, game) {
  return reason ? String(reasonWord(reason, game)) : "";
}

const cardCount = (cards) => String(cards || "").split(/\s+/).filter(Boolean).length;

/** The reasons that count something, by the page language's plural rule (the engine words
 * them in English alone: one_unseen_left for one card, too_few_unseen for more); null for the
 * others. */
function countedWords(reason, params, inherited = "") {
  const p = reason.params || {};
  switch (reason.code) {
    case "one_unseen_left": case "too_few_unseen":
      return tn("only {left} unseen troop card left and they need {need}: their side can never be completed",
        "only {left} unseen troop cards left and they need {need}: their side can never be completed", p.left, params, inherited);
    // the cards a counter-example names: one card or several (Czech: "by dala" / "by daly")
    case "higher_sum":
      return tn("{cards} would make a higher sum ({a} > {b})", "{cards} would make a higher sum ({a} > {b})",
        cardCount(p.cards), params, inherited);
    case "stronger":
      return tn("{cards} would make a stronger {formation} ({a} > {b})", "{cards} would make a stronger {formation} ({a} > {b})",
        cardCount(p.cards), params, inherited);
    case "beating":
      return tn("{cards} would make {theirs}, beating your {mine}", "{cards} would make {theirs}, beating your {mine}",
        cardCount(p.cards), params, inherited);
    case "side_incomplete":
      return tn("your side is not complete ({n} of {capacity} card)", "your side is not complete ({n} of {capacity} cards)",
        p.capacity, params, inherited);
    default: return null;
  }
}

/** A flag's claim proof (the view's `claim`) in the page's language. */
export function proofText(claim) {
  if (!claim) return "";
  return claim.why ? reasonWords(claim.why) : t(claim.reason || "");
}
