/** The labelled states eval:oracle measures models on (eval/oracle-states.json), validated at load. */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { LabelledStateSchema } from '../bench/puzzles';

export const ORACLE_STATES_FILE = join(__dirname, 'oracle-states.json');

export const OracleStatesSchema = z.object({ description: z.string().min(1), states: z.array(LabelledStateSchema).min(1) });
export type OracleStates = z.infer<typeof OracleStatesSchema>;

export function loadOracleStates(file = ORACLE_STATES_FILE): OracleStates {
  return OracleStatesSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** A short name for a state's game, for per-game breakdowns: "zork1", "905", "lighthouse". */
export const gameName = (game: string): string => basename(game).replace(/\.z\d$/, '');
