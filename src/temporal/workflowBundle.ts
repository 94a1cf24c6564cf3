/**
 * The workflow bundle, built once per version of the code and kept in the cache. Bundling the
 * workflows (webpack over src/) takes about ten seconds, and every `grue play` starts a worker of
 * its own: a fresh bundle each time was most of a short run's start-up. The Temporal samples build
 * the bundle ahead for production workers; a cache keyed by the code does the same without a step
 * the user has to remember.
 *
 * The key hashes every source file under src/ (the workflows and all they import), the lockfile
 * (the versions of zod and the workflow SDK bundled with them) and the interceptor modules, so a
 * changed line anywhere builds a new bundle. Writes are atomic: workers starting together may
 * both build, and either file is whole.
 */
import { bundleWorkflowCode, DefaultLogger, WorkflowBundleOption } from '@temporalio/worker';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { log } from '../log';
import { cacheDir } from '../paths';

const WORKFLOWS = require.resolve('../workflows');
const SOURCE_ROOT = dirname(dirname(WORKFLOWS));
const LOCKFILE = join(SOURCE_ROOT, '..', 'package-lock.json');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return /\.(ts|js|json)$/.test(entry.name) ? [path] : [];
    })
    .sort();
}

/** What the bundle is built from: changes to any of it give another key. */
export function bundleKey(interceptorModules: string[]): string {
  const hash = createHash('sha256');
  for (const file of sourceFiles(SOURCE_ROOT))
    hash.update(relative(SOURCE_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  if (existsSync(LOCKFILE)) hash.update(readFileSync(LOCKFILE));
  for (const module of interceptorModules) hash.update(module);
  return hash.digest('hex').slice(0, 24);
}

/**
 * The bundle for this code, from the cache or built and cached. A cache that cannot be written
 * costs the ten seconds again, nothing else: the bundle is then handed over in memory.
 */
export async function cachedWorkflowBundle(interceptorModules: string[] = []): Promise<WorkflowBundleOption> {
  const codePath = join(cacheDir(), 'workflow-bundles', `${bundleKey(interceptorModules)}.js`);
  if (existsSync(codePath)) return { codePath };
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS,
    workflowInterceptorModules: interceptorModules,
    logger: new DefaultLogger('WARN'),
  });
  try {
    mkdirSync(dirname(codePath), { recursive: true });
    const partial = `${codePath}.${process.pid}.partial`;
    writeFileSync(partial, code);
    renameSync(partial, codePath);
    return { codePath };
  } catch (err) {
    log(`the workflow bundle was not cached (${(err as Error).message}); the next start bundles again`);
    return { code };
  }
}
