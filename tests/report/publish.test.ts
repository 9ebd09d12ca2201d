// publishRun writes a report only when it may: the key is looked for in the very text the report
// file would hold, and a report that holds it is refused with nothing written.

import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SuiteRun } from '../../lib/decide/run-suite.ts';
import { readConfig, type SuiteConfig } from '../../lib/env.ts';
import { LEGS } from '../../lib/legs.ts';
import { publishRun } from '../../lib/report/publish.ts';
import { PREDICATE_TYPE, STATEMENT_FILE } from '../../lib/report/render/statement.ts';
import { validate } from '../../lib/schemas.ts';

const KEY = 'publish-test-key-0246-abcdef';

/** Every leg blocked; the first leg's reason quotes `quoted`, as a careless host message might. */
function runQuoting(quoted: string): SuiteRun {
  return {
    outcomes: LEGS.map((leg, i) => ({
      requirement: leg.id,
      disposition: 'blocked' as const,
      assertions: 0,
      reason: i === 0 ? `the host said: ${quoted}` : 'no host to drive',
      findings: [],
      durationMs: 0,
    })),
    discovery: undefined,
    hostChecks: undefined,
    startedAt: '2026-12-02T09:00:00.000Z',
    finishedAt: '2026-12-02T09:00:01.000Z',
  };
}

describe('publishRun', () => {
  let dir = '';
  let config: SuiteConfig;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'publish-'));
    config = readConfig({ OPENWOP_REPORT_DIR: dir }, { envFile: false });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a report whose text holds the key, and writes nothing', async () => {
    const published = await publishRun(runQuoting(KEY), config, {
      baseUrl: 'http://127.0.0.1:9',
      embedded: false,
      apiKey: KEY,
    });
    expect(published).toEqual({
      ok: false,
      problem: 'the report still holds the API key after scrubbing',
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('writes the report, its JUnit, its Markdown, its HTML and its in-toto statement when the key is nowhere in it', async () => {
    const published = await publishRun(runQuoting('something else'), config, {
      baseUrl: 'http://127.0.0.1:9',
      embedded: false,
      apiKey: KEY,
    });
    expect(published.ok).toBe(true);
    expect((await readdir(dir)).sort()).toEqual([
      'eval-gate-junit.xml',
      'eval-gate-report.html',
      'eval-gate-report.intoto.json',
      'eval-gate-report.json',
      'eval-gate-summary.md',
    ]);
  });

  it('writes an in-toto statement that is schema-valid, whose subject is the report file by its digest', async () => {
    const published = await publishRun(runQuoting('nothing'), config, {
      baseUrl: 'http://127.0.0.1:9',
      embedded: false,
      apiKey: KEY,
    });
    if (!published.ok) throw new Error(published.problem);
    expect(published.files).toContain(join(dir, STATEMENT_FILE));
    const statement = JSON.parse(await readFile(join(dir, STATEMENT_FILE), 'utf8')) as {
      subject: { name: string; digest: { sha256: string } }[];
      predicateType: string;
      predicate: { certification: unknown; suite: unknown; target: unknown };
    };
    expect(validate('eval-gate-statement', statement)).toEqual([]);
    const bytes = await readFile(join(dir, 'eval-gate-report.json'));
    expect(statement.subject).toEqual([
      {
        name: 'eval-gate-report.json',
        digest: { sha256: createHash('sha256').update(bytes).digest('hex') },
      },
    ]);
    expect(statement.predicateType).toBe(PREDICATE_TYPE);
    expect(statement.predicate.certification).toEqual(published.report.certification);
    expect(statement.predicate.suite).toEqual(published.report.suite);
    expect(statement.predicate.target).toEqual(published.report.target);
  });
});
