/**
 * npm run eval:oracle [-- --models gemma3-270m,smollm2-135m]
 *
 * Measures candidate oracle models on the labelled states in eval/oracle-states.json: how often
 * the answer is valid JSON in its schema, how often the recommended action makes progress (the
 * labelled command, or one with the same world effect), and latency. Prints one JSON object.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { LabelledStateSchema, preparePuzzle, storyFor } from '../bench/puzzles';
import { createOracleActivities } from '../src/activities/oracle';
import { beliefsContext, freshBeliefs } from '../src/agent/beliefs';
import { LocalProvider } from '../src/llm/localProvider';
import { ensureModel } from '../src/llm/models';

const StatesSchema = z.object({ states: z.array(LabelledStateSchema) });

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;

async function main() {
  const file = join(__dirname, 'oracle-states.json');
  const { states } = StatesSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const models = arg('models', 'gemma3-270m,smollm2-135m').split(',').filter((m) => m && m !== 'none');
  const usable = states.filter((s) => storyFor(s.game));
  process.stderr.write(`eval:oracle ${usable.length}/${states.length} states available (the rest need ../shared/games)\n`);
  // Prepare each state once: observation, valid actions, and the effects that count as progress.
  const prepared = usable.map((s) => {
    const p = preparePuzzle(s);
    return { s, observation: p.observation, last: p.lastAction, validActions: p.validActions.map((v) => v.command), usefulCommands: p.usefulCommands, truth: p.session.groundTruth() };
  });
  const rows = [];
  for (const id of models) {
    await ensureModel(id, (m) => process.stderr.write(`${m}\n`));
    const provider = new LocalProvider({ modelId: id });
    const oracle = createOracleActivities(() => provider);
    let valid = 0;
    let useful = 0;
    const latency: number[] = [];
    const tokens: number[] = [];
    for (const [i, p] of prepared.entries()) {
      const beliefs = { ...freshBeliefs(), location: p.truth.location.name, inventory: p.truth.inventory.map((x) => x.name), actionHistory: p.s.prefix.slice(-8) };
      const t0 = performance.now();
      try {
        const r = await oracle.analyseTurn({ observation: p.observation, lastAction: p.last, validActions: p.validActions, context: [{ title: "AGENT'S BELIEFS", text: beliefsContext(beliefs) }], seed: 0 });
        valid++;
        if (p.usefulCommands.has(r.answer.recommended_action)) useful++;
        tokens.push(r.usage.promptTokens + r.usage.completionTokens);
      } catch (err) {
        process.stderr.write(`  ${id} state ${i}: ${(err as Error).message.slice(0, 120)}\n`);
      }
      latency.push(performance.now() - t0);
      process.stderr.write(`eval:oracle ${id} ${i + 1}/${prepared.length}\n`);
    }
    await provider.close();
    rows.push({
      model: id,
      states: prepared.length,
      jsonValidRate: Number((valid / prepared.length).toFixed(3)),
      usefulRate: Number((useful / prepared.length).toFixed(3)),
      latencyMsMedian: Math.round(median(latency)),
      tokensPerCallMedian: median(tokens),
    });
  }
  // What picking a valid action at random would score, for scale.
  const randomBaseline = prepared.reduce((sum, p) => sum + p.usefulCommands.size / Math.max(p.validActions.length, 1), 0) / prepared.length;
  console.log(JSON.stringify({ states: prepared.length, randomBaselineUsefulRate: Number(randomBaseline.toFixed(3)), models: rows }, null, 1));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
