// Prints a one-line total that any CI log reader understands, after Jest's own summary, and the
// slowest test files, so a test that grows slow is seen where it grew.
const path = require('node:path');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const slowest = results.testResults
      .map((file) => ({
        file: path.relative(process.cwd(), file.testFilePath),
        seconds: (file.perfStats.end - file.perfStats.start) / 1000,
      }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 8);
    process.stdout.write(`\nslowest test files: ${slowest.map((s) => `${s.file} ${s.seconds.toFixed(1)} s`).join(', ')}\n`);
    process.stdout.write(`tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
