import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { ResourceBindings, ResourceResolver, StoredBinding } from './resource-binding.js';
import { describeResourceKey, type ResourceKey } from './resource-key.js';
import { ResourceScope } from './resource-scope.js';
import { isSnapshotable, type Snapshotable } from '../session/snapshotable.js';

interface CapturedResource {
  readonly instance: Snapshotable;
  readonly state: unknown;
}

/** Opaque state of the snapshotable resources of a context, from `context.snapshot()`. */
export class ResourceSnapshot {
  readonly #entries: readonly CapturedResource[];

  /** @internal Use `context.snapshot()`. */
  constructor(entries: readonly CapturedResource[]) {
    this.#entries = Object.freeze([...entries]);
    Object.freeze(this);
  }

  /** Number of resources captured. */
  get size(): number {
    return this.#entries.length;
  }

  /** @internal The captured resources, newest last. */
  static entriesOf(snapshot: ResourceSnapshot): readonly CapturedResource[] {
    return snapshot.#entries;
  }
}

const EMPTY_SNAPSHOT = new ResourceSnapshot([]);

interface Created {
  readonly key: ResourceKey<unknown>;
  readonly instance: unknown;
  readonly owned: boolean;
}

/**
 * The live resources of one evaluation (or, from `openToolCall()`, of one tool
 * call). Instances are created on first `get`, by scope: singletons once per
 * evaluation, tool-call resources once per call, prototypes on every request.
 * `close()` closes everything this context created, newest first.
 */
export class ResourceContext implements ResourceResolver, Snapshotable<ResourceSnapshot> {
  /** The bindings this context creates from. */
  readonly registry: ResourceBindings;
  /** The evaluation context, for a tool-call context. */
  readonly parent: ResourceContext | undefined;
  // Created on first use: a tool call that requests no resource allocates none of them.
  #cache: Map<ResourceKey<unknown>, unknown> | undefined;
  #created: Created[] | undefined;
  #children: Set<ResourceContext> | undefined;
  /** The keys being created, innermost last (kept on the evaluation's context only). */
  #resolving: ResourceKey<unknown>[] | undefined;
  #closed = false;

  private constructor(registry: ResourceBindings, parent: ResourceContext | undefined) {
    this.registry = registry;
    this.parent = parent;
  }

  /** @internal Use `registry.open()`. */
  static open(registry: ResourceBindings): ResourceContext {
    const context = new ResourceContext(registry, undefined);
    for (const key of registry.keys) {
      if (registry.bindingOf(key)?.eager === true) context.get(key);
    }
    return context;
  }

  /** Whether `close()` has run. */
  get closed(): boolean {
    return this.#closed || (this.parent?.closed ?? false);
  }

  /** Whether `key` is bound. */
  has(key: ResourceKey<unknown>): boolean {
    return this.registry.has(key);
  }

  /** The instance bound to `key`, created now if its scope requires. */
  get<T>(key: ResourceKey<T>): T {
    const name = describeResourceKey(key);
    if (this.closed) {
      throw new ConfigurationError({
        subject: `Resource ${name}`,
        problem: 'requested from a closed resource context.',
        fix: 'Request resources only while the evaluation or tool call that opened the context runs.',
      });
    }
    const binding = this.registry.bindingOf(key);
    if (binding === undefined) {
      const bound = this.registry.keys.map(describeResourceKey);
      throw new ConfigurationError({
        subject: `Resource ${name}`,
        problem: `nothing is bound to it${bound.length === 0 ? '' : ` (bound: ${bound.join(', ')})`}.`,
        fix: `Bind it: registry.bind(${name}, { create: () => ... }).`,
      });
    }
    switch (binding.scope) {
      case ResourceScope.Singleton:
        return this.#root().#cached(key, binding) as T;
      case ResourceScope.ToolCall:
        if (this.parent === undefined) {
          throw new ConfigurationError({
            subject: `Resource ${name}`,
            problem:
              'has tool-call scope but was requested outside a tool call (or by a singleton).',
            fix: "Request it from the tool call's context, or give it scope 'singleton' or 'prototype'.",
          });
        }
        return this.#cached(key, binding) as T;
      case ResourceScope.Prototype:
        return this.#create(key, binding) as T;
    }
  }

  /** A child context for one tool call; close it when the call ends. */
  openToolCall(): ResourceContext {
    if (this.parent !== undefined) {
      throw new ConfigurationError({
        subject: 'ResourceContext.openToolCall',
        problem: 'tool-call contexts cannot be nested.',
        fix: "Open tool-call contexts from the evaluation's context.",
      });
    }
    // The child joins #children (to be closed with this context) when it creates its first instance.
    return new ResourceContext(this.registry, this);
  }

