/**
 * npm run bench:thoughtbox -- [--seeds 1,2] [--max-thinking-iterations 20] [--states name,name] [--assist probe|none]
 * (the embedded model; with GRUE_LLM_PROVIDER=openai, the configured OpenAI-compatible endpoint)
 *
 * The thoughtbox (seed 003) on the hard turns of bench/puzzle-states.json (locked door + key,
 * dark room + lamp, get up before leaving, ...). Each state is reached through the real turn
 * pipeline (startGame, stepGame and learn over the state's prefix); then the full agent decides
 * the move twice with the same seed: without the thoughtbox (oracle + selector) and with a
 * required thoughtbox session (oracle + think × k + selector), all with the same activity code
 * the workflow runs. Solved = the decided command has the world effect of a labelled solving
 * command (the engine judges). Prints one JSON object:
 *   states, withThoughtbox {solved, rate, conclusionSolved}, without {solved, rate}, sessions,
 *   thoughtsPerSession, revisionShare, branchShare, invalidSteps, limitHits, outcomes,
 *   tokensPerSession, secondsPerSession, and every trial.
 * `conclusionSolved` counts sessions whose own conclusion solves the state, whether or not the
 * selector (which trusts conclusions by their learned reliability, 0.5 for a fresh agent) took it.
 * `--assist none` thinks as the `none` assist does: no list of actions, the conclusion a typed command.
 */
import { createGameActivities } from '../src/activities/game';
import { createOracleActivities } from '../src/activities/oracle';
import { createThoughtboxActivities } from '../src/activities/thoughtbox';
import { createRng, seedFor } from '../src/agent/rng';
import { AgentState, initialState } from '../src/agent/state';
import { openSession, runSession, ThoughtboxSession } from '../src/agent/thoughtbox';
import { analysisOf, decide, Deliberation, deliberate, learn, OracleAnswers } from '../src/agent/turn';
import { initialMemory } from '../src/memory/runner';
import { createProvider } from '../src/llm';
import { LocalProvider } from '../src/llm/localProvider';
import { DEFAULT_EMBEDDED_MODEL } from '../src/llm/models';
import { EpisodeConfig, resolveEpisodeConfig } from '../src/schemas/episode';
import { freshLearned } from '../src/agent/learned';
import { arg } from './harness';
import { effect, loadPuzzleStates, preparePuzzle, PuzzleState, storyFor } from './puzzles';

const log = (msg: string) => process.stderr.write(`bench:thoughtbox ${msg}\n`);
const round = (x: number) => Number(x.toFixed(3));
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

const game = createGameActivities();

/** The agent's state at the puzzle: the prefix played through the pipeline's perceive and learn stages. */
async function reach(state: PuzzleState, story: string, config: EpisodeConfig): Promise<AgentState> {
  const start = await game.startGame({ game: story, seed: 1, assist: 'probe' });
  let agent = initialState(start, freshLearned(), seedFor(config.seed, 'policy'), initialMemory(freshLearned(), config));
  for (const command of state.prefix) {
    const rng = createRng(agent.rngState);
    const decision = decide(agent, config, rng, { kind: 'decided', choice: { command, reason: 'novel', why: 'the puzzle prefix' } }, null);
    const step = await game.stepGame({ game: story, storyMd5: agent.story.md5, snapshot: agent.snapshot, command, assist: 'none' });
    agent = learn(agent, config, decision, { ...step, options: [] }, rng);
  }
  // The last step's valid actions, with their probes, as the agent sees them at the puzzle (none under `none`).
  if (config.assist === 'none') return agent;
  const here = await game.stepGame({ game: story, storyMd5: agent.story.md5, snapshot: agent.snapshot, command: 'look', assist: 'probe' });
  return { ...agent, options: here.options };
}

