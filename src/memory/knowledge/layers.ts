/**
 * Seed 002's layered items: merging an update into the base (update, never duplicate), the size
 * limit with the seed's priority compression, and retrieval against the current situation. Pure.
 */
import { notWords, utf8Bytes } from '../../text';
import { ItemAnswer, KnowledgeItem, Layer, LAYERS, LIMITS, TurnWindow } from './schema';

const STOP = new Set(
  (
    'the a an and or of to in on at is are was be it its this that with from for by as into you your ' +
    'there here can not no yes then when if has have had will would any all some one'
  ).split(' '),
);

/** Content words, lower case, for similarity and retrieval. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z'-]+/g) ?? []).map((w) => w.replace(/'s$/, '')).filter((w) => w.length >= 3 && !STOP.has(w));
}

/** Shared content words over all content words (a text without any is only similar to itself). */
export function similarity(a: string, b: string): number {
  const left = new Set(words(a));
  const right = new Set(words(b));
  if (!left.size || !right.size) return clean(a).toLowerCase() === clean(b).toLowerCase() ? 1 : 0;
  let shared = 0;
  for (const w of left) if (right.has(w)) shared++;
  return shared / (left.size + right.size - shared);
}

/** Two items say the same thing: merged, not kept twice. */
export const SIMILAR = 0.6;

/** 0 for META … 3 for IMPL: the order retrieval sorts by and compression protects. */
export const layerRank = (layer: Layer) => LAYERS.indexOf(layer);
const clean = (text: string) => text.replace(/\s+/g, ' ').trim();
const PLACEHOLDER = /^(none|n\/a|unknown|nothing|null|empty|-+|\.+)$/i;

// ── size ───────────────────────────────────────────────────────────────────────────────────

/** An item as the knowledge base shows it, with its seed-002 metadata block. */
export function itemBlock(item: KnowledgeItem): string {
  const lines = [`[${item.layer}] ${item.text}`, 'metadata:', `  confidence: ${item.confidence.toFixed(2)}`, `  source: ${item.source}`];
  if (item.verification) lines.push(`  verification: ${item.verification.commands.join('; ')} → "${item.verification.expect}"`);
  if (item.keywords.length) lines.push(`  keywords: [${item.keywords.join(', ')}]`);
  if (item.dependencies.length) lines.push(`  dependencies: [${item.dependencies.join(', ')}]`);
  if (item.room) lines.push(`  room: ${item.room}`);
  return lines.join('\n');
}

/** Bytes of the items as the knowledge base writes them: what `--knowledge-kb` limits. */
export function knowledgeBytes(items: readonly KnowledgeItem[]): number {
  return items.reduce((n, item) => n + utf8Bytes(itemBlock(item)) + 2, 0);
}

// ── merge ──────────────────────────────────────────────────────────────────────────────────

export interface MergeContext {
  turn: number;
  /** Rooms the engine has seen: the only room names an item may be tied to. */
  rooms: readonly string[];
  window: TurnWindow;
  source: KnowledgeItem['source'];
  /** Whether an answered item is knowledge of this game at all (see `screenFor` in prompt.ts); absent: every item is. */
  accept?: (answer: ItemAnswer) => boolean;
  /** The prompt's texts: an item echoing them is not knowledge (see notWords). */
  instructions?: readonly string[];
}

/**
 * The room an IMPL fact holds in: the model's word if the engine knows that room, else where its first
 * command was played in the window, else a room its text names.
 */
function roomOf(answer: ItemAnswer, context: MergeContext): string | null {
  const known = (name: string) => context.rooms.find((r) => r.toLowerCase() === name.trim().toLowerCase()) ?? null;
  const named = answer.room ? known(answer.room) : null;
  if (named) return named;
  if (answer.layer !== 'IMPL') return null;
  const first = answer.verify_commands[0]?.toLowerCase();
  const actions = context.window.actions;
  const index = first ? actions.findIndex((a) => a.action.toLowerCase() === first) : -1;
  if (index >= 0) {
    // An action's location is where it left the player: a move was played where it started.
    const moved = context.window.locationChanges.find((c) => c.turn === actions[index].turn);
    return (moved ? moved.from : actions[index].location) || null;
  }
  const text = answer.text.toLowerCase();
  return [...context.rooms].sort((a, b) => b.length - a.length).find((r) => r && text.includes(r.toLowerCase())) ?? null;
}

