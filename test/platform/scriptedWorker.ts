/**
 * A worker process whose LLM is the scripted test double, for tests that SIGKILL a worker in the
 * middle of LLM work:  node -r tsx/cjs test/platform/scriptedWorker.ts <address> <taskQueue> <dataDir> <options JSON>
 */
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createGrueWorker } from '../../src/worker';
import { ScriptedOptions, ScriptedProvider } from '../llm/scriptedProvider';

async function main(): Promise<void> {
  const [address, taskQueue, dataDir, options] = process.argv.slice(2);
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect({ address });
  const provider = new ScriptedProvider(JSON.parse(options ?? '{}') as ScriptedOptions);
  const worker = await createGrueWorker({ connection, namespace: 'default', taskQueue, dataDir, llm: () => provider });
  await worker.run();
}

main().catch((err) => {
  process.stderr.write(`scripted worker: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