async function main(): Promise<void> {
  const seeds = arg('seeds', '1,2').split(',').map(Number);
  const maxThinkingIterations = Number(arg('max-thinking-iterations', '20'));
  const assist = arg('assist', 'probe');
  if (assist !== 'probe' && assist !== 'none') throw new Error(`--assist takes probe or none, not "${assist}"`);
  const only = arg('states', '').split(',').filter(Boolean);
  const all = loadPuzzleStates().states.filter((s) => !only.length || only.includes(s.name));
  const states = all.filter((s) => storyFor(s.game));
  if (states.length < all.length)
    log(`${all.length - states.length} states skipped: their story files are missing (see ../shared/games/README.md)`);
  // Generous: the benchmark measures what the model does, and shares two cores with whatever else runs.
  const provider =
    process.env.GRUE_LLM_PROVIDER === 'openai'
      ? createProvider()
      : new LocalProvider({ modelId: DEFAULT_EMBEDDED_MODEL, timeoutMs: 600_000 });
  const oracle = createOracleActivities(() => provider);
  const thinker = createThoughtboxActivities(() => provider);

  const trials: Record<string, unknown>[] = [];
  const sessions: (ThoughtboxSession & { seconds: number })[] = [];
  let solvedWith = 0;
  let solvedWithout = 0;
  let conclusionSolved = 0;
  try {
    for (const puzzle of states) {
      const story = storyFor(puzzle.game)!;
      const prepared = preparePuzzle(puzzle);
      for (const seed of seeds) {
        const config = resolveEpisodeConfig({
          game: story,
          seed,
          policy: 'full',
          assist,
          thoughtbox: 'always',
          maxThinkingIterations,
          compactEvery: 0,
        });
        const agent = await reach(puzzle, story, config);
        const deliberation = deliberate(agent, config, createRng(agent.rngState));
        const answers = deliberation.kind === 'ask' ? await ask(oracle, deliberation) : null;
        const solves = (command: string) => prepared.usefulEffects.has(effect(prepared.session, command));
        const without = decide(agent, config, createRng(agent.rngState), deliberation, answers, null);

        let session: (ThoughtboxSession & { seconds: number }) | null = null;
        if (deliberation.kind === 'ask' && answers && answers !== 'unreachable') {
          const started = Date.now();
          const thinking = await runSession(
            openSession(agent.turn, 'bench: always', true, maxThinkingIterations),
            deliberation.request,
            analysisOf(answers),
            assist === 'none' ? [] : agent.options,
            async (request) => (await unlessFailed(`think ${puzzle.name}`, () => thinker.think(request))) ?? 'unreachable',
          );
          session = { ...thinking, seconds: (Date.now() - started) / 1000 };
          sessions.push(session);
          if (session.action && solves(session.action)) conclusionSolved++;
        }
        const withThinking = decide(agent, config, createRng(agent.rngState), deliberation, answers, session);
        const trial = {
          state: puzzle.name,
          seed,
          without: { command: without.command, reason: without.reason, solved: solves(without.command) },
          with: { command: withThinking.command, reason: withThinking.reason, solved: solves(withThinking.command) },
          session: session && {
            outcome: session.outcome,
            action: session.action,
            thoughts: session.thoughts.length,
            invalid: session.invalidSteps,
            refused: session.exchanges.flatMap((e) => (e.result.error ? [e.result.error] : [])),
            seconds: round(session.seconds),
            chain: session.thoughts.map(
              (t) =>
                `${t.number}${t.kind === 'forward' ? '' : ` (${t.kind}${t.revises ? ` of ${t.revises}` : ''}${t.branchId ? ` ${t.branchId}` : ''})`}: ${t.text}`,
            ),
          },
        };
        solvedWithout += trial.without.solved ? 1 : 0;
        solvedWith += trial.with.solved ? 1 : 0;
        trials.push(trial);
        log(
          `${puzzle.name} seed ${seed}: without "${trial.without.command}" ${trial.without.solved ? 'solved' : 'no'}; with "${trial.with.command}" ${trial.with.solved ? 'solved' : 'no'} (${session ? `${session.outcome}, ${session.thoughts.length} thoughts, ${round(session.seconds)} s` : 'no session'})`,
        );
      }
    }
  } finally {
    await provider.close();
  }

  const thoughts = sessions.flatMap((s) => s.thoughts);
  const outcomes: Record<string, number> = {};
  for (const s of sessions) outcomes[s.outcome] = (outcomes[s.outcome] ?? 0) + 1;
  const n = trials.length;
  process.stdout.write(
    JSON.stringify(
      {
        model: `${provider.name}:${provider.model}`,
        states: states.length,
        seeds,
        trials: n,
        withThoughtbox: { solved: solvedWith, rate: round(solvedWith / Math.max(n, 1)), conclusionSolved },
        without: { solved: solvedWithout, rate: round(solvedWithout / Math.max(n, 1)) },
        sessions: sessions.length,
        thoughtsPerSession: round(thoughts.length / Math.max(sessions.length, 1)),
        revisionShare: round(thoughts.filter((t) => t.kind === 'revision').length / Math.max(thoughts.length, 1)),
        branchShare: round(thoughts.filter((t) => t.kind === 'branch').length / Math.max(thoughts.length, 1)),
        invalidSteps: sessions.reduce((a, s) => a + s.invalidSteps, 0),
        limitHits: outcomes.limit ?? 0,
        outcomes,
        tokensPerSession: round(mean(sessions.map((s) => s.usage.promptTokens + s.usage.completionTokens))),
        secondsPerSession: round(mean(sessions.map((s) => s.seconds))),
        maxThinkingIterations,
        trialsDetail: trials,
      },
      null,
      2,
    ) + '\n',
  );
}

/** As the workflow does after an activity's retries: a failed LLM call is an outcome, not the end of the benchmark. */
async function unlessFailed<T>(what: string, call: () => Promise<T>, attempts = 2): Promise<T | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      log(`${what}: attempt ${attempt} failed: ${err instanceof Error ? err.message : String(err)}`);
      if (attempt >= attempts) return null;
    }
  }
}

async function ask(
  oracle: ReturnType<typeof createOracleActivities>,
  deliberation: Extract<Deliberation, { kind: 'ask' }>,
): Promise<OracleAnswers | 'unreachable'> {
  const turn = await unlessFailed('analyseTurn', () => oracle.analyseTurn(deliberation.request));
  if (!turn) return 'unreachable';
  const failure = deliberation.failure ? await unlessFailed('analyseFailure', () => oracle.analyseFailure(deliberation.failure!)) : null;
  return { turn, failure };
}

main().then(
  // The JSON is printed; handles the model host or the game activities leave open must not keep the bench running.
  () => process.exit(0),
  (err) => {
    log(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