function keywordsOf(answer: ItemAnswer): string[] {
  const given = answer.keywords.map((k) => clean(k).toLowerCase()).filter((k) => k && !PLACEHOLDER.test(k));
  const chosen = given.length ? given : words(answer.text).slice(0, 5);
  return [...new Set(chosen)].slice(0, LIMITS.keywords);
}

/** The model's item as a base item (without id and timing). */
function fromAnswer(
  answer: ItemAnswer,
  context: MergeContext,
): Omit<KnowledgeItem, 'id' | 'lastSeenTrue' | 'lastVerifiedTurn' | 'dependencies'> {
  const commands = answer.verify_commands.map(clean).filter(Boolean);
  const expect = clean(answer.verify_expect);
  return {
    layer: answer.layer,
    text: clean(answer.text).slice(0, LIMITS.text),
    confidence: Math.min(1, Math.max(0, answer.confidence)),
    source: context.source,
    verification:
      answer.layer === 'IMPL' && commands.length && expect && !PLACEHOLDER.test(expect)
        ? { commands: commands.slice(0, LIMITS.verifyCommands), expect }
        : null,
    keywords: keywordsOf(answer),
    room: roomOf(answer, context),
  };
}

export interface MergeOutcome {
  items: KnowledgeItem[];
  nextId: number;
  added: number;
  merged: number;
  /** Answers dropped: placeholders, and items that name nothing the turns showed. */
  ignored: number;
  /** Answers dropped because their text does not read as words (digits, JSON, the prompt echoed). */
  rejectedText: number;
}

/**
 * The answered items merged into the base: an item naming an existing id, or saying nearly the
 * same as an item of its layer, updates that item; anything else is added with a fresh id.
 * Applying the same answer twice adds nothing the second time (every item then matches itself).
 */
export function mergeItems(
  items: readonly KnowledgeItem[],
  answers: readonly ItemAnswer[],
  nextId: number,
  context: MergeContext,
  prefix: 'k' | 'w' = 'k',
): MergeOutcome {
  let base = [...items];
  let id = nextId;
  let added = 0;
  let merged = 0;
  let ignored = 0;
  let rejectedText = 0;
  for (const answer of answers) {
    if (clean(answer.text).length < 3 || PLACEHOLDER.test(clean(answer.text))) {
      ignored++;
      continue;
    }
    if (notWords(answer.text, context.instructions)) {
      rejectedText++;
      continue;
    }
    if (context.accept && !context.accept(answer)) {
      ignored++;
      continue;
    }
    const item = fromAnswer(answer, context);
    const named = answer.replaces ? base.findIndex((b) => b.id === answer.replaces.trim()) : -1;
    const target = named >= 0 ? named : base.findIndex((b) => b.layer === item.layer && similarity(b.text, item.text) >= SIMILAR);
    if (target >= 0) {
      const old = base[target];
      const same = similarity(old.text, item.text) >= 0.9;
      base[target] = {
        ...old,
        ...item,
        // A fact the engine verified stays verified while the model only restates it.
        source: same && old.source === 'engine-verified' ? old.source : item.source,
        confidence: same ? Math.max(old.confidence, item.confidence) : item.confidence,
        keywords: [...new Set([...item.keywords, ...old.keywords])].slice(0, LIMITS.keywords),
        room: item.room ?? old.room,
        verification: item.verification ?? old.verification,
        lastSeenTrue: context.turn,
      };
      merged++;
    } else {
      base = [...base, { ...item, id: `${prefix}${id++}`, dependencies: [], lastSeenTrue: context.turn, lastVerifiedTurn: null }];
      added++;
    }
  }
  return { items: base.slice(-LIMITS.items), nextId: id, added, merged, ignored, rejectedText };
}

// ── size limit: the seed's priority compression ───────────────────────────────────────────

export type CompressionStep =
  'drop-low-confidence-impl' | 'merge-similar' | 'simplify-metadata' | 'compress-impl' | 'drop-impl' | 'drop-interface' | 'drop-principle';

export interface Compression {
  items: KnowledgeItem[];
  /** The steps that ran, in order. */
  steps: CompressionStep[];
  removed: number;
}

/** Least valuable first: lowest confidence, then longest unseen, then oldest id. */
const leastValuable = (a: KnowledgeItem, b: KnowledgeItem) =>
  a.confidence - b.confidence || a.lastSeenTrue - b.lastSeenTrue || Number(a.id.slice(1)) - Number(b.id.slice(1));

