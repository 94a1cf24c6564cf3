/**
 * Verification by the engine (seed 002's "verify implementation knowledge", done by replaying
 * the fact in the game instead of asking the model again): which IMPL items are due, how a
 * replayed response is judged, and what the outcome does to an item. Pure; the
 * `verifyKnowledge` activity does the replaying.
 */
import { words } from './layers';
import type { KnowledgeItem, KnowledgeState, Verification, VerifyRequest, VerifyResult } from './schema';

/** Seed 002: an IMPL item below this confidence is checked before it is relied on. */
export const VERIFY_BELOW_CONFIDENCE = 0.8;
/** Items checked in one activity. */
export const CHECKS_PER_TURN = 3;

/** The share of the expected words the response must contain. */
const MATCH_SHARE = 0.6;

/**
 * The parser saying an object is not in view or a word is unknown. Infocom games echo the noun
 * ("You can't see any gold coins here!"), so the expected words appear although nothing was shown.
 */
const NOT_SHOWN = /\b(?:you can['’]t see any|i don['’]t know the word)\b/i;

/**
 * The response shows the expected effect: most of its content words appear in it (a phrase
 * without content words, such as "Ok.", must appear as written). A refusal that only echoes the
 * command's nouns shows nothing, unless that refusal is what is expected.
 */
export function effectHolds(expect: string, response: string): boolean {
  if (NOT_SHOWN.test(response) && !NOT_SHOWN.test(expect)) return false;
  const wanted = [...new Set(words(expect))];
  const text = response.toLowerCase();
  if (!wanted.length) return text.includes(expect.trim().toLowerCase());
  const seen = new Set(words(response));
  const found = wanted.filter((w) => seen.has(w) || text.includes(w)).length;
  return found / wanted.length >= MATCH_SHARE;
}

/** Due: an IMPL fact with a way to show it, not confident enough or not seen true for `verifyAfter` turns, and not checked in that long. */
export function isDue(item: KnowledgeItem, turn: number, verifyAfter: number): boolean {
  if (item.layer !== 'IMPL' || !item.verification || !item.room) return false;
  if (item.lastVerifiedTurn !== null && turn - item.lastVerifiedTurn < verifyAfter) return false;
  return item.confidence < VERIFY_BELOW_CONFIDENCE || turn - item.lastSeenTrue >= verifyAfter;
}

/** The checks due now that have a snapshot of their room to start from, least confident first. */
export function dueChecks(state: KnowledgeState, turn: number): VerifyRequest['checks'] {
  return state.items
    .filter((item) => isDue(item, turn, state.settings.verifyAfter) && state.anchors[item.room!])
    .sort((a, b) => a.confidence - b.confidence)
    .slice(0, CHECKS_PER_TURN)
    .map((item) => ({ id: item.id, snapshot: state.anchors[item.room!].snapshot, verification: item.verification as Verification }));
}

/**
 * The engine's verdicts applied: passed → source engine-verified and seen true now; failed →
 * confidence halved. Every checked item records the turn, so it waits `verifyAfter` turns
 * before its next check (a refuted fact is not hammered every turn).
 */
export function applyVerdicts(
  items: readonly KnowledgeItem[],
  result: VerifyResult,
  turn: number,
): { items: KnowledgeItem[]; verified: number; refuted: number } {
  const verdicts = new Map(result.results.map((r) => [r.id, r.passed]));
  let verified = 0;
  let refuted = 0;
  const next = items.map((item) => {
    const passed = verdicts.get(item.id);
    if (passed === undefined) return item;
    if (passed) {
      verified++;
      return {
        ...item,
        source: 'engine-verified' as const,
        confidence: Math.max(item.confidence, VERIFY_BELOW_CONFIDENCE),
        lastSeenTrue: turn,
        lastVerifiedTurn: turn,
      };
    }
    refuted++;
    return { ...item, confidence: item.confidence * 0.5, lastVerifiedTurn: turn };
  });
  return { items: next, verified, refuted };
}
