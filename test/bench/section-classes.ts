/**
 * The prompt of the cold-start benches: `sections` `@Section` classes with
 * `toolsPerSection` `@Tool` methods each, every tool with its own params class,
 * declared afresh on every call so nothing is cached from an earlier build.
 */
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

import { Section, Tool, type ToolContext, ToolResult } from '../../src/index.js';

export const sections = 100;
export const toolsPerSection = 5;

/** Declares `sections` section classes with `toolsPerSection` tools each, every tool with its own params class. */
export function declareSections(round: number): (abstract new (...args: never[]) => unknown)[] {
  const classes: (abstract new (...args: never[]) => unknown)[] = [];
  for (let s = 0; s < sections; s++) {
    const cls = class {};
    for (let t = 0; t < toolsPerSection; t++) {
      const params = class {
        query = '';
        limit = 1;
        note?: string;
      };
      IsString()(params.prototype, 'query');
      MaxLength(200)(params.prototype, 'query');
      IsInt()(params.prototype, 'limit');
      Min(1)(params.prototype, 'limit');
      Max(100)(params.prototype, 'limit');
      IsOptional()(params.prototype, 'note');
      IsString()(params.prototype, 'note');
      const method = `tool${t}`;
      Object.defineProperty(cls.prototype, method, {
        value: (p: InstanceType<typeof params>, _context: ToolContext) => ToolResult.ok(p.query),
        writable: true,
        configurable: true,
      });
      Reflect.defineMetadata('design:paramtypes', [params, Object], cls.prototype, method);
      Tool({ name: `s${s}_t${t}`, description: `Tool ${t} of section ${s}.`, params })(
        cls.prototype,
        method,
        Object.getOwnPropertyDescriptor(cls.prototype, method) as PropertyDescriptor,
      );
    }
    Section({ key: `section-${round}-${s}`, title: `Section ${s}`, template: `Section ${s}.` })(
      cls,
    );
    classes.push(cls);
  }
  return classes;
}
