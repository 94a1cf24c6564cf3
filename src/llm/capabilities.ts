/**
 * What an OpenAI-compatible endpoint can do, and so how grue talks to it. Servers differ:
 * OpenAI and vLLM take `response_format: json_schema`, llama.cpp-based servers often only
 * `json_object` (llama-cpp-python constrains it with a `schema` beside the type), some ignore
 * `tools` or refuse `tool_choice: 'required'`. Each feature has a ladder of modes, best first;
 * negotiation picks the first rung the endpoint honours, and a refusal that names a feature at
 * run time steps down at once.
 */

/**
 * json_schema: the API's structured output. json_object: JSON mode with the schema in the prompt
 * and beside the type. text: no response_format at all, the schema in the prompt.
 */
export const STRUCTURED_MODES = ['json_schema', 'json_object', 'text'] as const;
export type StructuredMode = (typeof STRUCTURED_MODES)[number];

/** native: the API's `tools`; emulated: a `{"calls": [...]}` answer in the structured mode, as the embedded model gives. */
export type ToolsMode = 'native' | 'emulated';

export interface Capabilities {
  structured: StructuredMode;
  tools: ToolsMode;
  /** `tool_choice: 'required'` is honoured; otherwise grue sends 'auto' with an instruction to call a tool. */
  toolChoiceRequired: boolean;
  /** What the endpoint did with each feature when it was tried, in words (for the capabilities line). */
  findings: string[];
}

/** The features a refusal can name. */
export type Feature = 'structured' | 'tools' | 'toolChoice';

/**
 * The feature a refusal names, if any: any 4xx or 5xx whose message names `tool_choice`,
 * `response_format` / `json_schema`, or `tools` is the server saying it does not do that.
 */
export function refusedFeature(status: number | undefined, message: string): Feature | null {
  if (status === undefined || status < 400 || status === 401 || status === 403 || status === 404 || status === 429) return null;
  if (/tool_choice/i.test(message)) return 'toolChoice';
  if (/response_format|json_schema/i.test(message)) return 'structured';
  if (/\btools?\b|function.?call/i.test(message)) return 'tools';
  return null;
}

/** The next rung down for a refused structured mode, or null at the bottom. */
export function lowerStructuredMode(mode: StructuredMode): StructuredMode | null {
  return STRUCTURED_MODES[STRUCTURED_MODES.indexOf(mode) + 1] ?? null;
}

/** The modes in force, in one line: what `grue setup` and `grue play` print. */
export function describeCapabilities(c: Capabilities): string {
  const structured = {
    json_schema: 'structured output json_schema',
    json_object: 'structured output json_object with the schema',
    text: 'structured output as plain text with the schema in the prompt',
  }[c.structured];
  const tools = c.tools === 'native' ? 'tools native' : 'tools emulated as JSON answers';
  const required =
    c.tools === 'emulated'
      ? ''
      : c.toolChoiceRequired
        ? "; tool_choice 'required' native"
        : "; tool_choice 'required' sent as 'auto' with an instruction";
  const found = c.findings.length ? ` (${c.findings.join('; ')})` : '';
  return `${structured}; ${tools}${required}${found}`;
}

/** The capabilities a fully OpenAI-like endpoint has: used until negotiation says otherwise, and by tests. */
export const FULL_CAPABILITIES: Capabilities = { structured: 'json_schema', tools: 'native', toolChoiceRequired: true, findings: [] };

/** Negotiated once per process, endpoint and model; a negotiation that failed is forgotten, so the next call tries again. */
const negotiated = new Map<string, Promise<Capabilities>>();

export function negotiatedOnce(key: string, negotiate: () => Promise<Capabilities>): Promise<Capabilities> {
  let found = negotiated.get(key);
  if (!found) {
    found = negotiate();
    negotiated.set(key, found);
    found.catch(() => negotiated.delete(key));
  }
  return found;
}

/** A refusal at run time stepped a mode down: every provider of the same endpoint and model sees the change. */
export function remember(key: string, capabilities: Capabilities): void {
  negotiated.set(key, Promise.resolve(capabilities));
}
