// docs/ci.md's section on publishing reports, read as a host team reads it: its YAML workflows,
// its shell blocks and the words of a shell line. tests/docs/publishing-workflows.test.ts checks
// the commands they run; tests/channels/certified-run.test.ts publishes a certified run's files
// the way the release workflow attaches them.

import { readRepoFile } from './markdown.ts';

const HEADING = '## Publishing reports, and a results matrix anyone can rebuild';

/** The section's text, from its heading to the next of the same level. */
export function publishingSection(): string {
  const page = readRepoFile('docs/ci.md');
  const start = page.indexOf(HEADING);
  if (start < 0) throw new Error(`docs/ci.md has no "${HEADING}"`);
  const rest = page.slice(start + HEADING.length);
  const next = rest.search(/\n## /);
  return next < 0 ? rest : rest.slice(0, next);
}

/** The fenced blocks of `text` in language `lang`, their contents only. */
export function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)]
    .filter((m) => m[1] === lang)
    .map((m) => m[2] ?? '');
}

/** A shell line's words, quotes removed; `${{ ... }}` and `$VAR` stay as written. */
export function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/**
 * The files the release workflow attaches to a release: the operands of its `gh release upload`
 * line after the tag, flags left out, as written (relative to the job's working folder).
 */
export function releaseAttachments(): string[] {
  const [release] = blocks(publishingSection(), 'yaml');
  const line = (release ?? '').split('\n').find((l) => l.includes('gh release upload'));
  if (line === undefined)
    throw new Error("docs/ci.md's release workflow runs no gh release upload");
  const w = words(line.slice(line.indexOf('gh release upload')));
  // gh release upload TAG FILE...: the tag is the fourth word.
  return w.slice(4).filter((word) => !word.startsWith('-'));
}
