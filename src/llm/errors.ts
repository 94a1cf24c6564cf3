/**
 * LLM failures, classified once here so the activity boundary can decide: retryable (timeouts,
 * 429, 5xx, connection resets, an answer that fails its schema) or not (400/401/403/404, an
 * unknown model, a bad configuration).
 */
export type LlmErrorKind = 'timeout' | 'rate-limited' | 'server' | 'connection' | 'bad-answer' | 'bad-request' | 'auth' | 'not-found' | 'config';

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
