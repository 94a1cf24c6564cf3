/**
 * A workflow interceptor for replay tests: Temporal's replay compares the kinds of commands a
 * workflow gives, not their inputs, so a workflow that replays a recorded `stepGame("west")` as
 * `stepGame("put bread in basket")` passes it. This reports each activity the workflow schedules,
 * with its input, through a sink the replaying test reads.
 */
import { proxySinks, Sinks, WorkflowInterceptorsFactory } from '@temporalio/workflow';

export interface ScheduledSinks extends Sinks {
  scheduled: { activity(activityType: string, args: unknown[]): void };
}

const { scheduled } = proxySinks<ScheduledSinks>();

export const interceptors: WorkflowInterceptorsFactory = () => ({
  outbound: [
    {
      scheduleActivity(input, next) {
        scheduled.activity(input.activityType, input.args);
        return next(input);
      },
    },
  ],
});
