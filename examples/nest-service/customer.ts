import type { IncomingMessage } from 'node:http';

import { Inject, Injectable, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';

/**
 * The customer a request comes from, read from its `x-customer-id` header.
 * Request-scoped: Nest builds one per request, and so does every provider
 * that injects it, such as the support section.
 */
@Injectable({ scope: Scope.REQUEST })
export class Customer {
  readonly id: string;

  constructor(@Inject(REQUEST) request: IncomingMessage) {
    const header = request.headers['x-customer-id'];
    this.id = typeof header === 'string' && header !== '' ? header : 'anonymous';
  }
}
