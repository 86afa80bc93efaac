import { Injectable } from '@nestjs/common';

/** A refund the support desk issued. */
export class Refund {
  id!: string;
  orderId!: string;
  /** Dollars. */
  amount!: number;
  reason!: string;
}

/** Where refunds are issued: one desk per application (a Nest singleton); `GET /refunds` lists it. */
@Injectable()
export class RefundDesk {
  readonly #refunds: Refund[] = [];

  /** Issues a refund of `amount` dollars on `orderId`. */
  issue(orderId: string, amount: number, reason: string): Refund {
    const refund = Object.assign(new Refund(), {
      id: `R-${501 + this.#refunds.length}`,
      orderId,
      amount,
      reason,
    });
    this.#refunds.push(refund);
    return refund;
  }

  /** Every refund, oldest first. */
  all(): readonly Refund[] {
    return [...this.#refunds];
  }
}
