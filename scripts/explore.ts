/**
 * An oracle-free campaign played in-process, without Temporal: the same turn pipeline
 * (deliberate → decide → step → learn) and the same learned state carried from one episode to
 * the next, for tuning the explorer in minutes rather than through the workflow.
 *
 *   npx tsx scripts/explore.ts <story> [--episodes 5] [--steps 50] [--assist probe] [--seed 1] [--quiet]
 *
 * Prints one line per move (why it was chosen) unless --quiet, one line per episode, and a JSON
 * summary last. It proves nothing about durability: the workflow tests do that.
 */
import { createGameActivities } from '../src/activities/game';
import { closeSharedProbePool } from '../src/engine/probePool';
import { createRng, seedFor } from '../src/agent/rng';
import { AgentState, initialState } from '../src/agent/state';
import { decide, deliberate, learn } from '../src/agent/turn';
import { learnedAfter } from '../src/agent/records';
import { initialMemory } from '../src/memory/runner';
import { AssistSchema, resolveEpisodeConfig } from '../src/schemas/episode';
import { freshLearned } from '../src/agent/learned';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

async function main(): Promise<void> {
  const game = process.argv[2];
  if (!game || game.startsWith('--'))
    throw new Error(
      'usage: npx tsx scripts/explore.ts <story> [--episodes N] [--steps S] [--assist probe|valid|none] [--seed K] [--quiet]',
    );
  const episodes = Number(option('episodes', '5'));
  const steps = Number(option('steps', '50'));
  const firstSeed = Number(option('seed', '1'));
  const assist = AssistSchema.parse(option('assist', 'probe'));
  const quiet = process.argv.includes('--quiet');
  const engine = createGameActivities();
  let learned = freshLearned();
  const finals: Array<{ episode: number; final: number; best: number; won: boolean; died: boolean; turns: number }> = [];
  for (let episode = 1; episode <= episodes; episode++) {
    const seed = firstSeed + episode - 1;
    const config = resolveEpisodeConfig({ game, seed, policy: 'oracle-free', assist, maxTurns: steps });
    const start = await engine.startGame({ game, seed, assist });
    let state: AgentState = initialState(start, learned, seedFor(seed, 'policy'), initialMemory(learned, config));
    let best = 0;
    while (state.turn < steps && !state.truth.done) {
      const rng = createRng(state.rngState);
      const decision = decide(state, config, rng, deliberate(state, config, rng), null);
      const step = await engine.stepGame({ game, storyMd5: state.story.md5, snapshot: state.snapshot, command: decision.command, assist });
      state = learn(state, config, decision, step, rng);
      best = Math.max(best, state.truth.score);
      if (!quiet) {
        const carried = state.truth.inventory.map((item) => item.name).join(', ');
        process.stdout.write(
          `${episode}.${state.turn} [${state.truth.location.name}; ${carried}] > ${decision.command} — ${decision.reason}: ${decision.why} | ${step.observation.slice(0, 80).replace(/\s+/g, ' ')}\n`,
        );
      }
    }
    finals.push({ episode, final: state.truth.score, best, won: state.truth.victory, died: state.truth.died, turns: state.turn });
    process.stdout.write(
      `episode ${episode}: final ${state.truth.score}, best ${best}, won ${state.truth.victory}, died ${state.truth.died}, ${state.turn} turns\n`,
    );
    learned = learnedAfter(state);
  }
  // Without this the script stays alive after its last episode (seen busy for half an hour, with
  // the probe threads still up), holding a core another run needs.
  await closeSharedProbePool();
  process.stdout.write(
    `${JSON.stringify({ game, assist, episodes, steps, finals: finals.map((f) => f.final), best: Math.max(...finals.map((f) => f.best)), won: finals.some((f) => f.won), deaths: finals.filter((f) => f.died).length })}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`explore: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
