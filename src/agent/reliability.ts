/**
 * Oracle reliability per query type (seed 004 OracleReliability): a Beta(1,1) prior per type,
 * updated by outcomes the agent can observe. The estimate is the posterior mean, so it starts at
 * 0.5 and converges to the true rate.
 */
import { z } from 'zod';

const CounterSchema = z.object({ tried: z.number().int().nonnegative().default(0), helped: z.number().int().nonnegative().default(0) });

export const ReliabilitySchema = z.object({
  recommendation: CounterSchema.default({ tried: 0, helped: 0 }),
  goal: CounterSchema.default({ tried: 0, helped: 0 }),
  blocker: CounterSchema.default({ tried: 0, helped: 0 }),
  progress: CounterSchema.default({ tried: 0, helped: 0 }),
  /** A thoughtbox session's concluded action (seed 003), judged like a recommendation. */
  thought: CounterSchema.default({ tried: 0, helped: 0 }),
});
export type Reliability = z.infer<typeof ReliabilitySchema>;
export type QueryType = keyof Reliability;

export function freshReliability(): Reliability {
  return ReliabilitySchema.parse({});
}

export function accuracy(r: Reliability, type: QueryType): number {
  const c = r[type];
  return (c.helped + 1) / (c.tried + 2);
}

export function recordOutcome(r: Reliability, type: QueryType, helped: boolean): Reliability {
  const c = r[type];
  return { ...r, [type]: { tried: c.tried + 1, helped: c.helped + (helped ? 1 : 0) } };
}

export function reliabilitySummary(r: Reliability) {
  return {
    recommendationAccuracy: accuracy(r, 'recommendation'),
    goalAccuracy: accuracy(r, 'goal'),
    blockerAccuracy: accuracy(r, 'blocker'),
    progressAccuracy: accuracy(r, 'progress'),
    thoughtAccuracy: accuracy(r, 'thought'),
    totalRecommendations: r.recommendation.tried,
  };
}
