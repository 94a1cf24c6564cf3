/**
 * Custom search attributes that make episodes findable in the Web UI ("GrueGame = 'zork1'",
 * "GrueScore > 30"). grue registers them on the dev server it starts, and on any server it
 * connects to (src/temporal/server.ts).
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const GAME_KEY = defineSearchAttributeKey('GrueGame', SearchAttributeType.KEYWORD);
export const SCORE_KEY = defineSearchAttributeKey('GrueScore', SearchAttributeType.INT);
export const TURN_KEY = defineSearchAttributeKey('GrueTurn', SearchAttributeType.INT);

/** name -> Temporal CLI type, for `temporal server start-dev --search-attribute name=Type`. */
export const SEARCH_ATTRIBUTE_DEFINITIONS: Record<string, 'Keyword' | 'Int'> = {
  GrueGame: 'Keyword',
  GrueScore: 'Int',
  GrueTurn: 'Int',
};
