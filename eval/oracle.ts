/**
 * npm run eval:oracle [-- --models gemma3-270m,qwen2.5-coder-0.5b] [--variant enum,free,index]
 *                        [--shape full,first,only] [--states N] [--threads 2] [--details] [--out FILE]
 *
 * Measures candidate oracle models on the labelled states in eval/oracle-states.json: how often
 * the answer is valid JSON in its schema, how often the recommended action makes progress (the
 * labelled command, or a valid action with the same world effect) with a 95% Wilson interval,
 * latency, and speed. `--variant` and `--shape` ask for the recommendation in other ways than
 * production does (eval/oracleVariants.ts); each model is loaded once for all of them.
 * `--states N` takes N states spread evenly over the file. Prints one JSON object on stdout;
 * progress goes to stderr.
 */
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { preparePuzzle, storyFor } from '../bench/puzzles';
import { beliefsContext, freshBeliefs } from '../src/agent/beliefs';
import { LlmError } from '../src/llm/errors';
import { LocalProvider } from '../src/llm/localProvider';
import { ensureModel } from '../src/llm/models';
import { gameName, loadOracleStates } from './oracleStates';
import { AnswerFormSchema, AnswerShapeSchema, variantQuery } from './oracleVariants';
import { wilsonInterval } from './wilson';

const list = <T extends z.ZodType<unknown, string>>(item: T) =>
  z
    .string()
    .transform((s) => s.split(',').filter(Boolean))
    .pipe(z.array(item).min(1));

const ArgsSchema = z.object({
  models: list(z.string().min(1)).default(['gemma3-270m', 'smollm2-135m', 'qwen2.5-coder-0.5b', 'qwen2.5-coder-1.5b']),
  variant: list(AnswerFormSchema).default(['enum']),
  shape: list(AnswerShapeSchema).default(['full']),
  states: z.coerce.number().int().min(1).optional(),
  /** llama.cpp threads: 2 fits the machine alone; 1 loses less when other processes take a core (its threads wait for each other). */
  threads: z.coerce.number().int().min(1).max(64).default(2),
  details: z.boolean().default(false),
  /** Also write the report here, updated after each model and variant, and log each answer beside it (FILE.answers.jsonl) so that the same command resumes a killed run. */
  out: z.string().min(1).optional(),
});

