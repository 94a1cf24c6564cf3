/**
 * Which objects the parser says are out of reach, asked the way a player would: "examine" each,
 * and compare with what "examine" on things surely elsewhere gets (see outOfReach).
 */
import type { GameSession } from './session';
import type { Template } from './templates';
import { nounPhrases } from './vocabulary';

/** The words of a reply, less the words of the phrase it answered about: "You can't see any X here!" reads the same for any X. */
function replyWithout(reply: string, phrase: string): string {
  const named = new Set(phrase.split(' '));
  return (reply.toLowerCase().match(/[a-z0-9']+/g) ?? []).filter((word) => !named.has(word)).join(' ');
}

/**
 * Of the objects only the last reply brought into scope, those the parser says are not here. A
 * reply can name things far away (Lost Pig's opening names a gnome and the story contest), and
 * each such object costs hundreds of candidates, more with the pairs (39% more tries on Lost
 * Pig's first state). "examine" on each is set beside "examine" on objects out of scope: the
 * reply most of those give, their phrase aside, is the parser's refusal, whatever the game's
 * wording (a few of them can still be in reach: Inform's compass directions are everywhere). Kept
 * when the story has no `examine` line (the template given) or the controls agree on no refusal, as the reply named them.
 */
export function outOfReach(session: GameSession, inScope: number[], namedByReply: number[], examine: Template | undefined): number[] {
  if (namedByReply.length === 0 || !examine) return [];
  const answer = (name: string) => session.afterTrying(`${examine.words[0]} ${name}`, (reply) => replyWithout(reply, name));
  const refusal = mostGiven(controlPhrases(session, inScope).map(answer));
  if (refusal === null) return [];
  const phrase = nounPhrases(session, namedByReply);
  return namedByReply.filter((id) => phrase.has(id) && answer(phrase.get(id)!) === refusal);
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
