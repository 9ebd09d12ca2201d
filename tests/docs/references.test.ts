// Every reference a reader of the package meets resolves inside the package, or to a published
// file the contract lists: finding refs, defect clauses, citations in docs, schemas and code, and
// relative Markdown links with their anchors. Each failure names the reference and where it sits.

import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe as group, expect, it } from 'vitest';

import { hostFaultFinding } from '../../lib/decide/decide.ts';
import { LEGS } from '../../lib/legs.ts';
import { judgeGatedFieldsShape } from '../../lib/witness/shape-leg.ts';
import { RULES } from '../../lib/witness/rules.ts';
import { DEFECTS } from '../../reference-host/defects.ts';
import { citationsIn, describe, parseRef, resolve, type Citation } from './citations.ts';
import { headings, links, ROOT, readRepoFile, trackedFiles } from './markdown.ts';

/** Tracked files left out of the text scan, each with its reason; an entry must still exist. */
const NOT_SCANNED: Readonly<Record<string, string>> = {
  'docs/falsifiability.md': 'rendered from the defect clauses, which are checked at their source',
  'lib/generated/fixture-validator.cjs':
    'compiled from schemas/, which are checked at their source',
  'lib/generated/validators.cjs': 'compiled from schemas/, which are checked at their source',
  'mutation/stryker-incremental.json': "Stryker's cache of old source text, not read by anyone",
  'mutation/stryker-decide-incremental.json':
    "Stryker's cache of old source text, not read by anyone",
  'mutation/stryker-observe-incremental.json':
    "Stryker's cache of old source text, not read by anyone",
  'package-lock.json': 'dependency metadata',
  'tests/docs/citations.ts': 'spells out the grammar, including the forms it refuses',
  'tests/docs/references.test.ts': 'holds the refused forms as test cases',
};

const SCANNED = /\.(md|ts|mjs|cjs|js|json|yml|yaml)$/;

/** The refs and clauses the code produces, each with the place a reader would meet it. */
function producedRefs(): readonly { where: string; ref: string }[] {
  return [
    ...RULES.map((r) => ({ where: `rule ${r.id}`, ref: r.ref })),
    ...LEGS.map((l) => ({ where: `leg ${l.id}`, ref: l.ref })),
    ...judgeGatedFieldsShape().map((f) => ({ where: `finding ${f.rule}`, ref: f.ref })),
    { where: 'finding run.served', ref: hostFaultFinding('create', 'refused').ref },
    ...DEFECTS.map((d) => ({ where: `defect ${d.name}`, ref: d.clause })),
  ];
}

/** `ref:`, `clause:` and `…REF =` literals in the code, so a producer added later is checked too. */
function literalRefs(files: readonly string[]): readonly { where: string; ref: string }[] {
  const out: { where: string; ref: string }[] = [];
  for (const file of files.filter((f) => /^(lib|cli|reference-host)\/.*\.ts$/.test(f))) {
    const text = readRepoFile(file);
    for (const m of text.matchAll(/\b(?:ref|clause|[A-Z_]*REF) *[:=] *'([^']*)'/g)) {
      out.push({ where: `${file}: ${m[0]}`, ref: m[1] ?? '' });
    }
  }
  return out;
}

function unresolved(citations: readonly Citation[]): readonly string[] {
  return citations.flatMap((c) => {
    const r = resolve(c);
    return r.ok ? [] : [`${describe(c)} (${r.why})`];
  });
}