function parseArgs(argv: string[]): z.infer<typeof ArgsSchema> {
  const raw: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (name === 'details') raw.details = true;
    else if (argv[i].startsWith('--') && argv[i + 1] !== undefined) raw[name] = argv[++i];
    else throw new Error(`eval:oracle: unexpected argument "${argv[i]}" (see the usage at the top of eval/oracle.ts)`);
  }
  const parsed = ArgsSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`eval:oracle: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
const round = (x: number, digits = 3) => Number(x.toFixed(digits));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** `count` indices spread evenly over `total`, so a subset still covers every game of the file. */
function spread(total: number, count: number): number[] {
  if (count >= total) return [...Array(total).keys()];
  return Array.from({ length: count }, (_, i) => Math.floor((i * total) / count));
}

const AnswerSchema = z.object({
  state: z.number().int(),
  game: z.string(),
  valid: z.boolean(),
  /** Why there is no answer: the LlmError kind (bad-answer = not JSON in the schema, timeout, server). */
  error: z.string().nullable(),
  recommended: z.string().nullable(),
  useful: z.boolean(),
  latencyMs: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  promptMs: z.number(),
  generationMs: z.number(),
  promptTokensEvaluated: z.number(),
});
type Answer = z.infer<typeof AnswerSchema>;

/** One model answer as --out's answer log keeps it, so a killed run resumes without asking again. */
const LoggedAnswerSchema = AnswerSchema.extend({ model: z.string(), variant: z.string(), shape: z.string(), threads: z.number().int() });
type LoggedAnswer = z.infer<typeof LoggedAnswerSchema>;
const answerKey = (a: Pick<LoggedAnswer, 'model' | 'variant' | 'shape' | 'threads' | 'state'>) =>
  `${a.model}|${a.variant}|${a.shape}|${a.threads}|${a.state}`;

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function loadAnswerLog(file: string): Map<string, LoggedAnswer> {
  const log = new Map<string, LoggedAnswer>();
  if (!existsSync(file)) return log;
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    // A line cut short by a kill is dropped: that answer is asked again.
    const parsed = LoggedAnswerSchema.safeParse(jsonOrNull(line));
    if (parsed.success) log.set(answerKey(parsed.data), parsed.data);
  }
  return log;
}

function summary(answers: Answer[]) {
  const useful = answers.filter((a) => a.useful).length;
  const [lo, hi] = wilsonInterval(useful, answers.length);
  const valid = answers.filter((a) => a.valid);
  return {
    states: answers.length,
    useful,
    usefulRate: round(useful / answers.length),
    usefulCi95: [round(lo), round(hi)],
    jsonValidRate: round(valid.length / answers.length),
    errors: Object.fromEntries(
      [...new Set(answers.flatMap((a) => (a.error ? [a.error] : [])))].map((kind) => [
        kind,
        answers.filter((a) => a.error === kind).length,
      ]),
    ),
    latencyMsMedian: Math.round(median(answers.map((a) => a.latencyMs))),
    promptTokensMedian: median(valid.map((a) => a.promptTokensEvaluated)),
    completionTokensMedian: median(valid.map((a) => a.completionTokens)),
    // Speeds from the host's timing: reading the prompt (chat template included) until the first answer token, then writing the answer.
    promptTokensPerSecond: round(sum(valid.map((a) => a.promptTokensEvaluated)) / (sum(valid.map((a) => a.promptMs)) / 1000 || 1), 1),
    completionTokensPerSecond: round(sum(valid.map((a) => a.completionTokens)) / (sum(valid.map((a) => a.generationMs)) / 1000 || 1), 1),
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const { states: all } = loadOracleStates();
  const available = all.map((s, index) => ({ s, index })).filter(({ s }) => storyFor(s.game));
  const chosen = args.states ? spread(available.length, args.states).map((i) => available[i]) : available;
  process.stderr.write(`eval:oracle ${chosen.length} of ${all.length} states (${all.length - available.length} need ../shared/games)\n`);
  // Prepare each state once: observation, valid actions, and the commands that count as progress.
  const prepared = chosen.map(({ s, index }) => {
    const p = preparePuzzle(s);
    return {
      index,
      game: gameName(s.game),
      s,
      observation: p.observation,
      last: p.lastAction,
      validActions: p.validActions.map((v) => v.command),
      usefulCommands: p.usefulCommands,
      truth: p.session.groundTruth(),
    };
  });
  const games = [...new Set(prepared.map((p) => p.game))];
  // What picking a valid action at random, or always the first listed one, would score, for scale.
  const randomRate = (ps: typeof prepared) => sum(ps.map((p) => p.usefulCommands.size / Math.max(p.validActions.length, 1))) / ps.length;
  const firstRate = (ps: typeof prepared) => ps.filter((p) => p.usefulCommands.has(p.validActions[0])).length / ps.length;
  const report = (runs: unknown[]) => ({
    date: new Date().toISOString().slice(0, 10),
    threads: args.threads,
    states: prepared.length,
    statesByGame: Object.fromEntries(games.map((g) => [g, prepared.filter((p) => p.game === g).length])),
    tokensPerSecond:
      'promptTokensPerSecond = prompt tokens evaluated (chat template included) / seconds until the first answer token; completionTokensPerSecond = answer tokens / seconds after the first answer token',
    baselines: {
      randomUsefulRate: round(randomRate(prepared)),
      firstListedUsefulRate: round(firstRate(prepared)),
      randomPerGame: Object.fromEntries(games.map((g) => [g, round(randomRate(prepared.filter((p) => p.game === g)))])),
    },
    runs,
  });
  // A long run keeps what it has measured: the report so far replaces --out after each model and variant.
  const save = (runs: unknown[]) => {
    if (!args.out) return;
    writeFileSync(`${args.out}.partial`, `${JSON.stringify(report(runs), null, 1)}\n`);
    renameSync(`${args.out}.partial`, args.out);
  };
  // With --out, every answer is also appended to an answer log: a killed run started again with the same arguments resumes.
  const answerLogFile = args.out ? `${args.out}.answers.jsonl` : null;
  const answerLog = answerLogFile ? loadAnswerLog(answerLogFile) : new Map<string, LoggedAnswer>();
  const runs: unknown[] = [];
  for (const model of args.models) {
    await ensureModel(model, (m) => process.stderr.write(`${m}\n`));
    // A generous timeout: on a shared machine a slow answer is contention, not an invalid answer.
    const provider = new LocalProvider({ modelId: model, threads: args.threads, timeoutMs: 600_000 });
    for (const variant of args.variant) {
      for (const shape of args.shape) {
        const answers: Answer[] = [];
        for (const [i, p] of prepared.entries()) {
          const logged = answerLog.get(answerKey({ model, variant, shape, threads: args.threads, state: p.index }));
          if (logged) {
            // Usefulness is judged again: the labels may have changed since the answer was given.
            answers.push({ ...logged, useful: logged.recommended !== null && p.usefulCommands.has(logged.recommended) });
            continue;
          }
          const beliefs = {
            ...freshBeliefs(),
            location: p.truth.location.name,
            inventory: p.truth.inventory.map((x) => x.name),
            actionHistory: p.s.prefix.slice(-8),
          };
          const request = {
            observation: p.observation,
            lastAction: p.last,
            validActions: p.validActions,
            context: [{ title: "AGENT'S BELIEFS", text: beliefsContext(beliefs) }],
            seed: 0,
          };
          const query = variantQuery(request, provider, variant, shape);
          const t0 = performance.now();
          const answer: Answer = {
            state: p.index,
            game: p.game,
            valid: false,
            error: null,
            recommended: null,
            useful: false,
            latencyMs: 0,
            promptTokens: 0,
            completionTokens: 0,
            promptMs: 0,
            generationMs: 0,
            promptTokensEvaluated: 0,
          };
          try {
            const r = await provider.complete({ ...query, temperature: 0, seed: 0 });
            const recommended = query.recommendation(r.value);
            Object.assign(answer, {
              valid: true,
              recommended,
              useful: recommended !== null && p.usefulCommands.has(recommended),
              ...r.usage,
              ...r.timing,
            });
          } catch (err) {
            answer.error = err instanceof LlmError ? err.kind : 'other';
            process.stderr.write(`  ${model} ${variant}/${shape} state ${p.index}: ${(err as Error).message.slice(0, 160)}\n`);
          }
          answer.latencyMs = Math.round(performance.now() - t0);
          answers.push(answer);
          if (answerLogFile)
            appendFileSync(answerLogFile, `${JSON.stringify({ model, variant, shape, threads: args.threads, ...answer })}\n`);
          process.stderr.write(
            `eval:oracle ${model} ${variant}/${shape} ${i + 1}/${prepared.length} ${answer.useful ? 'useful' : '-'} ${JSON.stringify(answer.recommended)} ${answer.latencyMs} ms\n`,
          );
        }
        const firstListed = answers.filter((a, i) => a.recommended !== null && a.recommended === prepared[i].validActions[0]).length;
        runs.push({
          model,
          variant,
          shape,
          ...summary(answers),
          // How often the answer is the first action listed: a sign of position bias rather than reading.
          firstListedRate: round(firstListed / answers.length),
          distinctRecommendations: new Set(answers.map((a) => a.recommended)).size,
          perGame: Object.fromEntries(
            games.map((g) => {
              const mine = answers.filter((a) => a.game === g);
              const useful = mine.filter((a) => a.useful).length;
              return [
                g,
                {
                  states: mine.length,
                  useful,
                  usefulRate: round(useful / mine.length),
                  usefulCi95: wilsonInterval(useful, mine.length).map((x) => round(x)),
                },
              ];
            }),
          ),
          ...(args.details
            ? {
                answers: answers.map(({ state, game, recommended, useful, valid, latencyMs }) => ({
                  state,
                  game,
                  recommended,
                  useful,
                  valid,
                  latencyMs,
                })),
              }
            : {}),
        });
        save(runs);
      }
    }
    await provider.close();
  }
  console.log(JSON.stringify(report(runs), null, 1));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
