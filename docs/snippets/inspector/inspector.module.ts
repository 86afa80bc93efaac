import 'reflect-metadata';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, type DynamicModule, Get, Inject, Module, Req, Res } from '@nestjs/common';
import { createInspectorHandler, type InspectorHandler } from 'affordance/inspector';

const INSPECTOR = Symbol('inspector');

// #region controller
@Controller('inspector')
export class InspectorController {
  constructor(@Inject(INSPECTOR) private readonly inspector: InspectorHandler) {}

  // Every GET under /inspector goes to the handler (it answers 404 for what it does not serve).
  @Get(['', '{*path}'])
  serve(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    return this.inspector.handle(req, res);
  }
}

@Module({})
export class InspectorModule {
  /** The inspector at /inspector, serving the session exports in `directory`. */
  static forDirectory(directory: string): DynamicModule {
    return {
      module: InspectorModule,
      controllers: [InspectorController],
      providers: [
        {
          provide: INSPECTOR,
          useFactory: () => createInspectorHandler({ sessions: directory, basePath: '/inspector' }),
        },
      ],
    };
  }
}
// #endregion controller
