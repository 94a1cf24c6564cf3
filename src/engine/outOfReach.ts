/**
 * Which objects the parser says are out of reach, asked the way a player would: "examine" each,
 * and compare with what "examine" on things surely elsewhere gets (see outOfReach).
 */
import { maskedOps, traceObjectOps } from './objectOps';
import type { GameSession } from './session';
import type { ExamineCheck, Template } from './templates';
import { nounPhrases } from './vocabulary';

/** The words of a reply, less the words of the phrase it answered about: "You can't see any X here!" reads the same for any X. */
function replyWithout(reply: string, phrase: string): string {
  const named = new Set(phrase.split(' '));
  return (reply.toLowerCase().match(/[a-z0-9']+/g) ?? []).filter((word) => !named.has(word)).join(' ');
}

/** The check for a state; null when the story has no `examine` line (the template given). */
export function examineCheck(session: GameSession, inScope: number[], examine: Template | undefined): ExamineCheck | null {
  if (!examine) return null;
  const verb = examine.words[0] as string;
  const replies = new Map<string, { text: string | null; operations: number }>();
  const examined = (phrase: string) => {
    let found = replies.get(phrase);
    if (!found) {
      const { result, ops } = traceObjectOps(session.mem, () => session.replyOrFault(`${verb} ${phrase}`));
      const { moves, sets, clears } = maskedOps(ops, session.mask);
      replies.set(phrase, (found = { text: result, operations: (moves.length + sets.length + clears.length) / 2 }));
    }
    return found;
  };
  const reply = (phrase: string) => examined(phrase).text;
  const answer = (phrase: string) => {
    const text = reply(phrase);
    return text === null ? null : replyWithout(text, phrase);
  };
  let refusal: string | null | undefined;
  const controls = () => controlPhrases(session, inScope).flatMap((phrase) => answer(phrase) ?? []);
  return {
    verb,
    reply,
    operations: (phrase) => examined(phrase).operations,
    answer,
    refusal: () => (refusal === undefined ? (refusal = mostGiven(controls())) : refusal),
  };
}

/**
 * Of the objects only the last reply brought into scope, those the parser says are not here. A
 * reply can name things far away (Lost Pig's opening names a gnome and the story contest), and
 * each such object costs hundreds of candidates, more with the pairs (39% more tries on Lost
 * Pig's first state). Each is examined and its answer set beside the parser's refusal. Kept when
 * the story has no `examine` line or the controls agree on no refusal, as the reply named them.
 */
export function outOfReach(session: GameSession, namedByReply: number[], check: ExamineCheck | null): number[] {
  if (namedByReply.length === 0 || !check) return [];
  const refusal = check.refusal();
  if (refusal === null) return [];
  const phrase = nounPhrases(session, namedByReply);
  return namedByReply.filter((id) => phrase.has(id) && check.answer(phrase.get(id)!) === refusal);
}

/** Out-of-scope objects examined to learn the parser's refusal. */
const CONTROLS = 8;

/** The reply given by more than half of the controls, or null. */
function mostGiven(replies: string[]): string | null {
  const counts = new Map<string, number>();
  for (const reply of replies) counts.set(reply, (counts.get(reply) ?? 0) + 1);
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best && replies.length >= 3 && best[1] * 2 > replies.length ? best[0] : null;
}

/**
 * The phrases of up to CONTROLS objects outside the location and the scope whose words name
 * nothing in scope, one from each stretch of the object table: the library's own objects (the
 * compass, which is in every room's scope) sit together at its start.
 */
function controlPhrases(session: GameSession, inScope: number[]): string[] {
  const { objects, mem } = session;
  const here = new Set(inScope);
  const words = new Set([...nounPhrases(session, inScope).values()].flatMap((p) => p.split(' ')));
  const usable = (id: number) => {
    const parent = objects.parent(mem, id);
    if (here.has(id) || parent === 0 || parent === session.locationId) return null;
    const phrase = nounPhrases(session, [id]).get(id);
    return phrase && phrase.split(' ').every((w) => !words.has(w)) ? phrase : null;
  };
  const out = new Set<string>();
  const stretch = Math.max(1, Math.floor(objects.count / CONTROLS));
  for (let from = 1; from <= objects.count && out.size < CONTROLS; from += stretch) {
    for (let id = from; id < from + stretch && id <= objects.count; id++) {
      const phrase = usable(id);
      if (phrase && !out.has(phrase)) {
        out.add(phrase);
        break;
      }
    }
  }
  return [...out];
}
