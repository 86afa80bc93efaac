import { readSectionOptions } from './section-metadata.js';
import { readToolMethods, type ToolMethodMetadata } from '../tools/tool-metadata.js';
import { trackCallFrame } from '../session/call-frame.js';
import { ToolDefinition, type ToolHandler } from '../tools/tool-definition.js';
import type { ToolResult } from '../tools/tool-result.js';
import { MarkdownSection } from './markdown-section.js';
import type { PromptSection, SectionRef } from './prompt-section.js';
import type { Class } from '../core/class-type.js';

const cache = new WeakMap<Class, MarkdownSection>();
const classes = new WeakMap<PromptSection, Class>();

/**
 * The section model of a `@Section` class: a `MarkdownSection` whose tools are
 * the class's `@Tool` methods. Each tool's handler resolves the class from the
 * call's `context.services` and calls the method on that instance.
 * Built once per class.
 * @internal
 */
export function sectionFromClass(cls: Class): MarkdownSection {
  const cached = cache.get(cls);
  if (cached !== undefined) return cached;
  const options = readSectionOptions(cls);
  const tools = readToolMethods(cls).map(
    (method) =>
      new ToolDefinition({
        name: method.name,
        description: method.options.description,
        params: method.paramsSchema ?? method.paramsType,
        paramsJsonSchema: method.options.paramsJsonSchema,
        result: method.options.result,
        examples: method.options.examples,
        acceptsOverrides: method.options.acceptsOverrides,
        readOnly: method.options.readOnly,
        policies: method.options.policies,
        approval: method.options.approval,
        synchronous: method.synchronous,
        timeoutMs: method.options.timeoutMs,
        idempotent: method.options.idempotent,
        retry: method.options.retry,
        handler: methodHandler(cls, method),
      }),
  );
  const section = new MarkdownSection<unknown>({ ...options, tools });
  cache.set(cls, section);
  classes.set(section, cls);
  return section;
}

/** A section instance for any {@link SectionRef}. @internal */
export function toSection(ref: SectionRef): PromptSection {
  return typeof ref === 'function' ? sectionFromClass(ref) : ref;
}

function methodHandler(
  cls: Class,
  { methodName, method: declared, synchronous }: ToolMethodMetadata,
): ToolHandler {
  return (params, context) => {
    const instance = context.services.get(cls) as Record<
      string,
      (...args: unknown[]) => ToolResult | Promise<ToolResult>
    >;
    const method = instance[methodName];
    if (typeof method !== 'function') {
      throw new TypeError(`${cls.name}.${methodName} is not a method of the resolved instance.`);
    }
    // A synchronous method replaced on the resolved instance (a subclass, a test double) may return a promise.
    if (synchronous && method !== declared) {
      return trackCallFrame(() => method.call(instance, params, context));
    }
    return method.call(instance, params, context);
  };
}

/** The `@Section` class a section was built from, if any. @internal */
export function sectionClassOf(section: PromptSection): Class | undefined {
  return classes.get(section);
}
