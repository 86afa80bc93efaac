import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { MarkdownSectionInit } from './markdown-section.js';
import { getOwnMetadata, metadataKeys, updateOwnMetadata } from '../metadata/metadata-store.js';

/** Options of the `@Section` decorator: a `MarkdownSection`'s fields, tools coming from `@Tool` methods. */
export type SectionOptions<P = unknown> = Omit<MarkdownSectionInit<P>, 'tools'>;

/** Stores a class's `@Section` options. @internal */
export function recordSectionOptions(cls: object, options: SectionOptions): void {
  updateOwnMetadata<SectionOptions>(
    cls,
    metadataKeys.section,
    () => options,
    () => options,
  );
}

/** Whether a class (not its base) is decorated with `@Section`. */
export function isSectionClass(
  value: unknown,
): value is abstract new (...args: never[]) => unknown {
  return typeof value === 'function' && getOwnMetadata(value, metadataKeys.section) !== undefined;
}

/**
 * The `@Section` options of a class.
 * @throws ConfigurationError naming the class when it is not decorated with `@Section` itself.
 */
export function readSectionOptions(
  cls: abstract new (...args: never[]) => unknown,
): SectionOptions {
  const options = getOwnMetadata<SectionOptions>(cls, metadataKeys.section);
  if (options === undefined) {
    const inherited = Object.getPrototypeOf(cls) as unknown;
    const hint = isSectionClass(inherited)
      ? ` Its base class ${(inherited as { name: string }).name} is one, but section options are not inherited: each section class needs its own key.`
      : '';
    throw new ConfigurationError({
      subject: cls.name,
      problem: `the class is used as a section but is not decorated with @Section.${hint}`,
      fix: `Add @Section({ key: '...', title: '...' }) to ${cls.name}, or pass a MarkdownSection instance instead.`,
    });
  }
  return options;
}
