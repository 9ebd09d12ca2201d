// The citation grammar of the package, and where each citation resolves (docs/wire-contract.md,
// "Citations"). A reader holding only the package must be able to follow every one, so each
// form maps to a heading of a shipped document or to a published file the contract lists.

import { headings, readRepoFile } from './markdown.ts';

export const CONTRACT = 'docs/wire-contract.md';
const RFC_0246 = 'docs/rfc-0246.md';
const RFC_0244 = 'docs/rfc-0244-assumptions.md';
const UPSTREAM = 'docs/upstream.md';

/** A document a citation names, and the section within it (absent for a whole document). */
export interface Citation {
  readonly source: string;
  readonly section?: string;
}

const SECTION = String.raw`§\s*(\d+(?:\.\d+)*|Conformance|[A-Z](?![A-Za-z]))`;
const SOURCE = String.raw`(contract|Contract|RFC \d{4}|COMPATIBILITY\.md|facts|upstream-v2-facts\.md)`;
const PUBLISHED = String.raw`\b(openwop/openwop(?:-sdks)?) +([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*\.[a-z]+)`;

/** Letters that stand for "a section" where the docs explain the grammar (`contract §N`). */
const PLACEHOLDERS: ReadonlySet<string> = new Set(['N', 'X']);

/**
 * Every citation written in a text: `<source> §X` with any `, §Y`, `and §Y` or `–§Y` that
 * continues it, a bare `RFC NNNN`, and a published file `<repository> <path>`.
 */
export function citationsIn(text: string): readonly Citation[] {
  const out: Citation[] = [];
  const flat = text.replace(/\s+/g, ' ');
  const cited = new RegExp(`${SOURCE} ${SECTION}((?:(?:,| and| or|/| ?[–-]) ?${SECTION})*)`, 'g');
  for (const m of flat.matchAll(cited)) {
    const source = normalise(m[1] ?? '');
    const sections = [
      m[2] ?? '',
      ...[...(m[3] ?? '').matchAll(new RegExp(SECTION, 'g'))].map((x) => x[1] ?? ''),
    ];
    for (const section of sections) {
      if (!PLACEHOLDERS.has(section)) out.push({ source, section });
    }
  }
  for (const m of flat.matchAll(/\bRFC (\d{4})(?! ?§)/g)) out.push({ source: `RFC ${m[1]}` });
  for (const m of flat.matchAll(/upstream-v2-facts\.md(?! ?§)/g)) out.push({ source: m[0] });
  for (const m of flat.matchAll(new RegExp(PUBLISHED, 'g'))) {
    out.push({ source: m[1] ?? '', section: m[2] ?? '' });
  }
  return out;
}

function normalise(source: string): string {
  return source === 'Contract' ? 'contract' : source;
}

/**
 * A `ref` or `clause` read strictly: a comma-separated list in which every part is a citation
 * (`contract §4`, `RFC 0246 §A`, a continuing `§B`, `RFC 0081`, a published file), optionally
 * marked `[0244-assumed]`. Returns the citations, or the first part that is none of these.
 */
export function parseRef(ref: string): { citations: readonly Citation[] } | { bad: string } {
  const citations: Citation[] = [];
  let last: string | undefined;
  for (const raw of ref.split(',')) {
    const part = raw.trim().replace(/ \[0244-assumed\]$/, '');
    const whole = new RegExp(`^${SOURCE} ${SECTION}$`).exec(part);
    const more = new RegExp(`^${SECTION}$`).exec(part);
    const bare = /^RFC \d{4}$/.exec(part);
    const published = new RegExp(`^${PUBLISHED}$`).exec(part);
    if (whole !== null) {
      last = normalise(whole[1] ?? '');
      citations.push({ source: last, section: whole[2] ?? '' });
    } else if (more !== null && last !== undefined) {
      citations.push({ source: last, section: more[1] ?? '' });
    } else if (bare !== null) {
      last = bare[0];
      citations.push({ source: last });
    } else if (published !== null) {
      last = undefined;
      citations.push({ source: published[1] ?? '', section: published[2] ?? '' });
    } else {
      return { bad: part };
    }
  }
  return { citations };
}

/** Where a citation leads, or why it leads nowhere. */
export function resolve(citation: Citation): { ok: true; to: string } | { ok: false; why: string } {
  const { source, section } = citation;
  if (source === 'facts' || source === 'upstream-v2-facts.md') {
    return { ok: false, why: 'the facts notes do not ship; cite the published file by its path' };
  }
  if (source === 'contract') {
    return section === undefined
      ? { ok: true, to: CONTRACT }
      : headingIn(CONTRACT, (t) => t.startsWith(`${section}. `) || t.startsWith(`${section} `));
  }
  if (source.startsWith('openwop/')) return publishedFile(source, section ?? '');
  if (source === 'RFC 0246')
    return sectionIn(RFC_0246, section, (s, t) => t.startsWith(`§${s} `) || t === `§${s}`);
  if (source === 'RFC 0244') {
    return sectionIn(RFC_0244, section, (s, t) => t.startsWith(`RFC 0244 §${s} `));
  }
  return sectionIn(UPSTREAM, section, (s, t) =>
    s === undefined ? t === source || t.startsWith(`${source} `) : t.startsWith(`${source} §${s}`),
  );
}

function sectionIn(
  path: string,
  section: string | undefined,
  matches: (section: string | undefined, heading: string) => boolean,
): { ok: true; to: string } | { ok: false; why: string } {
  if (section === undefined && path !== UPSTREAM) return { ok: true, to: path };
  return headingIn(path, (t) => matches(section, t));
}

function headingIn(
  path: string,
  matches: (heading: string) => boolean,
): { ok: true; to: string } | { ok: false; why: string } {
  const found = headingsOf(path).find((h) => matches(h.text));
  return found === undefined
    ? { ok: false, why: `${path} has no heading for it` }
    : { ok: true, to: `${path}#${found.anchor}` };
}

const headingCache = new Map<string, ReturnType<typeof headings>>();

function headingsOf(path: string): ReturnType<typeof headings> {
  let found = headingCache.get(path);
  if (found === undefined) {
    found = headings(readRepoFile(path));
    headingCache.set(path, found);
  }
  return found;
}

/** A published file resolves when the contract's source table lists it for that repository. */
function publishedFile(
  repo: string,
  path: string,
): { ok: true; to: string } | { ok: false; why: string } {
  const table = readRepoFile(CONTRACT);
  const row = new RegExp(`^\\| \`${escape(repo)}\` +\\| \`${escape(path)}\` +\\|`, 'm');
  return row.test(table)
    ? { ok: true, to: `${CONTRACT}#published-sources` }
    : { ok: false, why: `${CONTRACT} "Published sources" does not list it` };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export function describe(citation: Citation): string {
  const { source, section } = citation;
  if (section === undefined) return source;
  return source.startsWith('openwop/') ? `${source} ${section}` : `${source} §${section}`;
}
