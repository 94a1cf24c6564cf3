/** One line on stderr, prefixed the way every grue message is: for people, not for machines. */
export const log = (msg: string) => process.stderr.write(`grue: ${msg}\n`);
