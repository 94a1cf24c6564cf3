/** `grue report <suite id> [<suite id>…]`: the leaderboard page of finished suites, side by side. */
import { existsSync } from 'node:fs';
import { ResultsFileError } from '../activities/files';
import { suiteResultsPath } from '../activities/suiteFiles';
import { BaselinesFileError } from '../report/suite/baselines';
import { buildSuiteReport, loadSuiteReportData, SuiteNotFoundError } from '../report/suite/build';
import { reportDir, writeReport } from '../report/write';
import { UsageError } from './args';

export const isSuite = (dataDir: string, id: string) => existsSync(suiteResultsPath(dataDir, id));

export function printPaths(paths: string[]): void {
  process.stdout.write(
    `report: ${paths[0]}\n${paths
      .slice(1)
      .map((p) => `  ${p}\n`)
      .join('')}`,
  );
}

export async function writeSuiteReport(dataDir: string, ids: string[], opts: { out?: string; baselines?: string }): Promise<void> {
  let data;
  try {
    data = loadSuiteReportData(dataDir, ids, opts.baselines);
  } catch (err) {
    if (err instanceof SuiteNotFoundError || err instanceof ResultsFileError || err instanceof BaselinesFileError)
      throw new UsageError(err.message);
    throw err;
  }
  const files = await buildSuiteReport(data);
  const paths = writeReport(opts.out ?? reportDir(dataDir, ids.join('--vs--')), { files });
  for (const suite of data.suites)
    process.stdout.write(
      `${suite.suiteId}: mean normalised ${suite.summary.meanNormalised?.toFixed(3) ?? '-'} over ${suite.summary.averaged} games\n`,
    );
  printPaths(paths);
}
