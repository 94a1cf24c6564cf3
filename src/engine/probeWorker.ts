/** One ProbePool thread: keeps a VM per story and tries the candidates it is sent. */
import { parentPort } from 'node:worker_threads';
import { GameSession } from './session';
import { candidateProber } from './validActions';
import type { ProbeHit } from './effectGroups';
import type { ProbeReply, ProbeRequest } from './probePool';

const sessions = new Map<string, GameSession>();

function sessionFor(request: ProbeRequest): GameSession {
  const key = `${request.md5}:${request.binding ? JSON.stringify(request.binding) : 'none'}`;
  let session = sessions.get(key);
  if (!session) {
    const bytes = request.story ?? [...sessions.values()].find((s) => s.story.md5 === request.md5)?.storyFile;
    if (!bytes) throw new Error(`story ${request.md5} was never sent to this thread`);
    session = GameSession.fromBytes(bytes, { binding: request.binding }, request.md5);
    sessions.set(key, session);
  }
  return session;
}

/** The prober of the pass this thread last worked on: a pass comes in several requests. */
let current: { session: GameSession; pass: number; probe: ReturnType<typeof candidateProber> } | undefined;

parentPort!.on('message', (request: ProbeRequest) => {
  let reply: ProbeReply;
  try {
    const session = sessionFor(request);
    if (current?.session !== session || current.pass !== request.pass) {
      current = { session, pass: request.pass, probe: candidateProber(session, request.state) };
    }
    const hits: ProbeHit[] = [];
    for (let k = 0; k < request.indices.length; k++) {
      const hit = current.probe(request.commands[k], request.indices[k]);
      if (hit) hits.push(hit);
    }
    reply = { id: request.id, hits };
  } catch (err) {
    reply = { id: request.id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
