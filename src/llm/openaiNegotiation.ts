/**
 * Finding out, with real calls, what an OpenAI-compatible endpoint does with structured output,
 * tools and `tool_choice: 'required'`. Each feature is tried from its best mode down; the first
 * mode that yields a usable answer is kept. A failure that says nothing about the feature (the
 * endpoint is unreachable, the key or the route is wrong) ends the negotiation: the endpoint
 * cannot be used at all, and the preflight reports it.
 */
import { z } from 'zod';
import { Capabilities, STRUCTURED_MODES, StructuredMode } from './capabilities';
import { LlmError } from './errors';
import { parseAnswer } from './json';
import type { RawAnswer } from './repair';
import type { ChatMessage, ToolSpec } from './types';

/** What one probe call returns. */
export interface ProbeAnswer extends RawAnswer {
  toolCalls: unknown[];
}

/** The two requests negotiation needs, built exactly as the provider builds its real calls. */
export interface Prober {
  structured(mode: StructuredMode, messages: ChatMessage[], schema: z.ZodTypeAny, schemaName: string): Promise<ProbeAnswer>;
  tools(messages: ChatMessage[], tools: ToolSpec[], choice: 'auto' | 'required'): Promise<ProbeAnswer>;
}

/** Words that mark a probe's conversation (test servers leave probes out of their fault scripts by them). */
export const PROBE_MARK = 'grue capability check';

const ProbeSchema = z.object({ answer: z.enum(['yes', 'no']) });
const PROBE_TOOL: ToolSpec = { name: 'record_answer', description: 'Record the answer to the question.', schema: ProbeSchema };

const structuredQuestion: ChatMessage[] = [
  { role: 'system', content: `You answer with JSON only (${PROBE_MARK}).` },
  { role: 'user', content: 'Is snow white? Answer {"answer": "yes"} or {"answer": "no"}.' },
];
const toolQuestion: ChatMessage[] = [
  { role: 'system', content: `You answer by calling a tool (${PROBE_MARK}).` },
  { role: 'user', content: 'Is snow white? Call record_answer with answer "yes" or "no".' },
];

/** A failure that says the endpoint cannot be used at all, whatever the feature. */
function endpointUnusable(err: unknown): boolean {
  if (!(err instanceof LlmError)) return true;
  return ['connection', 'timeout', 'auth', 'not-found', 'rate-limited', 'config'].includes(err.kind);
}

const short = (text: string) => text.replace(/\s+/g, ' ').slice(0, 120);
const refusal = (err: LlmError) => `refused${err.status ? ` (${err.status})` : ''}: ${short(err.message)}`;

async function negotiateStructured(probe: Prober, findings: string[]): Promise<StructuredMode> {
  for (const mode of STRUCTURED_MODES) {
    try {
      const answer = await probe.structured(mode, structuredQuestion, ProbeSchema, 'probe_answer');
      parseAnswer(ProbeSchema, answer.raw, 'probe_answer');
      return mode;
    } catch (err) {
      if (endpointUnusable(err)) throw err;
      const e = err as LlmError;
      findings.push(`${mode} ${e.kind === 'bad-answer' ? `gave no valid answer: ${short(e.message)}` : refusal(e)}`);
    }
  }
  // Nothing gave valid JSON: plain text with the schema is the mode that asks least of the server.
  return 'text';
}

/** Did the answer call the probe tool? */
const calledTool = (answer: ProbeAnswer) =>
  answer.toolCalls.some((c) => (c as { function?: { name?: unknown } } | null)?.function?.name === PROBE_TOOL.name);

async function toolProbe(probe: Prober, choice: 'auto' | 'required'): Promise<string | null> {
  try {
    const answer = await probe.tools(toolQuestion, [PROBE_TOOL], choice);
    if (calledTool(answer)) return null;
    return answer.toolCalls.length ? 'called no offered tool' : `ignored (answered in words: "${short(answer.raw)}")`;
  } catch (err) {
    if (endpointUnusable(err)) throw err;
    return refusal(err as LlmError);
  }
}

/** Try every feature; throws only when the endpoint cannot be used at all. */
export async function negotiate(probe: Prober): Promise<Capabilities> {
  const findings: string[] = [];
  const structured = await negotiateStructured(probe, findings);
  const toolsProblem = await toolProbe(probe, 'auto');
  if (toolsProblem) {
    findings.push(`tools ${toolsProblem}`);
    return { structured, tools: 'emulated', toolChoiceRequired: false, findings };
  }
  const requiredProblem = await toolProbe(probe, 'required');
  if (requiredProblem) findings.push(`tool_choice 'required' ${requiredProblem}`);
  return { structured, tools: 'native', toolChoiceRequired: requiredProblem === null, findings };
}
