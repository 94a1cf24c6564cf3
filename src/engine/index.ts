export * from './errors';
export * from './story';
export * from './bindings';
export * from './objects';
export * from './session';
export * from './validActions';
export * from './vocabulary';
export * from './resolveStory';
export type { Grammar, GrammarLine, Token, GrammarFormat } from './grammar';
