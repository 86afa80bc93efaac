// src/approve.ts: process B, later, when a person approved
import { readFileSync } from 'node:fs';
import type { EvaluationState } from 'affordance';
import { openDesk, refundPrompt } from './desk.js';

const desk = openDesk([{ text: 'Done: $120 refunded on A-1042.' }]);
const state = JSON.parse(readFileSync('approval.json', 'utf8')) as EvaluationState;
const durable = await desk.persistence.open('customer-42');
const decisions = state.pending.map((call) => ({ callId: call.callId, approved: true }));
const response = await desk.runtime.resume(refundPrompt, state, decisions, {
  session: durable.session,
});
await durable.commit();
for (const call of response.toolCalls) console.log(`${call.event.name}: ${call.message}`);
console.log(`answer: ${response.text ?? ''}`);
await desk.close();
