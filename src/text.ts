/** Text helpers every floor may use: token estimates, clipping, byte lengths. Pure and workflow-safe. */

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
