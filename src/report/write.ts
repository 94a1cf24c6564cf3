/** A built report on disk: `<data dir>/reports/<id>/`, each file written atomically (a rerun replaces it whole). */
import { join } from 'node:path';
import { atomicWrite, safeName } from '../activities/files';
import type { Report } from './build';

export const reportDir = (dataDir: string, id: string) => join(dataDir, 'reports', safeName(id));

/** Writes every file of the report; returns their paths, report.html first. */
export function writeReport(dir: string, report: Pick<Report, 'files'>): string[] {
  const names = Object.keys(report.files).sort((a, b) => (a === 'report.html' ? -1 : b === 'report.html' ? 1 : a.localeCompare(b)));
  for (const name of names) atomicWrite(join(dir, name), report.files[name]);
  return names.map((name) => join(dir, name));
}
