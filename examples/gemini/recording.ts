/**
 * What the recorded Gemini server of the example answers, request by request:
 * `generateContent` bodies in the Gemini API's shape (a candidate's `content`
 * parts, `finishReason`, `usageMetadata`, `modelVersion`, `responseId`). The
 * model first looks the order up, then refunds it, then answers with the
 * structured reply as JSON text.
 */
export const recordedAnswers: readonly Record<string, unknown>[] = [
  answer(
    [
      {
        functionCall: { id: 'fc-1', name: 'lookup_order', args: { orderId: 'A-1001' } },
        thoughtSignature: 'c2lnLTE=',
      },
    ],
    { promptTokenCount: 412, candidatesTokenCount: 18, thoughtsTokenCount: 36 },
  ),
  answer(
    [
      {
        functionCall: {
          id: 'fc-2',
          name: 'refund_order',
          args: { orderId: 'A-1001', reason: 'arrived broken' },
        },
        thoughtSignature: 'c2lnLTI=',
      },
    ],
    { promptTokenCount: 498, candidatesTokenCount: 27, thoughtsTokenCount: 20 },
  ),
  answer(
    [
      {
        text: JSON.stringify({
          orderId: 'A-1001',
          refunded: true,
          reply: 'Sorry about that! Order A-1001 has been refunded (42.50 EUR).',
        }),
      },
    ],
    { promptTokenCount: 583, candidatesTokenCount: 41, cachedContentTokenCount: 256 },
  ),
];

function answer(parts: unknown[], usage: Record<string, number>): Record<string, unknown> {
  const total =
    (usage['promptTokenCount'] ?? 0) +
    (usage['candidatesTokenCount'] ?? 0) +
    (usage['thoughtsTokenCount'] ?? 0);
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { ...usage, totalTokenCount: total },
    modelVersion: 'gemini-2.5-flash',
    responseId: 'recorded',
  };
}
