/** The inspector page's stylesheet: system fonts only, nothing loaded. */
export const INSPECTOR_STYLE = `
:root { --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --muted: #656d76; --line: #d0d7de; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #1f2328; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 24px 0 6px; }
.muted { color: var(--muted); }
.filters { position: sticky; top: 0; background: #fff; padding: 8px 0; border-bottom: 1px solid var(--line); display: flex; gap: 14px; flex-wrap: wrap; align-items: center; z-index: 1; }
input[type=search] { min-width: 260px; padding: 3px 6px; }
table.evaluations { border-collapse: collapse; margin: 6px 0 12px; } table.evaluations td, table.evaluations th { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; }
ol.timeline { list-style: none; padding: 0; margin: 0; border-left: 2px solid var(--line); }
li.entry { margin: 0 0 8px 0; padding: 4px 0 4px 14px; position: relative; }
li.entry::before { content: ""; position: absolute; left: -6px; top: 10px; width: 10px; height: 10px; border-radius: 50%; background: var(--line); }
li.entry.tool-call::before { background: #0969da; } li.entry.answer::before { background: var(--pass); } li.entry.approval::before { background: var(--warn); }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 11px; border: 1px solid var(--line); text-transform: uppercase; color: var(--muted); }
.time { color: var(--muted); font-variant-numeric: tabular-nums; }
.outcome.success, .decision.approved { color: var(--pass); font-weight: 600; }
.outcome.failure, .outcome.denied, .outcome.timeout, .outcome.unknown, .decision.rejected { color: var(--fail); font-weight: 600; }
.decision.pending { color: var(--warn); font-weight: 600; }
.body { margin: 4px 0 0; } details.block { margin: 2px 0; } summary { cursor: pointer; color: #0969da; }
pre { background: #f6f8fa; border-radius: 6px; padding: 8px; white-space: pre-wrap; word-break: break-word; max-height: 360px; overflow: auto; margin: 4px 0; }
.not-recorded { font-size: 12px; color: var(--muted); }
`;

/**
 * Filter by tool and outcome and search the entries' text. Each entry carries
 * `data-tool`, `data-outcome` and `data-search` (its content, lower case).
 */
export const INSPECTOR_SCRIPT = `
(() => {
  const tool = document.getElementById('filter-tool');
  const outcome = document.getElementById('filter-outcome');
  const search = document.getElementById('search');
  const count = document.getElementById('shown-count');
  const apply = () => {
    const words = search.value.trim().toLowerCase().split(/\\s+/).filter((word) => word !== '');
    let shown = 0;
    for (const entry of document.querySelectorAll('li.entry')) {
      const visible = (tool.value === '' || entry.dataset.tool === tool.value) &&
        (outcome.value === '' || entry.dataset.outcome === outcome.value) &&
        words.every((word) => entry.dataset.search.includes(word));
      entry.hidden = !visible;
      if (visible) shown += 1;
    }
    count.textContent = String(shown);
  };
  tool.addEventListener('change', apply);
  outcome.addEventListener('change', apply);
  search.addEventListener('input', apply);
  apply();
})();
`;
