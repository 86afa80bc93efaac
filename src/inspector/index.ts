/**
 * `affordance/inspector`: look at what an agent did. `exportSession` (or
 * `exportStoredSession` for a session in a durable store) turns a session's
 * records into versioned JSON; `renderInspectorHtml` shows it as a
 * self-contained page with a filterable, searchable timeline;
 * `createInspectorServer` (and the `affordance-inspect` command) serves a
 * directory of exports or a store on 127.0.0.1, and `createInspectorHandler`
 * mounts the same pages in an existing server (NestJS, Express).
 * @packageDocumentation
 */
export type { ExportedApprovalInput } from './build-session-export.js';
export {
  createInspectorServer,
  type InspectorServer,
  type InspectorServerOptions,
} from './create-inspector-server.js';
export { exportSession, type ExportSessionOptions } from './export-session.js';
export { exportStoredSession } from './export-stored-session.js';
export {
  createInspectorHandler,
  type InspectorHandler,
  type InspectorHandlerOptions,
} from './inspector-handler.js';
export { readSessionExports } from './read-session-export.js';
export { renderInspectorHtml, type InspectorHtmlOptions } from './render-inspector-html.js';
export {
  type ExportedAnswer,
  type ExportedApproval,
  type ExportedEvaluation,
  type ExportedEvent,
  type ExportedEventBase,
  type ExportedGuardrail,
  type ExportedLoopIntervention,
  type ExportedPromptRendered,
  type ExportedToolCall,
  type ExportedUsage,
  SESSION_EXPORT_FORMAT,
  type SessionExport,
} from './session-export.js';
