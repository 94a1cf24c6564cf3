/** Text helpers every floor may use: the compass's short forms, token estimates, clipping, byte lengths, screening model text. Pure and workflow-safe. */

/** The compass words' short forms as parsers accept them ("ne": "northeast"): one table for the engine, memory and agent. */
export const COMPASS_SHORT_FORMS: Readonly<Record<string, string>> = {
  n: 'north',
  s: 'south',
  e: 'east',
  w: 'west',
  ne: 'northeast',
  nw: 'northwest',
  se: 'southeast',
  sw: 'southwest',
  u: 'up',
  d: 'down',
};

/** Rough tokens for English text (4 characters a token): enough to stay inside a small context. */
export const approxTokens = (text: string) => Math.ceil(text.length / 4);

/** The text, cut to `maxChars` with a marker when it is longer. */
export function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 20)} [...]`;
}

/** UTF-8 length of a string without Buffer, which workflow code cannot use. */
export function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) bytes += code > 0x7ff && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/** Consecutive words of a model's text that, found in its instructions, make it an echo of the prompt. */
const ECHO_WORDS = 6;

/**
 * Why a model's free text (a story, a scene, a description, a fact) does not read as words, or
 * null when it does. A small model under a grammar fills a string field with whatever keeps the
 * grammar happy: digits (`>1000000000…`), the JSON around it (`}, { 1000000…`), or the prompt's
 * own instructions. Such text is not memory. `instructions` are the prompt texts the model was
 * given (system prompt, tool and field descriptions), for the echo check.
 */
export function notWords(text: string, instructions: readonly string[] = []): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (/(\S)\1{5,}/u.test(trimmed)) return 'a run of one character';
  if (/[{}[\]]|"\s*:|^[,:]/u.test(trimmed)) return 'a JSON fragment';
  const visible = trimmed.replace(/\s/gu, '');
  const letters = visible.match(/\p{L}/gu)?.length ?? 0;
  if (letters * 2 < visible.length) return 'mostly not letters';
  const own = words(trimmed);
  const echoed = instructions.some((instruction) => {
    const said = ` ${words(instruction).join(' ')} `;
    if (own.length >= 3 && own.length < ECHO_WORDS) return said.includes(` ${own.join(' ')} `);
    for (let i = 0; i + ECHO_WORDS <= own.length; i++) if (said.includes(` ${own.slice(i, i + ECHO_WORDS).join(' ')} `)) return true;
    return false;
  });
  return echoed ? 'an echo of the prompt' : null;
}
