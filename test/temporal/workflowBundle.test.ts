/**
 * The workflow bundle is built once per version of the code and then read from the cache: a second
 * worker start finds the file, and a different set of interceptor modules is another bundle.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bundleKey, cachedWorkflowBundle } from '../../src/temporal/workflowBundle';
import { WORKFLOW_TRACING_MODULES } from '../../src/temporal/tracing';
import { scratchDir } from '../helpers';

describe('the cached workflow bundle', () => {
  const saved = process.env.GRUE_CACHE;
  const cache = scratchDir('bundle');
  beforeAll(() => {
    process.env.GRUE_CACHE = cache;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.GRUE_CACHE;
    else process.env.GRUE_CACHE = saved;
  });

  it('builds the bundle once, into a file named by the code, and hands the same file to the next start', async () => {
    const first = await cachedWorkflowBundle();
    expect(first).toEqual({ codePath: join(cache, 'workflow-bundles', `${bundleKey([])}.js`) });
    const path = (first as { codePath: string }).codePath;
    expect(statSync(path).size).toBeGreaterThan(100_000);
    const built = statSync(path).mtimeMs;

    // Not built again: the same file, untouched.
    expect(await cachedWorkflowBundle()).toEqual(first);
    expect(statSync(path).mtimeMs).toBe(built);
    expect(readdirSync(join(cache, 'workflow-bundles')).filter((f) => f.endsWith('.partial'))).toEqual([]);
  }, 120_000);

  it('keys a bundle with the tracing interceptors apart from one without', () => {
    expect(bundleKey(WORKFLOW_TRACING_MODULES)).not.toBe(bundleKey([]));
    expect(bundleKey([])).toBe(bundleKey([]));
    expect(existsSync(join(cache, 'workflow-bundles', `${bundleKey(WORKFLOW_TRACING_MODULES)}.js`))).toBe(false);
  });
});
