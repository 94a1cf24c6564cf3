/**
 * Jericho's own run of a walkthrough (`traces/<game>.json` in the suite folder): the text after
 * reset, then per command what Jericho 3.3.1 printed and read (score, moves, location, inventory).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const TraceStepSchema = z.object({
  command: z.string(),
  observation: z.string(),
  score: z.number().int(),
  moves: z.number().int(),
  done: z.boolean(),
  victory: z.boolean(),
  /** null where Jericho could not read the location (its object table reader sees none). */
  location: z.object({ num: z.number().int(), name: z.string() }).nullable(),
  inventory: z.array(z.string()),
});
export type TraceStep = z.infer<typeof TraceStepSchema>;

export const TraceSchema = z.object({
  game: z.string(),
  intro: z.string(),
  steps: z.array(TraceStepSchema),
});
export type Trace = z.infer<typeof TraceSchema>;

export function readTrace(suiteDir: string, game: string): Trace {
  return TraceSchema.parse(JSON.parse(readFileSync(join(suiteDir, 'traces', `${game}.json`), 'utf8')));
}
