/**
 * Four projects. `unit`: pure and in-process tests, no Temporal dev server and no embedded model,
 * for use while working (`npm run test:fast`, under 2 minutes on 2 cores). `games`: whole games
 * played in-process or through a spawned `grue game` — valid-action searches along walkthroughs,
 * the probe threads, ground truth found by experiment — minutes of engine time, no server.
 * `platform`: everything that needs the dev server, the embedded model, a spawned grue talking to
 * Temporal, or replays a whole suite; its global setup builds the Temporal CLI and fetches the
 * model once. `servers`: a real LLM server (see SERVERS). `npm test` runs the first three together,
 * then `servers` alone.
 *
 * ts-jest compiles each file on its own (isolatedModules): types are checked by `npm run
 * typecheck`, not again by every test run.
 */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] };

/** Test files of the platform project, as regular expressions on their path from the repository root. */
const PLATFORM = [
  'test/platform/.*\\.test\\.ts$',
  'test/temporal/.*\\.test\\.ts$',
  'test/cli/(experiment|platform|profile|thoughts)\\.test\\.ts$',
  'test/llm/(embedded|embeddedTools|openaiProvider)\\.test\\.ts$',
  'test/engine/jerichoSuite\\.test\\.ts$',
];

/**
 * Test files of the servers project: a real LLM server's whole episodes, timed by the server's
 * speed. `npm test` runs it on its own after the other three, with both cores: run beside the
 * other projects' Temporal episodes, a call could wait past its timeouts (a CI run's knowledge
 * update did) and the test measured the machine's load, not the server.
 */
const SERVERS = ['test/llm/llamaCppServer\\.test\\.ts$'];

/** Test files of the games project. */
const GAMES = [
  'test/engine/(validActions|validActionsSuite|noBinding|probePool|groundTruth|jerichoGames|doom)\\.test\\.ts$',
  'test/cli/game\\.test\\.ts$',
  'test/bench/(puzzleStates|exploreResume)\\.test\\.ts$',
  'test/eval/oracleStates\\.test\\.ts$',
];

const common = { testEnvironment: 'node', roots: ['<rootDir>/test'], transform };

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 120000,
  // Engine tests are CPU-bound; two workers match the machine and keep timings stable.
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/reporters/summary.js'],
  // Every test's scratch folders go under one folder, removed when the run ends.
  globalSetup: '<rootDir>/test/scratchSetup.js',
  globalTeardown: '<rootDir>/test/scratchTeardown.js',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...[...PLATFORM, ...GAMES, ...SERVERS].map((p) => `/${p}`)],
    },
    { ...common, displayName: 'games', testRegex: GAMES.map((p) => `/${p}`) },
    { ...common, displayName: 'platform', testRegex: PLATFORM.map((p) => `/${p}`), globalSetup: '<rootDir>/test/globalSetup.ts' },
    { ...common, displayName: 'servers', testRegex: SERVERS.map((p) => `/${p}`), globalSetup: '<rootDir>/test/globalSetup.ts' },
  ],
};
