// src/request.ts: process A, the customer's request
import { writeFileSync } from 'node:fs';
import { openDesk, refundPrompt } from './desk.js';

const desk = openDesk([
  { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A-1042', amountUsd: 120 } }] },
]);
const durable = await desk.persistence.open('customer-42');
const response = await desk.runtime.evaluate(refundPrompt, {
  input: 'Refund order A-1042, $120.',
  session: durable.session,
});
await durable.commit(); // the session, at the version the state is signed against
if (response.status === 'interrupted') {
  // Plain JSON: keep it wherever the approver will find it (a table, a queue, a file).
  writeFileSync('approval.json', JSON.stringify(response.interruption.state));
  for (const call of response.interruption.pending) {
    console.log(`waiting for approval: ${call.name} ${JSON.stringify(call.params)}`);
  }
}
await desk.close();
