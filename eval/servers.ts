/**
 * npm run eval:servers [-- --game lighthouse --turns 5 --formats default,chatml-function-calling]
 *
 * grue against the OpenAI-compatible servers users run, as they run them: llama-cpp-python's
 * server (installed into ~/.cache/grue by scripts/install-llm-server.sh, built from source once)
 * serving the embedded Gemma GGUF, in each chat format. For each, one full-agent episode (the
 * thoughtbox always, compaction and knowledge on) on a fresh dev server; prints one JSON line per
 * server and chat format:
 *   {"structured":…, "tools":…, "toolChoiceRequired":…, "mode":…, "secondsPerCall":…, "invalidAnswers":…,
 *    "fallbackTurns":…, "answered":…, "failed":…, …}
 */
import { ensureModel, modelPath } from '../src/llm/models';
import { arg } from '../bench/cli';
import { installLlmServer, startLlamaCppServer } from '../bench/llamaCppServer';
import { measureServerEpisode } from '../bench/serverEpisode';

const log = (msg: string) => process.stderr.write(`eval:servers ${msg}\n`);

async function main(): Promise<void> {
  const formats = arg('formats', 'default,chatml-function-calling').split(',');
  const maxTurns = Number(arg('turns', '5'));
  const game = arg('game', 'lighthouse');
  await ensureModel('gemma3-270m', log);
  const python = installLlmServer();
  for (const format of formats) {
    log(`llama-cpp-python, chat format ${format}: starting`);
    const server = await startLlamaCppServer({
      python,
      modelPath: modelPath('gemma3-270m'),
      chatFormat: format === 'default' ? null : format,
    });
    try {
      const measure = await measureServerEpisode({
        url: server.url,
        model: server.model,
        server: 'llama-cpp-python 0.3.36',
        chatFormat: format,
        contextTokens: server.contextTokens,
        game,
        maxTurns,
      });
      process.stdout.write(`${JSON.stringify(measure)}\n`);
    } catch (err) {
      log(`chat format ${format} failed: ${(err as Error).message}\n${server.output().slice(-2000)}`);
      process.exitCode = 1;
    } finally {
      await server.stop();
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`eval:servers: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
