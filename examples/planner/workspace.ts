import { InMemoryFilesystem } from 'affordance';

/** The project the planner works on: a version string in two places and a changelog to cut. */
export function releaseWorkspace(): InMemoryFilesystem {
  return new InMemoryFilesystem({
    root: '/workspace',
    files: {
      'README.md': '# Widgets\n\nInstall version 1.1.0 with `npm install widgets`.\n',
      'src/version.ts': "export const version = '1.1.0';\n",
      'CHANGELOG.md': [
        '# Changelog',
        '',
        '## [Unreleased]',
        '',
        '- Faster rendering of large widget trees.',
        '- Fix a crash when a widget has no children.',
        '',
        '## [1.1.0] - 2025-01-10',
        '',
        '- First public release.',
        '',
      ].join('\n'),
    },
  });
}
