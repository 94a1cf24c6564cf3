/**
 * A campaign's finished episodes, kept as each one ends (bench:explore `--save FILE` with
 * `--episodes` above 1). Some games' valid-action searches take tens of seconds a state (afflicted,
 * anchor), so their ten episodes take longer than a work session, and a row stopped mid-game used
 * to play that game again from its first episode. The checkpoint holds the episodes' runs and what
 * they learned, so the next episode is played from it as the campaign would have played it (each
 * episode's seeds follow from its index). An episode of such a game can itself run half an hour,
 * so the one in play is kept too (`inPlay`, at most every KEEP_IN_PLAY_MS): the agent's state and
 * the game's snapshot after its last kept turn, from which it goes on as it would have. It is
 * removed once the game's run is saved.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { atomicWrite } from '../src/activities/files';
import { LearnedStateSchema } from '../src/agent/learned';
import { AgentStateSchema } from '../src/agent/state';
import { GameRunSchema, type RunSettings, RunSettingsSchema, sameSettings } from './exploreSaved';

/** An episode stopped between two turns: enough to go on from there as if it had not stopped. */
export const EpisodeInPlaySchema = z.object({
  /** Its index in the campaign (0 for the first). */
  index: z.number().int().nonnegative(),
  /** The agent's state after the last kept turn. */
  state: AgentStateSchema,
  /** The game's state then (GameSession.snapshot, base64). */
  snapshot: z.string().min(1),
  peak: z.number(),
  doomedTurns: z.number().int().nonnegative(),
  /** Seconds played so far: the episode's time goes on from them. */
  seconds: z.number().nonnegative(),
});
export type EpisodeInPlay = z.infer<typeof EpisodeInPlaySchema>;

/** The in-play episode is written at most this often: a turn of a slow game takes seconds, and its state tens of kilobytes. */
export const KEEP_IN_PLAY_MS = 60_000;

export const CampaignCheckpointSchema = z
  .object({
    settings: RunSettingsSchema,
    seed: z.number().int(),
    game: z.string(),
    /** The finished episodes' runs, in order. */
    runs: z.array(GameRunSchema),
    /** What they learned: the next episode starts from it. */
    learned: LearnedStateSchema,
    /** The episode after them, stopped mid-play. */
    inPlay: EpisodeInPlaySchema.optional(),
  })
  .refine((checkpoint) => checkpoint.runs.length > 0 || checkpoint.inPlay, 'a checkpoint holds a finished episode or one in play')
  .refine((checkpoint) => !checkpoint.inPlay || checkpoint.inPlay.index === checkpoint.runs.length, {
    message: 'the episode in play is the one after the finished ones',
  });
export type CampaignCheckpoint = z.infer<typeof CampaignCheckpointSchema>;

/** Where the checkpoint of one game's campaign lives, beside the save file. */
export const checkpointFile = (saveFile: string, seed: number, game: string) => `${saveFile}.campaigns/${seed}-${game}.json`;

/**
 * The checkpoint in `file`, or null when there is none. One of other settings, or one that does not
 * read, is an error naming the file: resuming from it would mix rows.
 */
export function readCheckpoint(file: string, settings: RunSettings): CampaignCheckpoint | null {
  if (!existsSync(file)) return null;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new Error(`${file} is not JSON; remove it to play that game's campaign from its first episode`);
  }
  const parsed = CampaignCheckpointSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${file} is not a campaign checkpoint: ${parsed.error.issues[0]?.message}; remove it to start over`);
  const found = parsed.data.settings;
  if (!sameSettings(found, settings))
    throw new Error(
      `${file} was played with ${JSON.stringify(found)}, not ${JSON.stringify(settings)}; use another --save file for these settings`,
    );
  return parsed.data;
}

/** Writes the checkpoint whole or not at all (a stop mid-write leaves the last one). */
export function writeCheckpoint(file: string, checkpoint: CampaignCheckpoint): void {
  atomicWrite(file, `${JSON.stringify(checkpoint)}\n`);
}

export function removeCheckpoint(file: string): void {
  rmSync(file, { force: true });
}
