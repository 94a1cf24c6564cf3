// Prints a one-line total that any CI log reader understands, after Jest's own summary.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`\ntests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
