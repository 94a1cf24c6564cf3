/**
 * npm run bench:engine [-- --story path/to/zork1.z3]
 *
 * Prints one JSON object: stepsPerSecond (Zork I, replaying the fixed route), snapshotMicros,
 * restoreMicros, and valid-action statistics over the states along the 30-command route:
 * validActionsMsMedian/P90 as turns compute them (candidates tried on the probe thread pool,
 * GRUE_PROBE_THREADS or one per core, `probeThreads`), validActionsSerialMsMedian/P90 on one thread.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findValidActionsYielding, GameSession, searchValidActions } from '../src/engine';
import { ProbePool } from '../src/engine/probePool';
import { arg, percentile } from './cli';
import { ZORK_ROUTE } from './routes';

const round = (x: number, digits = 1) => Number(x.toFixed(digits));

async function main(): Promise<void> {
  const story = resolve(arg('story', join(__dirname, '..', '..', 'shared', 'games', 'zork1.z3')));
  if (!existsSync(story)) {
    console.error(`bench:engine needs Zork I: ${story} not found (pass --story <path>).`);
    process.exit(2);
  }
  const progress = (msg: string) => process.stderr.write(`bench:engine ${msg}\n`);

  // Steps per second: replay the route from a fresh session, several rounds, after a warm-up.
  const warm = GameSession.fromFile(story, { seed: 1 });
  for (const c of ZORK_ROUTE) warm.step(c);
  const rounds = 40;
  const start = warm.snapshot();
  let steps = 0;
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    warm.restore(start);
    for (const c of ZORK_ROUTE) {
      warm.step(c);
      steps++;
    }
  }
  const stepsPerSecond = steps / ((performance.now() - t0) / 1000);
  progress(`steps: ${Math.round(stepsPerSecond)}/s`);

  // Snapshot and restore cost, mid-route.
  const s = GameSession.fromFile(story, { seed: 1 });
  for (const c of ZORK_ROUTE.slice(0, 15)) s.step(c);
  const n = 2000;
  let snap = s.snapshot();
  let t = performance.now();
  for (let i = 0; i < n; i++) snap = s.snapshot();
  const snapshotMicros = ((performance.now() - t) / n) * 1000;
  t = performance.now();
  for (let i = 0; i < n; i++) s.restore(snap);
  const restoreMicros = ((performance.now() - t) / n) * 1000;
  progress(`snapshot ${round(snapshotMicros)} us, restore ${round(restoreMicros)} us, ${snap.length} bytes`);

  // Valid actions at every state along the route (the state before each command): serially, and
  // on the probe pool as the game activities run them (after one warm-up search per thread).
  const pool = new ProbePool();
  const v = GameSession.fromFile(story, { seed: 1 });
  await findValidActionsYielding(v, { pool });
  const times: number[] = [];
  const serialTimes: number[] = [];
  const candidates: number[] = [];
  const valid: number[] = [];
  for (const [i, command] of ZORK_ROUTE.entries()) {
    const t1 = performance.now();
    const { actions: found, candidates: cands } = searchValidActions(v);
    serialTimes.push(performance.now() - t1);
    const t2 = performance.now();
    const pooled = await findValidActionsYielding(v, { pool });
    times.push(performance.now() - t2);
    if (JSON.stringify(pooled) !== JSON.stringify(found)) throw new Error(`pooled and serial valid actions differ before "${command}"`);
    candidates.push(cands.length);
    valid.push(found.length);
    progress(
      `valid actions ${i + 1}/${ZORK_ROUTE.length}: ${found.length} of ${cands.length} in ${round(times[i], 0)} ms (serial ${round(serialTimes[i], 0)} ms)`,
    );
    v.step(command);
  }
  await pool.close();
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

  console.log(
    JSON.stringify({
      story: story.split('/').pop(),
      stepsPerSecond: Math.round(stepsPerSecond),
      snapshotMicros: round(snapshotMicros),
      restoreMicros: round(restoreMicros),
      snapshotBytes: snap.length,
      validActionsMsMedian: round(percentile(times, 0.5)),
      validActionsMsP90: round(percentile(times, 0.9)),
      validActionsSerialMsMedian: round(percentile(serialTimes, 0.5)),
      validActionsSerialMsP90: round(percentile(serialTimes, 0.9)),
      probeThreads: pool.size,
      candidatesPerState: round(mean(candidates)),
      validPerState: round(mean(valid)),
      states: ZORK_ROUTE.length,
    }),
  );
}

main().catch((err) => {
  console.error(`bench:engine: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