function mergeSimilar(items: KnowledgeItem[]): KnowledgeItem[] {
  const kept: KnowledgeItem[] = [];
  for (const item of items) {
    const twin = kept.findIndex((k) => k.layer === item.layer && similarity(k.text, item.text) >= 0.5);
    if (twin < 0) {
      kept.push(item);
      continue;
    }
    const [better, worse] = kept[twin].confidence >= item.confidence ? [kept[twin], item] : [item, kept[twin]];
    kept[twin] = {
      ...better,
      keywords: [...new Set([...better.keywords, ...worse.keywords])].slice(0, LIMITS.keywords),
      lastSeenTrue: Math.max(better.lastSeenTrue, worse.lastSeenTrue),
    };
  }
  return kept;
}

/**
 * Seed 002's compression, in its order, each step only while the base is over `limitBytes`:
 * drop IMPL with confidence < 0.7; merge similar items; simplify metadata (3 keywords, no
 * dependencies); compress IMPL details (text cut to 100 characters, the verification kept as
 * its "search pattern"); then drop items layer by layer from the bottom — IMPL, INTERFACE,
 * PRINCIPLE — least valuable first. META is never dropped, so a base of only META may stay over.
 */
export function compress(items: readonly KnowledgeItem[], limitBytes: number): Compression {
  let current = [...items];
  const steps: CompressionStep[] = [];
  const over = () => knowledgeBytes(current) > limitBytes;
  const run = (step: CompressionStep, fn: (xs: KnowledgeItem[]) => KnowledgeItem[]) => {
    if (!over()) return;
    steps.push(step);
    current = fn(current);
  };
  run('drop-low-confidence-impl', (xs) => xs.filter((x) => !(x.layer === 'IMPL' && x.confidence < 0.7)));
  run('merge-similar', mergeSimilar);
  run('simplify-metadata', (xs) => xs.map((x) => ({ ...x, keywords: x.keywords.slice(0, 3), dependencies: [] })));
  run('compress-impl', (xs) =>
    xs.map((x) => (x.layer === 'IMPL' && x.text.length > 100 ? { ...x, text: `${x.text.slice(0, 97)}...` } : x)),
  );
  for (const [layer, step] of [
    ['IMPL', 'drop-impl'],
    ['INTERFACE', 'drop-interface'],
    ['PRINCIPLE', 'drop-principle'],
  ] as const) {
    if (!over()) break;
    steps.push(step);
    const victims = current.filter((x) => x.layer === layer).sort(leastValuable);
    for (const victim of victims) {
      if (!over()) break;
      current = current.filter((x) => x.id !== victim.id);
    }
  }
  return { items: current, steps, removed: items.length - current.length };
}

// ── retrieval ──────────────────────────────────────────────────────────────────────────────

/** The current situation retrieval matches against (seed 002's "question"). */
export interface Situation {
  room: string;
  inventory: readonly string[];
  /** What the player sees now: objects in view are named in it. */
  observation: string;
  goal: string;
}

export function relevance(item: KnowledgeItem, terms: ReadonlySet<string>, room: string): number {
  const keywordHits = item.keywords.flatMap(words).filter((w) => terms.has(w)).length;
  const textHits = new Set(words(item.text).filter((w) => terms.has(w))).size;
  return keywordHits * 2 + textHits + (item.room && item.room === room ? 3 : 0);
}

/** Items that match the situation, highest layer first, then most relevant, then most confident. */
export function retrieve(items: readonly KnowledgeItem[], situation: Situation): KnowledgeItem[] {
  const terms = new Set(words([situation.room, ...situation.inventory, situation.observation, situation.goal].join(' ')));
  return items
    .map((item) => ({ item, score: relevance(item, terms, situation.room) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => layerRank(a.item.layer) - layerRank(b.item.layer) || b.score - a.score || b.item.confidence - a.item.confidence)
    .map((x) => x.item);
}

/** An item as one line of the LLM's context. */
export function contextLine(item: KnowledgeItem): string {
  const where = item.room ? ` (${item.room})` : '';
  const verified = item.source === 'engine-verified' ? ' [verified]' : '';
  return `[${item.layer}] ${item.text}${where}${verified}`;
}

/** Lines that fit `budgetChars`, in the order given. */
export function fitLines(lines: readonly string[], budgetChars: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > budgetChars) break;
    kept.push(line);
    used += line.length + 1;
  }
  return kept;
}
