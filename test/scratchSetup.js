/**
 * Before the whole run: one folder that every test's scratch folders go under (see scratchDir in
 * helpers.ts). Jest's workers inherit the variable; scratchTeardown.js removes the folder after
 * the last test, so a test run leaves nothing in the system's temp folder.
 */
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports = async function scratchSetup() {
  process.env.GRUE_TEST_SCRATCH = mkdtempSync(join(tmpdir(), 'grue-tests-'));
};
