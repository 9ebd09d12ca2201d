// `verify` compares every member a run writes without a comparer written for it: the replay
// rebuilds the whole report with the run's own code (lib/report/verify/replay.ts) and one walker compares
// the two (lib/report/verify/json-diff.ts). So this test edits one leaf of each shape of member in a real
// report, one at a time, and asks that verify notice. The only members it may not notice are the
// facts nothing derives and no digest of an unsigned report covers, listed below with the reason;
// a member added to the report tomorrow is either rebuilt (and noticed, with no change here) or a
// new fact, which fails this test until it is listed and its reason given.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { reportShapeProblem, verifyReport } from '../../cli/verify.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { cli, LEAKY_KEY, removeDir, scratchDir } from './support.ts';
import { withLeafChanged, type LeafPath } from './leaf-edit.ts';

/**
 * What an unsigned report states that the replay takes as given: nothing decides these, and no
 * digest covers them. A signature covers them (signature.reportDigest), and a certifier reads the
 * referee and the target against the live host, not against the report (lib/report/verify/anchor.ts).
 */
const FACTS: Readonly<Record<string, string>> = {
  'suite.name': 'the referee: anchored by verify against this suite, not replayed',
  'suite.version': 'the referee: anchored by verify against this suite, not replayed',
  'suite.judgingDigest': 'the referee: anchored by verify against this suite, not replayed',
  'target.baseUrl': 'where the run was pointed; a certifier reads that host live',
  startedAt: 'when the run began; read only for a baseline entry’s expiry, absent here',
  finishedAt: 'when the run ended; read only against a retired key, absent here',
};

let dir = '';
let report: EvalGateReport;

beforeAll(async () => {
  dir = await scratchDir();
  const host = await startReferenceHost({ apiKey: LEAKY_KEY });
  try {
    const run = await cli(
      ['run', '--base-url', host.url, '--report-dir', dir, '--impl', 'openwop-reference-host'],
      { OPENWOP_API_KEY: LEAKY_KEY },
    );
    expect(run.code).toBe(0);
  } finally {
    await host.close();
  }
  report = JSON.parse(await readFile(join(dir, 'eval-gate-report.json'), 'utf8')) as EvalGateReport;
});
afterAll(async () => {
  await removeDir(dir);
});

/** The first leaf of each shape of member: indices and map keys of the same kind are one shape. */
function leavesByShape(value: unknown): Map<string, readonly (string | number)[]> {
  const shapes = new Map<string, readonly (string | number)[]>();
  const walk = (v: unknown, at: readonly (string | number)[], shape: string): void => {
    if (Array.isArray(v)) {
      v.forEach((item: unknown, i) => walk(item, [...at, i], `${shape}[*]`));
    } else if (typeof v === 'object' && v !== null) {
      const mapOfFiles = shape === 'digests.fixtures' || shape === 'digests.schemas';
      for (const [key, item] of Object.entries(v)) {
        const name = mapOfFiles ? '*' : key;
        walk(item, [...at, key], shape === '' ? name : `${shape}.${name}`);
      }
    } else if (!shapes.has(shape)) {
      shapes.set(shape, at);
    }
  };
  walk(value, [], '');
  return shapes;
}

/** The report with the leaf at `at` changed to another value of the same type. */
function edited(at: LeafPath): unknown {
  return withLeafChanged(report, at);
}

async function noticed(changed: unknown): Promise<boolean> {
  if (reportShapeProblem(changed) !== undefined) return true;
  const verification = await verifyReport(changed as EvalGateReport);
  return verification.problems.length > 0 || verification.refereeDifferences.length > 0;
}

describe('verify notices an edit of any member the run derives', () => {
  it('each shape of leaf, edited alone, is named, but for the facts listed with their reason', async () => {
    const unnoticed: string[] = [];
    const shapes = leavesByShape(report);
    // The report holds members of every kind the run writes: rows, findings, host checks, digests.
    expect(shapes.size).toBeGreaterThan(100);
    // Each edited copy shares its other members with the report, so verify must leave them as read.
    const asRead = JSON.stringify(report);
    for (const [shape, at] of shapes) {
      if (!(await noticed(edited(at)))) unnoticed.push(shape);
    }
    expect(JSON.stringify(report)).toBe(asRead);
    expect(unnoticed.sort()).toEqual(Object.keys(FACTS).sort());
  }, 120_000);
});
