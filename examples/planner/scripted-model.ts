import type { ScriptedTurn } from 'affordance/testing';

/**
 * The model's side of the offline run, scripted: it plans the release, finds
 * the version strings, edits them, gets the second edit of a changelog call
 * wrong (the heading has brackets) so the whole call is undone, reads the file
 * and retries, discovers one more step, completes
 * the plan, and is refused when it tries to extend the completed plan.
 */
export const scriptedModel: readonly ScriptedTurn[] = [
  {
    text: 'I will outline the release before touching any file.',
    toolCalls: [
      {
        name: 'planning_setup_plan',
        arguments: {
          objective: 'Release version 1.2.0',
          initialSteps: [
            'Find every place that states the version',
            'Bump the version to 1.2.0',
            'Turn the Unreleased changelog section into 1.2.0',
          ],
        },
      },
    ],
  },
  {
    toolCalls: [
      { name: 'planning_update_step', arguments: { stepId: 1, status: 'in_progress' } },
      { name: 'fs_grep', arguments: { pattern: '1\\.1\\.0', glob: '**/*.{ts,md}' } },
    ],
  },
  {
    text: 'The version appears in README.md and src/version.ts; the changelog line is history.',
    toolCalls: [
      { name: 'planning_update_step', arguments: { stepId: 1, status: 'done' } },
      { name: 'planning_update_step', arguments: { stepId: 2, status: 'in_progress' } },
      {
        name: 'fs_edit',
        arguments: { path: 'src/version.ts', edits: [{ oldText: "'1.1.0'", newText: "'1.2.0'" }] },
      },
      {
        name: 'fs_edit',
        arguments: {
          path: 'README.md',
          edits: [{ oldText: 'Install version 1.1.0', newText: 'Install version 1.2.0' }],
        },
      },
    ],
  },
  {
    toolCalls: [
      { name: 'planning_update_step', arguments: { stepId: 2, status: 'done' } },
      { name: 'planning_update_step', arguments: { stepId: 3, status: 'in_progress' } },
      {
        name: 'fs_edit',
        arguments: {
          path: 'CHANGELOG.md',
          edits: [
            {
              oldText: '- Faster rendering of large widget trees.',
              newText: '- Render large widget trees twice as fast.',
            },
            { oldText: '## Unreleased\n', newText: '## [Unreleased]\n\n## [1.2.0]\n' },
          ],
        },
      },
    ],
  },
  {
    text: 'The heading is not what I assumed; let me look at the file.',
    toolCalls: [{ name: 'fs_read', arguments: { path: 'CHANGELOG.md', lineCount: 5 } }],
  },
  {
    toolCalls: [
      {
        name: 'fs_edit',
        arguments: {
          path: 'CHANGELOG.md',
          edits: [
            {
              oldText: '- Faster rendering of large widget trees.',
              newText: '- Render large widget trees twice as fast.',
            },
            {
              oldText: '## [Unreleased]\n',
              newText: '## [Unreleased]\n\n## [1.2.0] - 2025-06-02\n',
            },
          ],
        },
      },
      {
        name: 'planning_add_step',
        arguments: { steps: ['Check that no stale 1.1.0 reference is left'] },
      },
    ],
  },
  {
    toolCalls: [
      { name: 'planning_update_step', arguments: { stepId: 3, status: 'done' } },
      { name: 'planning_update_step', arguments: { stepId: 4, status: 'in_progress' } },
      { name: 'fs_grep', arguments: { pattern: '1\\.1\\.0' } },
    ],
  },
  {
    text: 'Only the 1.1.0 changelog entry mentions the old version, as it should.',
    toolCalls: [
      { name: 'planning_update_step', arguments: { stepId: 4, status: 'done' } },
      { name: 'planning_add_step', arguments: { steps: ['Tag the release'] } },
    ],
  },
  {
    text: 'Version 1.2.0 is ready: the version string and README are bumped and the changelog has a 1.2.0 section. Tagging is left to a person, since the plan is complete.',
  },
];
