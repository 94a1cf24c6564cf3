import { Context } from '@temporalio/activity';

/** The running activity's context, or null outside one (evaluation and benchmark scripts call activity code directly). */
export function currentActivity(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}
