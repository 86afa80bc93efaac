import { type AffordanceRuntime, type Class, ConfigurationError, Prompt } from '../index.js';

/**
 * When `runtime.prepare(prompt)` failed, finds the sections no Nest module
 * provides whose dependencies the runtime cannot find (each is prepared
 * alone) and returns an error naming them and how to provide them;
 * `undefined` when the failure has another cause, such as a scope leak.
 * @internal
 */
export function explainUnprovidedSections(
  runtime: AffordanceRuntime,
  prompt: Prompt,
  isNestSection: (cls: Class) => boolean,
  failure: ConfigurationError,
): ConfigurationError | undefined {
  const unbuildable: { cls: Class; reason: ConfigurationError }[] = [];
  for (const cls of prompt.sectionClasses) {
    if (isNestSection(cls)) continue;
    try {
      runtime.prepare(new Prompt({ ns: prompt.ns, key: prompt.key, sections: [cls] }));
    } catch (error) {
      if (!ConfigurationError.is(error)) throw error;
      // Only a failure to plan carries inversify's error as cause; a scope leak is reported as it is.
      if (error.cause !== undefined) unbuildable.push({ cls, reason: error });
    }
  }
  if (unbuildable.length === 0) return undefined;
  const names = unbuildable.map(({ cls }) => cls.name);
  const label = prompt.label;
  // The first line names the missing dependency; inversify's full trace stays in the cause.
  const reasons = unbuildable
    .map(({ cls, reason }) => `${cls.name} ${reason.problem.split('\n')[0] ?? ''}`)
    .join('; ');
  const listed = names.length === 1 ? (names[0] as string) : names.join(', ');
  return new ConfigurationError({
    subject: listed,
    problem:
      `${names.length === 1 ? 'is a section' : 'are sections'} of prompt '${label}' that no Nest module provides, ` +
      `so affordance tried to build ${names.length === 1 ? 'it' : 'them'} itself and could not (${reasons})`,
    fix:
      `Add ${listed} to the providers of a Nest module, e.g. @Module({ providers: [${names.join(', ')}] }), ` +
      'so Nest builds each section with its dependencies. Only sections that inject nothing but affordance values ' +
      '(Session, ToolContext, ...), such as PlanningToolsSection, can stay out of Nest.',
    cause: failure,
  });
}
