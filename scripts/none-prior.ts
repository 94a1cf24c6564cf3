/**
 * npx tsx scripts/none-prior.ts [--games all|a,b] [--exclude a,b] [--seeds 0,1] [--steps 150] [--from FILE] [--out FILE]
 *
 * Learns the `none` explorer's prior (src/agent/data/none-verb-prior.json): the oracle-free
 * explorer plays each game of the suite (bench/explore.ts, in-process) while the counts grow, and
 * for every command it makes counts its shape ("open $", "put $ in $", "north"): tried, made
 * progress (a score, or a room or an item new to the episode), killed the player. Each game is
 * played with every shape's worth drawn from what the counts say so far (Thompson sampling), so
 * promising shapes are tried more and seldom-tried ones still get tries. No walkthrough is read.
 * `--exclude` leaves games out, for measuring the explorer on games the prior never saw.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { arg } from '../bench/cli';
import { playGame, readSuite } from '../bench/explore';
import { policyContextOf } from '../src/agent/policyContext';
import { createRng } from '../src/agent/rng';
import type { AgentState } from '../src/agent/state';
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

function main(): void {
  const suiteDir = resolve(arg('suite', join(__dirname, '../../shared/jericho')));
  const suite = readSuite(suiteDir);
  const wanted = arg('games', 'all');
  const excluded = new Set(arg('exclude', '').split(',').filter(Boolean));
  const games = suite.filter((g) => (wanted === 'all' || wanted.split(',').includes(g.game)) && !excluded.has(g.game));
  const seeds = arg('seeds', '0,1').split(',').map(Number);
  const steps = Number(arg('steps', '150'));
  const out = resolve(arg('out', join(__dirname, '../src/agent/data/none-verb-prior.json')));
  // --from: counts of an earlier round to go on from (a second round samples from what the first learned).
  const from = arg('from', '');
  const earlier = from ? VerbPriorSchema.parse(JSON.parse(readFileSync(from, 'utf8'))) : null;
  const shapes: Record<string, ShapeCounts> = structuredClone(earlier?.shapes ?? {});
  const random = createRng(12345).next;
  for (const seed of seeds) {
    for (const entry of games) {
      const items = new Set<number>();
      const run = playGame(suiteDir, entry, {
        steps,
        seed,
        worth: (names) => Object.fromEntries(names.map((name) => [name, draw(shapes[name], random)])),
        onTurn: (before, after) => {
          const command = after.lastCommand!;
          const shape = shapeOf(before, command);
          before.truth.inventory.forEach((item) => items.add(item.id));
          const newItem = after.truth.inventory.some((item) => !items.has(item.id));
          const progress = after.truth.score > before.truth.score || after.places.length > before.places.length || newItem;
          if (!shape) return;
          const counts = (shapes[shape] ??= { tries: 0, gains: 0, deaths: 0 });
          counts.tries++;
          if (progress) counts.gains++;
          if (after.truth.died) counts.deaths++;
        },
      });
      log(`seed ${seed} ${run.game}: ${run.best}/${run.maxScore}, ${run.places} places`);
    }
  }
  const sorted = Object.fromEntries(Object.entries(shapes).sort(([a], [b]) => a.localeCompare(b)));
  const prior: VerbPrior = {
    about:
      (earlier ? `${earlier.about} Then: ` : '') +
      `Learned by scripts/none-prior.ts: the oracle-free explorer at --assist none played each listed game ${seeds.length} time(s) ` +
      `(seeds ${seeds.join(',')}), ${steps} steps each, shapes' worth drawn from the counts so far (Thompson sampling); ` +
      'a try counts as a gain when it scored or reached a room or item new to the episode. No walkthrough was read.',
    learnedFrom: [...new Set([...(earlier?.learnedFrom ?? []), ...games.map((g) => g.game)])],
    shapes: sorted,
  };
  writeFileSync(out, `${JSON.stringify(prior, null, 1)}\n`);
  log(`${Object.keys(shapes).length} shapes from ${games.length} games → ${out}`);
}

main();
