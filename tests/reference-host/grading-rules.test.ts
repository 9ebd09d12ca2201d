// The reference host's grading rules in isolation (contract §4): golden match modes, trajectory
// match modes, forbidden hits, args, and the fail-closed fixture miss no shipped fixture drives.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defectPredicate } from '../../reference-host/defects.ts';
import type { HostTask, HostTrajectory } from '../../reference-host/fixtures.ts';
import { goldenScore, gradeTrial, trajectoryMatches } from '../../reference-host/grading.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { drive, evalPayloads } from './harness.ts';

const a = { tool: 's:a' };
const b = { tool: 's:b', args: { id: 1 } };
const c = { tool: 's:c' };

function t(match: string, calls = [a, b], forbidden: string[] = []): HostTrajectory {
  return { match, calls, forbidden };
}

describe('golden match', () => {
  it.each([
    ['exact', 'done', 'done', 1],
    ['exact', 'done.', 'done', 0],
    ['exact', 42, '42', 1],
    ['contains', 'it is done now', 'done', 1],
    ['contains', 'it is finished', 'done', 0],
    ['json-match', { x: [1, { y: 2 }], z: null }, { z: null, x: [1, { y: 2 }] }, 1],
    // A string output is a string: it is not parsed first (host guide §6).
    ['json-match', '{"z":null,"x":[1,{"y":2}]}', { x: [1, { y: 2 }], z: null }, 0],
    ['exact', { a: 1, b: 2 }, { b: 2, a: 1 }, 0],
    ['exact', { a: 1 }, '{"a":1}', 1],
    ['exact', 'done ', 'done', 0],
    ['exact', 'DONE', 'done', 0],
    ['contains', { a: 1, b: true }, '"b":true', 1],
    ['json-match', { x: [1, 2] }, { x: [2, 1] }, 0],
    ['regex', 'done', 'done', 0],
  ] as const)('%s of %j against %j scores %d', (match, output, value, score) => {
    expect(goldenScore(match, output, value)).toBe(score);
  });
});

describe('trajectory match', () => {
  it.each([
    ['exact', [a, b], true],
    ['exact', [a, b, c], false],
    ['exact', [b, a], false],
    ['exact', [a, { tool: 's:b', args: { id: 2 } }], false],
    ['in-order', [c, a, c, b], true],
    ['in-order', [b, a], false],
    ['any-order', [b, c, a], true],
    ['any-order', [a, { tool: 's:b' }], false],
  ] as const)('%s against %j is %s', (mode, observed, matched) => {
    expect(trajectoryMatches(t(mode), observed)).toBe(matched);
  });

  it('a forbidden hit fails every mode, even with the expected calls present', () => {
    for (const mode of ['exact', 'in-order', 'any-order']) {
      expect(trajectoryMatches(t(mode, [a], ['s:c']), [a, c])).toBe(false);
      expect(trajectoryMatches(t(mode, [a], ['s:c']), [a])).toBe(true);
    }
  });

  it('any-order lets an expected call with args claim its match before a wildcard does', () => {
    const wild = { tool: 's:b' };
    expect(
      trajectoryMatches(t('any-order', [wild, b]), [b, { tool: 's:b', args: { id: 9 } }]),
    ).toBe(true);
  });
});

describe('the readings contract §4 fixes [0244-assumed]', () => {
  const empty = { tool: 's:a', args: {} };

  it('an observed call without args is a call with args {}', () => {
    for (const mode of ['exact', 'in-order', 'any-order']) {
      expect(trajectoryMatches(t(mode, [empty]), [a]), mode).toBe(true);
      expect(trajectoryMatches(t(mode, [empty]), [{ tool: 's:a', args: { id: 1 } }]), mode).toBe(
        false,
      );
    }
  });

  it('a repeated expected call needs its own observed call, in-order and any-order', () => {
    for (const mode of ['in-order', 'any-order']) {
      expect(trajectoryMatches(t(mode, [a, a, b]), [a, b]), mode).toBe(false);
      expect(trajectoryMatches(t(mode, [a, a, b]), [a, a, b]), mode).toBe(true);
    }
  });

  it('in-order allows a call between the expected ones; exact does not', () => {
    expect(trajectoryMatches(t('in-order'), [a, c, b])).toBe(true);
    expect(trajectoryMatches(t('exact'), [a, c, b])).toBe(false);
  });

  it('any-order allows an extra call and a swap; in-order allows no swap', () => {
    expect(trajectoryMatches(t('any-order'), [b, c, a])).toBe(true);
    expect(trajectoryMatches(t('in-order'), [b, a])).toBe(false);
  });
});

describe('trial verdict', () => {
  const task: HostTask = {
    taskId: 'x',
    match: 'exact',
    value: 'ok',
    trajectory: t('in-order', [a]),
  };
  const none = defectPredicate(undefined);

  it('a wrong path keeps the output score, fails the trial and gates it to 0', () => {
    const v = gradeTrial(
      task,
      1,
      { calls: [c], output: 'ok', failedClosed: false, latencyMs: 0, latencyStated: false },
      0.6,
      none,
    );
    expect([v.score, v.matched, v.passed, v.gating]).toEqual([1, false, false, 0]);
  });

  it('a fixture miss scores 0 and fails closed', () => {
    const v = gradeTrial(
      task,
      1,
      { calls: [a], output: 'ok', failedClosed: true, latencyMs: 0, latencyStated: false },
      0.6,
      none,
    );
    expect([v.score, v.failedClosed, v.passed, v.gating]).toEqual([0, true, false, 0]);
  });

  // The file reuses the control fixture's suite ref so that drive() can address it by that id.
  it('a host run with a miss reports failedClosed and a score of 0 without a gatedScore', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ref-host-miss-'));
    const fixture = {
      id: 'conformance-eval-trajectory-gate-control',
      requirement: 'local',
      agentId: 'core.conformance.eval-scripted-agent',
      suite: {
        suiteId: 'conformance.evals.trajectory-gate-control',
        version: '1.0.0',
        modes: ['golden'],
        thresholds: { passScore: 0.6 },
        tasks: [
          {
            taskId: 'misses',
            input: {},
            expected: { kind: 'golden', match: { strategy: 'exact', value: 'ok' } },
            fixtures: { toolResponses: [{ tool: 's:a', response: {} }] },
          },
        ],
      },
      script: { misses: [{ calls: [{ tool: 's:a' }, { tool: 's:unknown' }], output: 'ok' }] },
    };
    writeFileSync(join(dir, 'miss.json'), JSON.stringify(fixture));
    const host = await startReferenceHost({ fixturesDir: dir });
    try {
      const d = await drive(host.url, 'conformance-eval-trajectory-gate-control');
      expect(evalPayloads(d.events)[1]).toEqual({
        taskId: 'misses',
        score: 0,
        passed: false,
        failedClosed: true,
      });
      expect(d.summary).toMatchObject({
        aggregateScore: 0,
        passed: false,
        tasks: [{ score: 0, passed: false }],
      });
      expect(JSON.stringify(d.summary)).not.toMatch(/gated/);
    } finally {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
