/**
 * One engine session per story file on this worker, shared by every activity that runs the game
 * (turns, knowledge checks). Sessions are cached only to skip re-parsing the story: every use
 * starts by restoring the snapshot it was given, so sharing one never leaks state between calls.
 */
import { ApplicationFailure } from '@temporalio/common';
import { resolveStory } from '../engine/resolveStory';
import { GameSession } from '../engine/session';

export class StorySessions {
  private readonly sessions = new Map<string, GameSession>();

  remember(path: string, session: GameSession): void {
    this.sessions.set(path, session);
  }

  /** The session of `game`, refusing a story file that is not the one the episode started with. */
  session(game: string, md5: string): GameSession {
    const path = resolveStory(game);
    let session = this.sessions.get(path);
    if (!session || session.story.md5 !== md5) {
      session = GameSession.fromFile(path);
      this.sessions.set(path, session);
    }
    if (session.story.md5 !== md5) {
      throw ApplicationFailure.nonRetryable(
        `The story file at ${path} on this worker (md5 ${session.story.md5}) is not the one this episode started with (md5 ${md5}).`,
        'StoryMismatch',
      );
    }
    return session;
  }
}
