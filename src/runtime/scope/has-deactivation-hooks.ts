import { Plugin } from '@inversifyjs/plugin';
import { Container, type ServiceIdentifier } from 'inversify';

/**
 * Whether the application registered an `onDeactivation` hook for any of
 * `ids` (`container.onDeactivation(id, hook)`, on `container` or an ancestor),
 * read without running one: a plugin registered on a throw-away child
 * container looks the ids up in inversify's deactivation service, which
 * chains the parents'. @internal
 */
export function hasDeactivationHooks(
  container: Container,
  ids: readonly ServiceIdentifier[],
): boolean {
  let found = false;
  class ReadDeactivations extends Plugin<Container> {
    load(): void {
      const hooks = this._context.deactivationService;
      found = ids.some((id) => hooks.get(id) !== undefined);
    }
  }
  new Container({ parent: container }).register(ReadDeactivations);
  return found;
}
