/** The report's stylesheet: system fonts only, nothing loaded. */
export const REPORT_STYLE = `
:root { color-scheme: light; --pass: #1a7f37; --fail: #cf222e; --muted: #656d76; --line: #d0d7de; --bar: #0969da; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #1f2328; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; } h4 { margin: 8px 0; font-size: 14px; }
.muted { color: var(--muted); } .error { color: var(--fail); }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 120px; }
.card .big { font-size: 20px; font-weight: 600; }
.banner { border-radius: 6px; padding: 10px 14px; margin: 12px 0; border: 1px solid var(--line); }
.banner.worse { background: #ffebe9; border-color: #ff8182; } .banner.better { background: #dafbe1; border-color: #4ac26b; }
table { border-collapse: collapse; width: 100%; } th, td { border-bottom: 1px solid var(--line); padding: 6px 8px; text-align: left; vertical-align: top; }
th { font-size: 12px; text-transform: uppercase; color: var(--muted); } td.num { white-space: nowrap; text-align: right; }
td.input { max-width: 320px; white-space: pre-wrap; word-break: break-word; }
tr.regression > td { background: #ffebe9; } tr.improvement > td { background: #dafbe1; }
tr.details > td { border-bottom: 2px solid var(--line); padding-top: 0; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; border: 1px solid currentColor; margin: 1px 0; }
.badge.pass, .pass { color: var(--pass); } .badge.fail, .fail { color: var(--fail); }
.tag { background: #eaeef2; border-radius: 4px; padding: 0 6px; font-size: 12px; }
.change.regression { color: var(--fail); font-weight: 600; } .change.improvement { color: var(--pass); font-weight: 600; }
pre { background: #f6f8fa; border-radius: 6px; padding: 8px; white-space: pre-wrap; word-break: break-word; max-height: 320px; overflow: auto; }
.trial { border-left: 3px solid var(--line); padding-left: 10px; margin: 8px 0; }
.filters { display: flex; gap: 16px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; } figure { margin: 0; } figcaption { font-weight: 600; }
svg.chart text { font: 12px system-ui, sans-serif; fill: #1f2328; } svg.chart .track { fill: #eaeef2; }
svg.chart .bar { fill: var(--bar); } svg.chart .mark { stroke: var(--fail); stroke-dasharray: 4 3; } svg.chart .axis { stroke: var(--muted); }
svg.chart .delta.worse { fill: var(--fail); font-weight: 600; } svg.chart .delta.better { fill: var(--pass); font-weight: 600; }
`;

/**
 * The filters: a tag, passed or failed, and (with a baseline) changed cases.
 * Each case row carries `data-tags`, `data-passed` and `data-change`; a row
 * and its details row are hidden together.
 */
export const REPORT_SCRIPT = `
(() => {
  const tag = document.getElementById('filter-tag');
  const status = document.getElementById('filter-status');
  const change = document.getElementById('filter-change');
  const count = document.getElementById('shown-count');
  const apply = () => {
    let shown = 0;
    for (const row of document.querySelectorAll('tr.case')) {
      const tags = JSON.parse(row.dataset.tags || '[]');
      const visible = (tag.value === '' || tags.includes(tag.value)) &&
        (status.value === '' || row.dataset.passed === status.value) &&
        (change === null || change.value === '' || row.dataset.change === change.value);
      row.hidden = !visible;
      const details = row.nextElementSibling;
      if (details !== null && details.classList.contains('details')) details.hidden = !visible;
      if (visible) shown += 1;
    }
    count.textContent = String(shown);
  };
  for (const control of [tag, status, change]) if (control !== null) control.addEventListener('change', apply);
  apply();
})();
`;
