/**
 * Engine sessions per story file on this worker, shared by every activity that runs the game
 * (turns, knowledge checks). Sessions are kept only to skip re-parsing the story: every use
 * starts by restoring the snapshot it was given, so reusing one never leaks state between calls.
 * A turn gives the event loop back while it probes (to heartbeat), so a session is lent to one
 * call at a time: concurrent calls on the same story each get their own.
 */
import { ApplicationFailure } from '@temporalio/common';
import { resolveStory } from '../engine/resolveStory';
import { GameSession } from '../engine/session';

/** Idle sessions kept per story: enough for the activities a worker runs at once. */
const MAX_IDLE_PER_STORY = 4;

export class StorySessions {
  private readonly idle = new Map<string, GameSession[]>();

  /** Keep a session (one just made for a new episode) for later calls on its story. */
  remember(path: string, session: GameSession): void {
    const list = this.idle.get(path) ?? [];
    if (list.length < MAX_IDLE_PER_STORY) list.push(session);
    this.idle.set(path, list);
  }

  /**
   * Run `work` with a session of `game` that no other call is using, refusing a story file that
   * is not the one the episode started with.
   */
  async use<T>(game: string, md5: string, work: (session: GameSession) => T | Promise<T>): Promise<T> {
    const path = resolveStory(game);
    const list = this.idle.get(path) ?? [];
    let session = list.pop();
    if (!session || session.story.md5 !== md5) session = GameSession.fromFile(path);
    if (session.story.md5 !== md5) {
      throw ApplicationFailure.nonRetryable(
        `The story file at ${path} on this worker (md5 ${session.story.md5}) is not the one this episode started with (md5 ${md5}).`,
        'StoryMismatch',
      );
    }
    try {
      return await work(session);
    } finally {
      this.remember(path, session);
    }
  }
}
