// The closing line's shape is stated in one words wherever a document or the help restates it
// (CLOSING_LINE_FORMAT), and that shape is the line the suite prints: a regular expression read
// from the stated shape matches the closing line of a passing, a failing and a blocked run, and
// the example docs/report.md shows.

import { describe, expect, it } from 'vitest';
import { HELP } from '../../cli/help.ts';
import type { ReportRow } from '../../lib/report/report.ts';
import {
  CLOSING_LINE_FORMAT,
  closingLineOf,
  runVerdict,
} from '../../lib/report/verdict/run-verdict.ts';
import { hostKey, passingRows, reportWith } from '../channels/support.ts';
import { readRepoFile, trackedFiles } from './markdown.ts';

/** The counts clause as every statement of the shape spells it. */
const COUNTS = 'N passed, N failed, N blocked, N skipped';

/** What reads as a statement of the shape: the counts clause, whatever stands around it. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ');

/** A regular expression for lines of the stated shape. */
function shapeOf(format: string): RegExp {
  const source = format
    .replace(/[.*+?^${}()|\\]/g, '\\$&')
    .replace('RESULT', '(PASS|FAIL|BLOCKED)')
    .replace('[: CAUSE]', '(: .{1,158}?)?')
    .replace(/\bN\b/g, '\\d+')
    .replace('[; LIMITS]', '(; .+?)?')
    .replace('CERTIFICATION', '(certified|not certified: ).*');
  return new RegExp(`^${source}$`);
}

const statements: readonly (readonly [string, string])[] = [
  ['cli/help.ts', HELP] as const,
  ...trackedFiles()
    .filter((f) => f.endsWith('.md') && f !== 'CHANGELOG.md')
    .map((f) => [f, readRepoFile(f)] as const),
].filter(([, text]) => oneLine(text).includes(COUNTS));

describe('the closing line as the documents state it', () => {
  it('is stated in README.md, the help, docs/report.md, the host guide and the contract', () => {
    expect(statements.map(([path]) => path)).toEqual(
      expect.arrayContaining([
        'README.md',
        'cli/help.ts',
        'docs/report.md',
        'docs/host-guide.md',
        'docs/wire-contract.md',
      ]),
    );
  });

  it.each(statements)('%s states it in the one shape, each time', (_path, text) => {
    const flat = oneLine(text);
    const counted = flat.split(COUNTS).length - 1;
    expect(counted).toBeGreaterThan(0);
    expect(flat.split(CLOSING_LINE_FORMAT).length - 1).toBe(counted);
  });
});

describe('the stated shape is the line the suite prints', () => {
  const key = hostKey();
  const shape = shapeOf(CLOSING_LINE_FORMAT);
  const rows = passingRows();
  const first = rows.find((r) => r.fixtureId !== undefined)?.id ?? '';
  const failing = (r: ReportRow): ReportRow =>
    r.id === first
      ? {
          ...r,
          disposition: 'executed-fail',
          reason: 'suite.passed failed',
          findings: [
            {
              rule: 'suite.passed',
              ok: false,
              severity: 'MUST',
              ref: 'RFC 0246 §B',
              message: 'suite passed MUST be false; host reported true',
            },
          ],
        }
      : r;
  const blocked = (r: ReportRow): ReportRow =>
    r.id === first
      ? { ...r, disposition: 'blocked', assertions: 0, findings: [], reason: 'connection reset' }
      : r;

  it.each([
    ['a passing run', rows, /^PASS; /],
    ['a failing run', rows.map(failing), /^FAIL: 1 requirement failed, first suite\.passed in /],
    ['a blocked run', rows.map(blocked), /^BLOCKED: 1 of \d+ blocked \(connection reset\); /],
  ])('%s', (_name, rowsOfRun, lead) => {
    const line = closingLineOf(runVerdict(reportWith(rowsOfRun, key)));
    expect(line).toMatch(shape);
    expect(line).toMatch(lead);
  });

  it("matches docs/report.md's example, its result and cause within 160 characters", () => {
    const page = readRepoFile('docs/report.md');
    const section = page.slice(page.indexOf('## The closing line'));
    const example = /```text\n(.*)\n```/.exec(section)?.[1] ?? '';
    expect(example).toMatch(shape);
    expect(example.split('; ')[0]?.length).toBeLessThanOrEqual(160);
  });

  it('the shape refuses the line as it was before the result led it', () => {
    expect('14 passed, 3 failed, 0 blocked, 0 skipped; not certified: failed').not.toMatch(shape);
  });
});
