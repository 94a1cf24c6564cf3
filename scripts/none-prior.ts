/**
 * npx tsx scripts/none-prior.ts [--games all|a,b] [--exclude a,b] [--seeds 0,1] [--steps 150] [--from FILE] [--out FILE]
 * npx tsx scripts/none-prior.ts --merge A.json,B.json [--out FILE]
 *
 * Learns the `none` explorer's prior (src/agent/data/none-verb-prior.json): the oracle-free
 * explorer plays each game of the suite (bench/explore.ts, in-process) while the counts grow, and
 * for every command it makes counts its shape ("open $", "put $ in $", "north"): tried, credited
 * with progress (src/agent/shapeCredit.ts: what the step made, and a share of what the next steps
 * made), killed the player. Each game is
 * played with every shape's worth drawn from what the counts say so far (Thompson sampling), so
 * promising shapes are tried more and seldom-tried ones still get tries. No walkthrough is read.
 * `--exclude` leaves games out, for measuring the explorer on games the prior never saw.
 * `--merge` sums the counts of priors learned apart (each half of the suite learned on its own, so
 * each half's prior can be measured on the games it never saw) into one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { arg } from '../bench/cli';
import { playGame, readSuite } from '../bench/explore';
import { policyContextOf } from '../src/agent/policyContext';
import { createRng } from '../src/agent/rng';
import type { AgentState } from '../src/agent/state';
import { CREDIT_RULE, ShapeCredit } from '../src/agent/shapeCredit';
import { ShapeCounts, VerbPrior, VerbPriorSchema } from '../src/agent/verbPrior';
import { resolveEpisodeConfig } from '../src/schemas/episode';

const log = (msg: string) => process.stderr.write(`none-prior ${msg}\n`);

/** A normal draw around the Beta(gains + 1, misses + 1) mean with its spread: enough for ordering shapes. */
function draw(counts: ShapeCounts | undefined, random: () => number): number {
  const tries = counts?.tries ?? 0;
  const mean = ((counts?.gains ?? 0) + 1) / (tries + 2);
  const spread = Math.sqrt((mean * (1 - mean)) / (tries + 3));
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Math.max(0, mean + spread * normal - (3 * (counts?.deaths ?? 0)) / (tries + 2));
}

/** The shape the explorer built `command` from in `state`. */
function shapeOf(state: AgentState, command: string): string | null {
  const ctx = policyContextOf(state, resolveEpisodeConfig({ game: 'x', assist: 'none', policy: 'oracle-free' }), createRng(1));
  return ctx.typed?.find((c) => c.command === command)?.shape ?? null;
}

function readPrior(file: string): VerbPrior {
  return VerbPriorSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

function write(out: string, prior: VerbPrior): void {
  const shapes = Object.fromEntries(Object.entries(prior.shapes).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(out, `${JSON.stringify({ ...prior, shapes }, null, 1)}\n`);
  log(`${Object.keys(shapes).length} shapes from ${prior.learnedFrom.length} games → ${out}`);
}

function merge(files: string[], out: string): void {
  const priors = files.map(readPrior);
  const shapes: Record<string, ShapeCounts> = {};
  for (const prior of priors)
    for (const [shape, counts] of Object.entries(prior.shapes)) {
      const sum = (shapes[shape] ??= { tries: 0, gains: 0, deaths: 0 });
      sum.tries += counts.tries;
      sum.gains += counts.gains;
      sum.deaths += counts.deaths;
    }
  const about = `The sum of ${priors.length} priors' counts, each learned by scripts/none-prior.ts on its own games: ${priors.map((p, i) => `(${i + 1}) ${p.about}`).join(' ')}`;
  write(out, { about, learnedFrom: [...new Set(priors.flatMap((p) => p.learnedFrom))], shapes });
}

function main(): void {
  const outDefault = join(__dirname, '../src/agent/data/none-verb-prior.json');
  const merged = arg('merge', '');
  if (merged) return merge(merged.split(','), resolve(arg('out', outDefault)));
  const suiteDir = resolve(arg('suite', join(__dirname, '../../shared/jericho')));
  const suite = readSuite(suiteDir);
  const wanted = arg('games', 'all');
  const excluded = new Set(arg('exclude', '').split(',').filter(Boolean));
  const games = suite.filter((g) => (wanted === 'all' || wanted.split(',').includes(g.game)) && !excluded.has(g.game));
  const seeds = arg('seeds', '0,1').split(',').map(Number);
  const steps = Number(arg('steps', '150'));
  const out = resolve(arg('out', outDefault));
  // --from: counts of an earlier round to go on from (a second round samples from what the first learned).
  const from = arg('from', '');
  const earlier = from ? readPrior(from) : null;
  const shapes: Record<string, ShapeCounts> = structuredClone(earlier?.shapes ?? {});
  const random = createRng(12345).next;
  for (const seed of seeds) {
    for (const entry of games) {
      const items = new Set<number>();
      const nouns = new Set<string>();
      const credit = new ShapeCredit(shapes);
      const run = playGame(suiteDir, entry, {
        steps,
        seed,
        worth: (names) => Object.fromEntries(names.map((name) => [name, draw(shapes[name], random)])),
        onTurn: (before, after) => {
          before.truth.inventory.forEach((item) => items.add(item.id));
          before.nouns.forEach((noun) => nouns.add(noun));
          const newItem = after.truth.inventory.some((item) => !items.has(item.id));
          credit.step({
            shape: shapeOf(before, after.lastCommand!),
            progress: after.truth.score > before.truth.score || after.places.length > before.places.length || newItem,
            newNouns: after.nouns.some((noun) => !nouns.has(noun)),
            died: after.truth.died,
          });
        },
      });
      log(`seed ${seed} ${run.game}: ${run.best}/${run.maxScore}, ${run.places} places`);
    }
  }
  write(out, {
    about:
      (earlier ? `${earlier.about} Then: ` : '') +
      `Learned by scripts/none-prior.ts: the oracle-free explorer at --assist none played each listed game ${seeds.length} time(s) ` +
      `(seeds ${seeds.join(',')}), ${steps} steps each, shapes' worth drawn from the counts so far (Thompson sampling); ` +
      `${CREDIT_RULE}. No walkthrough was read.`,
    learnedFrom: [...new Set([...(earlier?.learnedFrom ?? []), ...games.map((g) => g.game)])],
    shapes,
  });
}

main();
