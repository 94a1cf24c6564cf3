/**
 * LLM failures, classified once here so the activity boundary can decide: retryable (timeouts,
 * 429, 5xx, connection resets, an answer that fails its schema) or not (400/401/403/404, a
 * request the server refused as invalid whatever its status, an unknown model, a bad
 * configuration). Each kind is also named by one of four words (see src/schemas/llmFailure.ts).
 */
import { LlmFailureKind } from '../schemas/llmFailure';

export type LlmErrorKind =
  'timeout' | 'rate-limited' | 'server' | 'connection' | 'bad-answer' | 'bad-request' | 'refused' | 'auth' | 'not-found' | 'config';

const RETRYABLE: ReadonlySet<LlmErrorKind> = new Set(['timeout', 'rate-limited', 'server', 'connection', 'bad-answer']);

const WORDS: Record<LlmErrorKind, LlmFailureKind> = {
  timeout: 'timed out',
  'rate-limited': 'unreachable',
  server: 'unreachable',
  connection: 'unreachable',
  'bad-answer': 'invalid answer',
  'bad-request': 'refused',
  refused: 'refused',
  auth: 'refused',
  'not-found': 'refused',
  config: 'refused',
};

export class LlmError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status?: number,
    /** Overrides the kind's rule: an answer still invalid after its repair is not worth the same request again. */
    retryable?: boolean,
  ) {
    super(message);
    this.name = 'LlmError';
    this.retryable = retryable ?? RETRYABLE.has(kind);
  }

  /** unreachable, refused, invalid answer or timed out. */
  get failure(): LlmFailureKind {
    return WORDS[this.kind];
  }
}

/**
 * What a server says when it refuses a request as invalid, whatever status it gives: a 500 from a
 * request validator (pydantic's "validation error", "Input should be ...") is not a server that
 * might answer next time.
 */
const VALIDATION_MESSAGE = /validation error|input should be|field required|extra inputs are not permitted|not supported|unsupported/i;

/** Map an HTTP status (and the server's message) to a kind. */
export function kindForStatus(status: number, message = ''): LlmErrorKind {
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return VALIDATION_MESSAGE.test(message) ? 'refused' : 'server';
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
    const clean = new LlmError(err.kind, scrubSecrets(err.message), err.status, err.retryable);
    clean.stack = `${clean.name}: ${clean.message}`;
    return clean;
  }
  const message = err instanceof Error ? err.message : String(err);
  const clean = new Error(scrubSecrets(message));
  clean.name = err instanceof Error ? err.name : 'Error';
  clean.stack = `${clean.name}: ${clean.message}`;
  return clean;
}
