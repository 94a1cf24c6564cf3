/**
 * grue against a real OpenAI-compatible server, as users run one: llama-cpp-python's server
 * (installed by scripts/install-llm-server.sh into ~/.cache/grue, built from source once) serving
 * the embedded Gemma GGUF on loopback, in its default chat format and in chatml-function-calling.
 * A full-agent Lighthouse episode with the thoughtbox always, compaction and knowledge on makes
 * every kind of LLM call, and each is answered at least once, with no fallback turn.
 *
 * In CI the server is installed (built) if missing and a failed install fails the test; elsewhere
 * a machine without the installed server skips it with a note (run the install script once).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { installLlmServer, LlamaCppServer, startLlamaCppServer } from '../../bench/llamaCppServer';
import { EVERY_CALL, measureServerEpisode, ServerMeasure } from '../../bench/serverEpisode';
import { ensureModel, modelPath } from '../../src/llm/models';
import { ROOT } from '../helpers';

/** The installed server's python, or null when it is not installed (and this is not CI). */
function serverPython(): string | null {
  if (process.env.CI) return installLlmServer();
  try {
    // The install script answers at once when the venv is there; without it, it would build for 16 minutes.
    const venv = join(process.env.GRUE_CACHE ?? join(process.env.HOME ?? '', '.cache/grue'), 'llm-server/llama-cpp-python-0.3.36');
    execFileSync(join(venv, 'bin/python'), ['-c', 'import llama_cpp.server.app'], { stdio: 'ignore' });
    return installLlmServer();
  } catch {
    console.warn(`skipping the llama-cpp-python server tests: not installed (run ${join(ROOT, 'scripts/install-llm-server.sh')} once)`);
    return null;
  }
}

const python = serverPython();
const describeWithServer = python ? describe : describe.skip;

describeWithServer.each([
  ['default', null, /^structured output json_object with the schema; tools emulated as JSON answers/],
  ['chatml-function-calling', 'chatml-function-calling', /^structured output json_object with the schema; tools native/],
] as const)("llama-cpp-python's server, chat format %s", (name, chatFormat, modes) => {
  let server: LlamaCppServer;
  beforeAll(async () => {
    await ensureModel('gemma3-270m');
    // Two threads: `npm test` runs this project on its own (see SERVERS in jest.config.js), so the
    // server has both cores but for the one Temporal episode it serves.
    server = await startLlamaCppServer({ python: python!, modelPath: modelPath('gemma3-270m'), chatFormat, threads: 2 });
  }, 300_000);
  afterAll(() => server?.stop());

  it('a full-agent Lighthouse episode gets every kind of LLM call answered, with no fallback turn', async () => {
    let measure: ServerMeasure;
    try {
      measure = await measureServerEpisode({
        url: server.url,
        model: server.model,
        server: 'llama-cpp-python',
        chatFormat: name,
        contextTokens: server.contextTokens,
      });
    } catch (err) {
      throw new Error(`${(err as Error).message}\nserver output:\n${server.output().slice(-3000)}`);
    }
    console.log(`llama-cpp-python ${name}: ${JSON.stringify(measure)}`);
    expect(measure.mode).toMatch(modes);
    expect(measure.fallbackTurns).toBe(0);
    expect(EVERY_CALL.filter((call) => !measure.answered[call])).toEqual([]);
  }, 1_800_000);
});
