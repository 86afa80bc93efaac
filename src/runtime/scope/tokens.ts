import type { Container, ServiceIdentifier } from 'inversify';

/** The application container affordance was installed in; evaluation and call scopes are its children. */
export const AffordanceContainer: ServiceIdentifier<Container> = Symbol.for('affordance.container');

/** Id of the current evaluation, bound in each evaluation scope. */
export const EvaluationId: ServiceIdentifier<string> = Symbol.for('affordance.evaluation-id');

/** The provider's id of the current tool call, bound in each tool-call scope. */
export const ToolCallId: ServiceIdentifier<string> = Symbol.for('affordance.tool-call-id');

/** The current tool call's abort signal (fires at the deadline or on cancellation), bound in each call scope. */
export const ToolCallSignal: ServiceIdentifier<AbortSignal> = Symbol.for(
  'affordance.tool-call-signal',
);
