import { Inject, Injectable, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';

/** The part of an HTTP request the Nest tests read. */
export interface HttpRequest {
  readonly headers: Record<string, string | string[] | undefined>;
}

let callersBuilt = 0;

/** Request-scoped: who is calling, read from the `x-caller` header of the request Nest registered for the context. */
@Injectable({ scope: Scope.REQUEST })
export class Caller {
  readonly name: string;
  /** How many `Caller`s the process had built when this one was: tells instances apart. */
  readonly instance = (callersBuilt += 1);

  constructor(@Inject(REQUEST) request: HttpRequest | undefined) {
    const header = request?.headers['x-caller'];
    this.name = typeof header === 'string' ? header : 'nobody';
  }
}
