import { injectable } from 'inversify';

import { recordSectionOptions, type SectionOptions } from '../prompt/section-metadata.js';

/**
 * Makes a class a prompt section: it renders `template` under a numbered
 * heading and contributes its `@Tool` methods. The class is also made
 * injectable, so its constructor can inject services; the runtime resolves it
 * in each tool call's scope.
 *
 * @example
 * \@Section({ key: 'guidance', title: 'Guidance', template: 'Prefer ${primaryTool}.', params: GuidanceParams })
 * class GuidanceSection { constructor(@inject(EntityStore) private readonly store: EntityStore) {} }
 */
export function Section<P>(options: SectionOptions<P>): ClassDecorator {
  return (target) => {
    recordSectionOptions(target, options);
    injectable()(target);
  };
}