group('every reference resolves to something the package ships', () => {
  const files = trackedFiles();

  it('every finding ref and defect clause is a list of citations, each resolving', () => {
    const refs = [...producedRefs(), ...literalRefs(files)];
    expect(refs.length).toBeGreaterThan(RULES.length);
    const problems = refs.flatMap(({ where, ref }) => {
      const parsed = parseRef(ref);
      if ('bad' in parsed) return [`${where}: "${ref}": "${parsed.bad}" is not a citation`];
      return unresolved(parsed.citations).map((u) => `${where}: "${ref}": ${u}`);
    });
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('every citation in the docs, the schemas and the code resolves', () => {
    const scanned = files.filter((f) => SCANNED.test(f) && !(f in NOT_SCANNED));
    expect(scanned).toContain('docs/wire-contract.md');
    const problems = scanned.flatMap((file) =>
      unresolved(citationsIn(readRepoFile(file))).map((u) => `${file}: ${u}`),
    );
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('every relative link in the docs and README leads to a file, and every anchor to a heading', () => {
    const pages = files.filter((f) => f === 'README.md' || /^docs\/[^/]+\.md$/.test(f));
    const problems = pages.flatMap((page) =>
      links(readRepoFile(page)).flatMap(({ target, line }) => {
        const why = brokenLink(page, target);
        return why === null ? [] : [`${page}:${line}: ${target}: ${why}`];
      }),
    );
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('the list of files left out of the scan names only files that exist', () => {
    const missing = Object.keys(NOT_SCANNED).filter((f) => !files.includes(f));
    expect(missing, `no longer tracked, drop from NOT_SCANNED: ${missing.join(', ')}`).toEqual([]);
  });
});

function brokenLink(page: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const [path = '', anchor] = target.split('#', 2);
  const file = path === '' ? page : normalize(join(dirname(page), path));
  if (file.startsWith('..')) return 'leads outside the package';
  if (!existsSync(join(ROOT, file))) return `no file ${file}`;
  if (anchor === undefined || anchor === '' || !file.endsWith('.md')) return null;
  const text = readRepoFile(file);
  // An anchor is a heading's, or an explicit `<a id>` (a traced sentence's, docs/traceability.md).
  const found =
    headings(text).some((h) => h.anchor === anchor) || text.includes(`<a id="${anchor}"></a>`);
  return found ? null : `${file} has no heading or <a id> with anchor #${anchor}`;
}

group('the resolver refuses what a reader could not follow', () => {
  const resolves = (text: string): boolean[] => citationsIn(text).map((c) => resolve(c).ok);

  it('resolves each form to its shipped heading or listed file', () => {
    expect(citationsIn('see contract §4 and §9.')).toEqual([
      { source: 'contract', section: '4' },
      { source: 'contract', section: '9' },
    ]);
    expect(resolve({ source: 'contract', section: '4' })).toEqual({
      ok: true,
      to: 'docs/wire-contract.md#4-grading',
    });
    expect(resolves('RFC 0246 §A/§D, RFC 0246 §Conformance, RFC 0244 §D, RFC 0081 §F')).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(resolves('`openwop/openwop spec/v2/errors.json`, RFC 0023')).toEqual([true, true]);
  });

  it('refuses unshipped notes, missing sections, unknown RFCs and unlisted files', () => {
    const refused = [
      'facts §3',
      'upstream-v2-facts.md',
      'contract §11',
      'RFC 0244 §C',
      'RFC 0246 §E',
      'RFC 9999',
      'RFC 0081 §Z',
      'openwop/openwop schemas/v2/not-published.schema.json',
    ];
    for (const text of refused) expect(resolves(text), text).toEqual([false]);
  });

  it('reads a ref strictly: every comma-separated part must be a citation', () => {
    expect(parseRef('RFC 0246 §A, §B, §C')).toEqual({
      citations: ['A', 'B', 'C'].map((section) => ({ source: 'RFC 0246', section })),
    });
    expect(parseRef('contract §7 [0244-assumed]')).toEqual({
      citations: [{ source: 'contract', section: '7' }],
    });
    expect(parseRef('RFC 0081 summary, contract §4')).toEqual({ bad: 'RFC 0081 summary' });
    expect(parseRef('§4')).toEqual({ bad: '§4' });
  });

  it('refuses a link to a missing file or a missing anchor', () => {
    expect(brokenLink('README.md', 'docs/wire-contract.md#4-grading')).toBeNull();
    expect(brokenLink('docs/host-guide.md', 'wire-contract.md#no-such-heading')).toMatch(/anchor/);
    expect(brokenLink('docs/host-guide.md', 'nowhere.md')).toMatch(/no file docs\/nowhere.md/);
    expect(brokenLink('docs/host-guide.md', '../../outside.md')).toMatch(/outside/);
  });
});
