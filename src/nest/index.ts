import 'reflect-metadata';
/**
 * affordance/nest: the NestJS integration. `AffordanceModule.forRoot` in the
 * application module, `@Section` classes as ordinary Nest providers, and
 * `AffordanceService.evaluate` in controllers. Core affordance never imports
 * `@nestjs/*`; only this entry point does.
 * @packageDocumentation
 */
export { AffordanceMcpModule, type AffordanceMcpModuleOptions } from './affordance-mcp-module.js';
export { AffordanceModule } from './affordance-module.js';
export {
  type AdapterFactory,
  type AdapterOption,
  type AdapterScope,
  type AffordanceModuleAsyncOptions,
  AffordanceModuleOptions,
} from './affordance-module-options.js';
export { AffordanceService } from './affordance-service.js';
export type { NestCallToolOptions, NestEvaluateOptions } from './nest-evaluate-options.js';
