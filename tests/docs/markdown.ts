// Reading the package's Markdown as a reader's browser would: its headings, the anchors GitHub
// gives them, and its links. Code blocks are skipped, since a `#` there is not a heading.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function readRepoFile(path: string): string {
  return readFileSync(`${ROOT}${path}`, 'utf8');
}

/** The files git tracks that exist in the working tree, by repository path. */
export function trackedFiles(): readonly string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && existsSync(join(ROOT, f)));
}

export interface Heading {
  readonly level: number;
  readonly text: string;
  readonly anchor: string;
}

/** The lines of a Markdown text that are prose, with fenced code blocks left out. */
export function proseLines(markdown: string): readonly string[] {
  const lines: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push(line);
  }
  return lines;
}

/** Headings in order, each with the anchor GitHub derives from it (duplicates numbered). */
export function headings(markdown: string): readonly Heading[] {
  const seen = new Map<string, number>();
  const out: Heading[] = [];
  for (const line of proseLines(markdown)) {
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (m === null) continue;
    const text = m[2] ?? '';
    const base = slug(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.push({ level: m[1]?.length ?? 0, text, anchor: count === 0 ? base : `${base}-${count}` });
  }
  return out;
}

/** GitHub's heading anchor: lower case, inline markup and punctuation dropped, spaces to `-`. */
export function slug(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

export interface Link {
  readonly target: string;
  readonly line: number;
}

/** Inline links `[text](target)` outside code, with their 1-based line numbers. */
export function links(markdown: string): readonly Link[] {
  const out: Link[] = [];
  let fenced = false;
  markdown.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      out.push({ target: m[1] ?? '', line: i + 1 });
    }
  });
  return out;
}
