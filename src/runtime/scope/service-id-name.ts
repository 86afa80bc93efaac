import type { ServiceIdentifier } from 'inversify';

/**
 * A readable name for an inversify service identifier: a class's name, a
 * symbol's description or the string itself. @internal
 */
export function serviceIdName(id: ServiceIdentifier): string {
  if (typeof id === 'function') return id.name === '' ? '(anonymous class)' : id.name;
  if (typeof id === 'symbol') return id.description ?? id.toString();
  return id;
}
