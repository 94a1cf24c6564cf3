/** After the whole run: the scratch folder scratchSetup.js made, with everything the tests put in it. */
const { rmSync } = require('node:fs');

module.exports = async function scratchTeardown() {
  const root = process.env.GRUE_TEST_SCRATCH;
  if (root) rmSync(root, { recursive: true, force: true });
};
