/**
 * The floors of src/, bottom to top. A module may import from its own floor and the floors below,
 * never from a floor above, and no import cycle is allowed anywhere. `npm run depcheck` (in CI).
 */
const FLOORS = [
  ['base', '^src/(schemas/|text\\.ts|paths\\.ts|log\\.ts|fileLock\\.ts)'],
  ['engine and llm', '^src/(engine|llm)/'],
  ['memory and metrics', '^src/(memory|telemetry)/'],
  ['agent and experiments', '^src/(agent|experiment)/'],
  ['activities', '^src/activities/'],
  ['workflows and reports', '^src/(workflows|report)/'],
  ['temporal and worker', '^src/(temporal/|worker\\.ts|config\\.ts)'],
  ['cli', '^src/(cli/|client\\.ts)'],
];

const upward = FLOORS.slice(0, -1).map(([name, path], index) => ({
  name: `no-upward-from-${name.replace(/\W+/g, '-')}`,
  comment: `${name} may not import from a floor above it (${FLOORS.slice(index + 1)
    .map(([n]) => n)
    .join(', ')})`,
  severity: 'error',
  from: { path },
  to: {
    path: FLOORS.slice(index + 1)
      .map(([, p]) => `(${p})`)
      .join('|'),
  },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'import cycles make floors meaningless', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'every-module-on-a-floor',
      comment: 'a new top-level folder or file in src/ needs a floor here',
      severity: 'error',
      from: { path: '^src/', pathNot: FLOORS.map(([, p]) => `(${p})`).join('|') },
      to: {},
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
