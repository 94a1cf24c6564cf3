/** The eval's ways of asking for a recommendation: which schema each sends and how its answer is read back (no model). */
import { turnAnalysisQuery } from '../../src/activities/oracle';
import { jsonSchemaFor } from '../../src/llm/json';
import type { LlmProvider } from '../../src/llm/types';
import { variantQuery } from '../../eval/oracleVariants';

const local = { name: 'local', model: 'test' } as LlmProvider;
const request = {
  observation: 'West of House. There is a small mailbox here.',
  lastAction: null,
  validActions: ['north', 'south', 'open small mailbox'],
  context: [],
  seed: 0,
};
const answer = (fields: Record<string, unknown>) => ({
  last_action_made_progress: false,
  accomplishment: '',
  failure_reason: '',
  prerequisite: '',
  overall_goal: '',
  immediate_goal: '',
  blocking_condition: '',
  action_reasoning: '',
  alternative_actions: [],
  confidence: 'low',
  ...fields,
});
const propertyOrder = (schema: Parameters<typeof jsonSchemaFor>[0]) =>
  Object.keys((jsonSchemaFor(schema) as { properties: object }).properties);

describe('variantQuery', () => {
  it('enum/full is exactly the production query', () => {
    const q = variantQuery(request, local, 'enum', 'full');
    const production = turnAnalysisQuery(request, local);
    expect(q.messages).toEqual(production.messages);
    expect(jsonSchemaFor(q.schema)).toEqual(jsonSchemaFor(production.schema));
    expect(q.recommendation(answer({ recommended_action: 'south' }))).toBe('south');
  });

  it('first puts the recommendation first and keeps every other field in production order', () => {
    const full = propertyOrder(variantQuery(request, local, 'enum', 'full').schema);
    const first = propertyOrder(variantQuery(request, local, 'enum', 'first').schema);
    expect(full.indexOf('recommended_action')).toBe(7);
    expect(first).toEqual(['recommended_action', ...full.filter((k) => k !== 'recommended_action')]);
    expect(propertyOrder(variantQuery(request, local, 'index', 'first').schema)[0]).toBe('recommended_action_number');
  });

  it('only asks which action makes progress, with no analysis, and answers that one field', () => {
    const q = variantQuery(request, local, 'index', 'only');
    expect(propertyOrder(q.schema)).toEqual(['recommended_action_number']);
    expect(q.messages[1].content).toMatch(/Which ONE action from VALID ACTIONS makes progress in the game now \(give its number\)\?$/);
    expect(q.messages[1].content).not.toContain('overall goal');
    expect(q.recommendation({ recommended_action_number: 1 })).toBe('north');
  });

  it('free accepts any text and reads it back as the valid action it names, or none', () => {
    const q = variantQuery(request, local, 'free', 'full');
    expect(q.schema.safeParse(answer({ recommended_action: 'open the mailbox' })).success).toBe(true);
    expect(q.recommendation(answer({ recommended_action: 'Open mailbox' }))).toBe('open small mailbox');
    expect(q.recommendation(answer({ recommended_action: 'dance' }))).toBeNull();
  });

  it('index numbers the actions in the prompt, allows only listed numbers, and reads a number back as its action', () => {
    const q = variantQuery(request, local, 'index', 'full');
    expect(q.messages[1].content).toContain('VALID ACTIONS:\n1. north\n2. south\n3. open small mailbox');
    expect(q.messages[1].content).toContain('(give its number)');
    expect(q.schema.safeParse(answer({ recommended_action_number: 3 })).success).toBe(true);
    expect(q.schema.safeParse(answer({ recommended_action_number: 4 })).success).toBe(false);
    expect(q.recommendation(answer({ recommended_action_number: 3 }))).toBe('open small mailbox');
  });
});
