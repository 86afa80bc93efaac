import { injectable } from 'inversify';

/** An order as the tools return it. */
export class Order {
  orderId!: string;
  status!: 'processing' | 'shipped' | 'delivered';
  total!: number;
  refunded = false;

  /** What the model reads instead of raw JSON. */
  render(): string {
    const refund = this.refunded ? ' A refund was issued.' : '';
    return `Order ${this.orderId} is ${this.status}, total ${this.total.toFixed(2)} EUR.${refund}`;
  }
}

/** An application service the section injects: an in-memory order book. */
@injectable()
export class OrderBook {
  private readonly orders = new Map<string, Omit<Order, 'render'>>([
    ['A-1001', { orderId: 'A-1001', status: 'delivered', total: 42.5, refunded: false }],
    ['A-1002', { orderId: 'A-1002', status: 'processing', total: 18, refunded: false }],
  ]);

  /** The order with `id`, or `undefined`. */
  find(id: string): Order | undefined {
    const order = this.orders.get(id);
    return order === undefined ? undefined : Object.assign(new Order(), order);
  }

  /** Marks a delivered order refunded; returns the updated order, or an error text. */
  refund(id: string): Order | string {
    const order = this.orders.get(id);
    if (order === undefined) return `No order '${id}'.`;
    if (order.status !== 'delivered')
      return `Order ${id} is ${order.status}; only delivered orders can be refunded.`;
    order.refunded = true;
    return Object.assign(new Order(), order);
  }
}
