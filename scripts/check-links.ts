/**
 * npm run docs:links
 *
 * Checks every relative link and image in README.md and docs/**\/*.md: the target must exist
 * inside the repository (a link that leaves the clone breaks for anyone who has only the clone),
 * and a `#fragment` must name a heading of the target Markdown file, slugged as GitHub slugs it.
 * Links to web addresses are not fetched. Prints each broken link as file:line and exits 1 if any.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

interface Link {
  file: string;
  line: number;
  target: string;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** The lines that are prose: fenced code blocks are blanked (their brackets are code, not links). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

function linksOf(file: string): Link[] {
  const links: Link[] = [];
  proseLines(readFileSync(file, 'utf8')).forEach((text, index) => {
    const prose = text.replace(/`[^`]*`/g, ''); // inline code spans are not links either
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ file, line: index + 1, target: match[1] });
    }
  });
  return links;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

function problemWith(link: Link): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return null; // http:, https:, mailto:
  const [pathPart, fragment] = link.target.split('#', 2);
  const target = pathPart ? resolve(dirname(link.file), decodeURIComponent(pathPart)) : link.file;
  if (relative(ROOT, target).startsWith('..')) return 'points outside the repository';
  if (!existsSync(target)) return 'no such file';
  if (fragment && target.endsWith('.md') && !anchorsOf(target).has(fragment.toLowerCase())) {
    return `no heading #${fragment} in ${relative(ROOT, target)}`;
  }
  return null;
}

function main(): void {
  const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
  const links = files.flatMap(linksOf);
  const broken = links.flatMap((link) => {
    const problem = problemWith(link);
    return problem ? [`${relative(ROOT, link.file)}:${link.line}: ${link.target} — ${problem}`] : [];
  });
  for (const line of broken) console.error(line);
  console.log(`docs:links: ${links.length} links in ${files.length} files, ${broken.length} broken`);
  if (broken.length) process.exitCode = 1;
}

main();
