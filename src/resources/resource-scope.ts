/** How long a resource instance lives. */
export const ResourceScope = Object.freeze({
  /** One instance per evaluation, shared by every tool call; rolled back with the session when snapshotable. */
  Singleton: 'singleton',
  /** A fresh instance per tool call, closed when the call ends. */
  ToolCall: 'tool-call',
  /** A fresh instance every time it is requested. */
  Prototype: 'prototype',
} as const);

/** `'singleton'`, `'tool-call'` or `'prototype'`; see {@link ResourceScope}. */
export type ResourceScope = (typeof ResourceScope)[keyof typeof ResourceScope];
