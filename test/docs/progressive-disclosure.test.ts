import {
  firstRender,
  openByRaising,
  openInLoop,
} from '../../docs/snippets/progressive-disclosure/support-prompt.js';

describe('docs/guide/progressive-disclosure.md', () => {
  it('support-prompt.ts: renders billing as its summary, its tool behind open_sections', () => {
    const { text, tools } = firstRender();
    expect(text).toContain('Refunds of delivered orders.');
    expect(text).toContain(
      '[This section is summarized. To view its full content, call `open_sections`',
    );
    expect(text).not.toContain('Never refund an order twice.');
    expect(tools).toEqual(['open_sections']);
  });

  it('support-prompt.ts: opens billing in the loop; refund is offered from the next request', async () => {
    expect(await openInLoop()).toEqual({ toolsBefore: ['open_sections'], toolsAfter: ['refund'] });
  });

  it('support-prompt.ts: raise mode stops, and the re-run offers refund at once', async () => {
    expect(await openByRaising()).toEqual(['refund']);
  });
});
