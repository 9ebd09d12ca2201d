// Strings a host or a report author chose, built to forge or inject: a line break that prints a
// fake `certified:` line, terminal escape sequences, a tag that GitHub would render, a name that
// mixes Latin and Cyrillic letters. Each sink shows them as data.

import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { implementationLabel } from '../../lib/report/verdict/certification.ts';
import { renderMarkdown } from '../../lib/report/render/markdown.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { runVerdict } from '../../lib/report/verdict/run-verdict.ts';
import { consoleText, markdownCode, mixedScripts } from '../../lib/untrusted-text.ts';
import { cli, removeDir, scratchDir } from '../cli/support.ts';

const LEGACY = join(
  import.meta.dirname,
  '..',
  'report',
  'legacy',
  'report-954060f-embedded.json.gz',
);
const ESC = '\u001b';
const FORGED_VERSION = `0.1.0\ncertified: acme-host 9.9.9 ${ESC}[32m`;
const FORGED_NAME = `acme${ESC}[2J\r\ncertified: acme-host`;
const TAG = '<img src=x onerror=alert(1)>';

let dir = '';
let genuine: EvalGateReport;
beforeAll(async () => {
  dir = await scratchDir();
  genuine = JSON.parse(gunzipSync(await readFile(LEGACY)).toString('utf8')) as EvalGateReport;
});
afterAll(async () => {
  await removeDir(dir);
});

/** The genuine report with its suite version and advertised name replaced. */
function edited(version: string, name: string): EvalGateReport {
  const copy = structuredClone(genuine) as unknown as {
    suite: { version: string };
    target: { implementation: { name: string } };
  };
  copy.suite.version = version;
  copy.target.implementation.name = name;
  return copy as unknown as EvalGateReport;
}

async function written(name: string, report: EvalGateReport): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(report));
  return path;
}

describe('host text at the console', () => {
  it('verify prints a forged version and name as one line each, escaped, with no fake certified: line', async () => {
    const plain = await cli(['verify', await written('plain.json', genuine), '--offline']);
    const forged = edited(FORGED_VERSION, FORGED_NAME);
    const run = await cli(['verify', await written('forged.json', forged), '--offline']);
    const printed = [...run.stdout, ...run.stderr];
    expect(printed.join('\n')).toContain('0.1.0\\ncertified: acme-host 9.9.9 \\x1b[32m');
    for (const line of printed) {
      expect(line).not.toContain(ESC);
      expect(line).not.toMatch(/[\r\n]/);
      expect(line).not.toMatch(/^certified:/);
    }
    // The forgery adds problems (its digests no longer match), never a line of its own making.
    expect(run.stdout.at(-1)).toMatch(/^(?!certified)/);
    expect(plain.stdout.length).toBeGreaterThan(0);
  });

  it('consoleText shows every control, reordering and line-breaking character escaped', () => {
    expect(consoleText(`a\nb\r\tc${ESC}[0m\u0085\u202e\u2028`)).toBe(
      'a\\nb\\r\\tc\\x1b[0m\\x85\\u202e\\u2028',
    );
    expect(consoleText('acme-host 1.2.0 (ünïcode 名前)')).toBe('acme-host 1.2.0 (ünïcode 名前)');
  });
});

describe('names', () => {
  it('a name mixing Latin and Cyrillic letters is flagged wherever it is labelled', () => {
    // The first letter is Cyrillic U+0430, which reads as a Latin a.
    expect(implementationLabel({ name: '\u0430cme-host', version: '1.2.0' })).toBe(
      '\u0430cme-host 1.2.0 (mixed scripts: Latin+Cyrillic)',
    );
    expect(implementationLabel({ name: 'acme-host', version: '1.2.0' })).toBe('acme-host 1.2.0');
    expect(mixedScripts('Ωmega-host')).toBe('Latin+Greek');
    expect(mixedScripts('хост')).toBeUndefined();
    expect(mixedScripts('acme 名前')).toBeUndefined();
  });

  it('a name with a line break or a quote is shown quoted and escaped, never as two lines', () => {
    expect(implementationLabel({ name: FORGED_NAME, version: '1.0' })).toBe(
      '"acme\\x1b[2J\\r\\ncertified: acme-host" 1.0',
    );
    expect(implementationLabel({ name: 'a "b"' })).toBe('"a \\"b\\""');
  });
});

describe('host text in Markdown, HTML and the matrix', () => {
  it('eval-gate-summary.md shows a tag in a name as text, in a code span', () => {
    const report = edited('0.1.0', TAG);
    const markdown = renderMarkdown(report, runVerdict(report, report.certification));
    // Inside a code span GitHub renders a tag as its text; outside one it would render it.
    const outsideCode = markdown.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, '');
    expect(outsideCode).not.toContain('<img');
    expect(markdown).toContain(markdownCode(`"${TAG}" 0.2.0`));
    expect(markdownCode('a`b|c')).toBe('``a`b\\|c``');
  });

  it('matrix writes no raw escape byte and no tag into matrix.md or index.html', async () => {
    const hostile = await written(
      'matrix-hostile.json',
      edited(FORGED_VERSION, `${TAG}${FORGED_NAME}`),
    );
    const mixed = await written('matrix-mixed.json', edited('0.1.0', '\u0430cme-host'));
    const out = join(dir, 'matrix');
    const run = await cli(['matrix', hostile, mixed, '--out', out, '--offline']);
    // Both reports were edited after they were written, so neither verifies: the matrix is
    // written all the same, and says so with exit 1.
    expect(run.code).toBe(1);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    for (const line of run.stdout) {
      expect(line).not.toContain(ESC);
      expect(line).not.toMatch(/[\r\n]/);
    }
    expect(run.stdout.join('\n')).toContain('(mixed scripts: Latin+Cyrillic)');
    for (const file of ['matrix.md', 'index.html']) {
      const text = await readFile(join(out, file), 'utf8');
      expect(text, file).not.toContain(ESC);
      expect(text, file).not.toContain('<img');
    }
    expect(await readFile(join(out, 'matrix.md'), 'utf8')).toContain(
      'mixed scripts: Latin+Cyrillic',
    );
  });
});
