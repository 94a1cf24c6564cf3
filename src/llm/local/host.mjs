// The embedded model's host process: loads node-llama-cpp (ESM) and one GGUF model once, then
// answers completion requests over Node IPC. Running it apart keeps the worker's event loop free
// for heartbeats during generation, and lets a crashed model be restarted without the worker.
import { getLlama, LlamaChatSession } from 'node-llama-cpp';

let llama;
let model;
let context;
const grammars = new Map();

async function load({ modelPath, contextSize, threads }) {
  llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  model = await llama.loadModel({ modelPath });
  context = await model.createContext({ contextSize, threads, sequences: 1 });
}

async function grammarFor(schema) {
  const key = JSON.stringify(schema);
  let g = grammars.get(key);
  if (!g) {
    g = await llama.createGrammarForJsonSchema(schema);
    // Schemas differ per turn (the valid actions are an enum): keep only the recent ones.
    if (grammars.size >= 32) grammars.delete(grammars.keys().next().value);
  } else {
    grammars.delete(key);
  }
  grammars.set(key, g);
  return g;
}

async function complete({ messages, jsonSchema, maxTokens, temperature, seed }) {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const user = messages
    .filter((m) => m.role !== 'system')
    .map((m) => m.content)
    .join('\n\n');
  const sequence = context.getSequence();
  const session = new LlamaChatSession({ contextSequence: sequence, systemPrompt: system || undefined });
  try {
    const grammar = jsonSchema ? await grammarFor(jsonSchema) : undefined;
    let tokens = 0;
    const inputBefore = sequence.tokenMeter.usedInputTokens;
    const started = performance.now();
    // The first chunk marks the end of reading the prompt: what comes after is generation.
    let firstChunk = null;
    const text = await session.prompt(user, {
      grammar,
      maxTokens,
      temperature,
      seed,
      onTextChunk: () => {
        firstChunk ??= performance.now();
        if (++tokens % 16 === 0) process.send({ type: 'progress' });
      },
    });
    const ended = performance.now();
    return {
      text,
      promptTokens: model.tokenize(system + '\n' + user).length,
      completionTokens: model.tokenize(text).length,
      timing: {
        promptMs: (firstChunk ?? ended) - started,
        generationMs: ended - (firstChunk ?? ended),
        promptTokensEvaluated: sequence.tokenMeter.usedInputTokens - inputBefore,
      },
    };
  } finally {
    // Wait for the sequence's teardown: since node-llama-cpp 3.20 it finishes asynchronously, and
    // a request that calls getSequence() before it has can fail with "No sequences left".
    session.dispose({ disposeSequence: false });
    await sequence.dispose();
  }
}

// When the parent goes away (or lets go of us), so do we.
process.on('disconnect', () => process.exit(0));

process.on('message', async (msg) => {
  try {
    if (msg.type === 'load') {
      await load(msg);
      process.send({ type: 'loaded', id: msg.id });
    } else if (msg.type === 'complete') {
      const result = await complete(msg);
      process.send({ type: 'result', id: msg.id, ...result });
    }
  } catch (err) {
    process.send({ type: 'error', id: msg.id, message: err instanceof Error ? err.message : String(err) });
  }
});
