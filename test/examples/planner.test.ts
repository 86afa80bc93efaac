import { Plan } from 'affordance/planning';

import { run } from '../../examples/planner/main.js';

describe('examples/planner', () => {
  it('should plan, edit the files, undo a half-failed edit, retry and finish with a completed plan', async () => {
    const lines: string[] = [];
    const { response, session, workspace } = await run((line) => lines.push(line));
    const output = lines.join('\n');

    expect(output).toContain(
      '> planning_setup_plan {"objective":"Release version 1.2.0","initialSteps":[',
    );
    expect(output).toContain(
      '  ok: Plan initialised with 3 steps.\n  plan: active, 0 of 3 steps done',
    );
    expect(output).toContain(
      "  ok: 3 lines match '1\\.1\\.0'.\n  | CHANGELOG.md:8: ## [1.1.0] - 2025-01-10\n",
    );
    expect(output).toMatch(
      /> fs_edit \{"path":"CHANGELOG.md".*\n {2}failure: Edit 2 of 2 failed: edit 'CHANGELOG.md': oldText was not found\..* The file is unchanged: the edit before it was undone\./,
    );
    expect(output).toContain(
      "  ok: Read 'CHANGELOG.md', lines 1-5 of 10. Continue with startLine 6.\n  | 1\t# Changelog",
    );
    expect(output).toContain(
      '  failure: Plan must be active. Current status: completed. Call planning_setup_plan to start a new plan.',
    );
    expect(output).toContain('Plan:\n  Objective: Release version 1.2.0\n  Status: completed\n');
    expect(output).toContain("  src/version.ts\n    | export const version = '1.2.0';");
    expect(output).toContain('Done in 9 turns, 18 tool calls (2 refused).');

    expect(await workspace.readText('CHANGELOG.md')).toBe(
      [
        '# Changelog',
        '',
        '## [Unreleased]',
        '',
        '## [1.2.0] - 2025-06-02',
        '',
        '- Render large widget trees twice as fast.',
        '- Fix a crash when a widget has no children.',
        '',
        '## [1.1.0] - 2025-01-10',
        '',
        '- First public release.',
        '',
      ].join('\n'),
    );
    expect(await workspace.readText('README.md')).toContain('Install version 1.2.0');
    const plan = session.slice(Plan).latest();
    expect(plan?.status).toBe('completed');
    expect(plan?.steps.map((step) => [step.stepId, step.status])).toEqual([
      [1, 'done'],
      [2, 'done'],
      [3, 'done'],
      [4, 'done'],
    ]);
    expect(response.text).toMatch(/^Version 1\.2\.0 is ready/);
  });
});
