/**
 * LLM failures, classified once here so the activity boundary can decide: retryable (timeouts,
 * 429, 5xx, connection resets, an answer that fails its schema) or not (400/401/403/404, an
 * unknown model, a bad configuration).
 */
export type LlmErrorKind =
  'timeout' | 'rate-limited' | 'server' | 'connection' | 'bad-answer' | 'bad-request' | 'auth' | 'not-found' | 'config';

const RETRYABLE: ReadonlySet<LlmErrorKind> = new Set(['timeout', 'rate-limited', 'server', 'connection', 'bad-answer']);

export class LlmError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LlmError';
    this.retryable = RETRYABLE.has(kind);
  }
}

/** Map an HTTP status to a kind. */
export function kindForStatus(status: number): LlmErrorKind {
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not-found';
  return 'bad-request';
}

/** What a key looks like when an endpoint or proxy echoes it back: a bearer token, an `sk-` key. */
const KEY_PATTERNS = [/Bearer\s+[^\s"',;]+/gi, /\bsk-[A-Za-z0-9_-]{6,}/g];
const SECRET_VARIABLES = ['GRUE_LLM_API_KEY', 'OPENAI_API_KEY'];

/**
 * The text with the worker's API keys (and anything shaped like a key) blanked out: an error
 * message leaves the worker as an activity failure, into Temporal's history and the logs.
 */
export function scrubSecrets(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let out = text;
  for (const name of SECRET_VARIABLES) {
    const secret = env[name];
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  for (const pattern of KEY_PATTERNS)
    out = out.replace(pattern, (match) => (match.toLowerCase().startsWith('bearer') ? 'Bearer [redacted]' : '[redacted]'));
  return out;
}

/** The same failure with its message scrubbed, and without the cause and stack that may repeat it. */
export function scrubbedError(err: unknown): Error {
  if (err instanceof LlmError) {
    const clean = new LlmError(err.kind, scrubSecrets(err.message), err.status);
    clean.stack = `${clean.name}: ${clean.message}`;
    return clean;
  }
  const message = err instanceof Error ? err.message : String(err);
  const clean = new Error(scrubSecrets(message));
  clean.name = err instanceof Error ? err.name : 'Error';
  clean.stack = `${clean.name}: ${clean.message}`;
  return clean;
}