  /**
   * Captures every instantiated snapshotable resource visible from here:
   * the evaluation's singletons and this context's own instances.
   */
  snapshot(): ResourceSnapshot {
    const inherited = this.parent === undefined ? undefined : this.parent.#created;
    const own = this.#created;
    if (inherited === undefined && own === undefined) return EMPTY_SNAPSHOT;
    const entries: CapturedResource[] = [];
    const seen = new Set<unknown>();
    for (const created of [inherited, own]) {
      for (const { instance } of created ?? []) {
        if (!isSnapshotable(instance) || seen.has(instance)) continue;
        seen.add(instance);
        entries.push({ instance, state: instance.snapshot() });
      }
    }
    return new ResourceSnapshot(entries);
  }

  /** Returns every captured resource to its state; resources created since are left alone. */
  restore(snapshot: ResourceSnapshot): void {
    if (!(snapshot instanceof ResourceSnapshot)) {
      throw new ConfigurationError({
        subject: 'ResourceContext.restore',
        problem: 'expected a ResourceSnapshot.',
        fix: 'Pass the value returned by context.snapshot().',
      });
    }
    for (const { instance, state } of [...ResourceSnapshot.entriesOf(snapshot)].reverse()) {
      instance.restore(state);
    }
  }

  /**
   * Closes open tool-call contexts, then every instance this context created,
   * newest first, through `Symbol.asyncDispose`, `Symbol.dispose` or `close()`.
   * Instances supplied with `registry.value()` are not closed. Every instance
   * gets its turn; failures are thrown together as an `AggregateError`.
   */
  async close(): Promise<void> {
    if (this.closeIfIdle()) return;
    this.#closed = true;
    const errors: unknown[] = [];
    for (const child of [...(this.#children ?? [])].reverse()) {
      try {
        await child.close();
      } catch (error) {
        errors.push(error);
      }
    }
    for (const { key, instance, owned } of [...(this.#created ?? [])].reverse()) {
      if (!owned) continue;
      try {
        await dispose(instance);
      } catch (error) {
        errors.push(
          new ConfigurationError({
            subject: `Resource ${describeResourceKey(key)}`,
            problem: 'failed to close.',
            fix: 'See the cause; make close() tolerate being called at the end of an evaluation.',
            cause: error,
          }),
        );
      }
    }
    if (this.parent !== undefined) this.parent.#children?.delete(this);
    if (errors.length > 0) {
      throw new AggregateError(
        errors,
        `Closing resources failed for ${errors.length} resource(s).`,
      );
    }
  }

  /** Same as `close()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * Closes the context at once when it has nothing to close (no instance
   * created, no tool-call context open) and says so; otherwise leaves it to
   * `close()`. A tool call that requested no resource ends without a promise.
   * @internal
   */
  closeIfIdle(): boolean {
    if (this.#closed) return true;
    if (this.#created !== undefined || (this.#children?.size ?? 0) > 0) return false;
    this.#closed = true;
    return true;
  }

  #root(): ResourceContext {
    return this.parent ?? this;
  }

  #cached(key: ResourceKey<unknown>, binding: StoredBinding): unknown {
    const cache = (this.#cache ??= new Map());
    if (cache.has(key)) return cache.get(key);
    const instance = this.#create(key, binding);
    cache.set(key, instance);
    return instance;
  }

  #create(key: ResourceKey<unknown>, binding: StoredBinding): unknown {
    const resolving = (this.#root().#resolving ??= []);
    if (resolving.includes(key)) {
      const cycle = [...resolving.slice(resolving.indexOf(key)), key].map(describeResourceKey);
      throw new ConfigurationError({
        subject: `Resource ${describeResourceKey(key)}`,
        problem: `circular dependency: ${cycle.join(' -> ')}.`,
        fix: 'Break the cycle: create one of them without the other, or pass a factory instead of the instance.',
      });
    }
    resolving.push(key);
    try {
      const instance = binding.create(this);
      if (this.#created === undefined) {
        this.#created = [];
        if (this.parent !== undefined) (this.parent.#children ??= new Set()).add(this);
      }
      this.#created.push({ key, instance, owned: !binding.provided });
      return instance;
    } finally {
      resolving.pop();
    }
  }
}

async function dispose(instance: unknown): Promise<void> {
  if (typeof instance !== 'object' || instance === null) return;
  const candidate = instance as {
    [Symbol.asyncDispose]?: unknown;
    [Symbol.dispose]?: unknown;
    close?: unknown;
  };
  const asyncDispose = candidate[Symbol.asyncDispose];
  const syncDispose = candidate[Symbol.dispose];
  if (typeof asyncDispose === 'function') await asyncDispose.call(instance);
  else if (typeof syncDispose === 'function') syncDispose.call(instance);
  else if (typeof candidate.close === 'function') await candidate.close.call(instance);
}
