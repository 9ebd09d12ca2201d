// `openwop-eval-gate judge`: a recorded summary judged offline, against a fixture (the witness)
// or a bare suite (the summary's own arithmetic), with and without the run's events.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import meanFixture from '../../fixtures/conformance-eval-trajectory-gate-mean.json' with { type: 'json' };
import { cli, removeDir, scratchDir } from './support.ts';
import { meanGatedSummary } from '../support/contract-summaries.ts';

const FIXTURE = 'conformance-eval-trajectory-gate-mean';

/** What a correct host reports for the mean fixture: both trials hit a forbidden tool. */
const corrected = meanGatedSummary();

/** What a correct host reports for the cost-limit fixture, without any cost figure. */
const COST_BARE = {
  suiteId: 'conformance.evals.trajectory-gate-cost-limit',
  suiteVersion: '1.0.0',
  aggregateScore: 1,
  gatedAggregateScore: 1,
  passed: false,
  taskCount: 2,
  passedCount: 2,
  tasks: ['tier-of-first-customer', 'tier-of-second-customer'].map((taskId) => ({
    taskId,
    score: 1,
    gatedScore: 1,
    passed: true,
  })),
};

/** What an RFC 0244 host reports for the same run: no gated fields, and the mean passes. */
const unmigrated = {
  ...corrected,
  gatedAggregateScore: undefined,
  passed: true,
  passedCount: 1,
  tasks: [{ ...corrected.tasks[0], gatedScore: undefined, passed: true }],
};

function events(trialPassed: boolean): unknown[] {
  const event = (sequence: number, type: string, payload: unknown): unknown => ({
    eventId: `e${sequence}`,
    runId: 'run-1',
    sequence,
    type,
    timestamp: '2026-10-16T09:00:00Z',
    payload,
  });
  const scored = (trial: number): unknown => ({
    taskId: 'forbidden-in-every-trial',
    score: 1,
    passed: trialPassed,
    trial,
    trajectoryMatched: false,
  });
  return [
    event(1, 'eval.started', {
      suiteId: corrected.suiteId,
      suiteVersion: '1.0.0',
      taskCount: 1,
      modes: ['golden'],
      trials: { count: 2, passRule: 'mean' },
    }),
    event(2, 'eval.scored', scored(1)),
    event(3, 'eval.scored', scored(2)),
    event(4, 'eval.completed', { aggregateScore: 1, passed: false, taskCount: 1, passedCount: 0 }),
  ];
}

let dir = '';
const path = (name: string): string => join(dir, name);

beforeAll(async () => {
  dir = await scratchDir();
  const files: Record<string, unknown> = {
    'corrected.json': corrected,
    'cost-bare.json': COST_BARE,
    'cost-reported.json': { ...COST_BARE, totalCostUsd: 0.06 },
    'cost-bare-passed.json': { ...COST_BARE, passed: true },
    'unmigrated.json': unmigrated,
    'events.json': events(false),
    'events-passed.json': { events: events(true) },
    'suite.json': meanFixture.suite,
    'ungradable.json': {
      ...meanFixture,
      suite: {
        ...meanFixture.suite,
        tasks: [{ ...meanFixture.suite.tasks[0], expected: { kind: 'golden' } }],
      },
    },
    'unpublished-suite.json': {
      ...meanFixture.suite,
      tasks: [
        {
          ...meanFixture.suite.tasks[0],
          expected: { match: 'exact', value: 'C-1001 merged into C-1002' },
        },
      ],
    },
  };
  for (const [name, doc] of Object.entries(files)) await writeFile(path(name), JSON.stringify(doc));
});

afterAll(async () => {
  await removeDir(dir);
});

describe('judge against a fixture', () => {
  it('a corrected summary holds every rule and names the event rules it could not judge', async () => {
    const run = await cli(['judge', path('corrected.json'), '--fixture', FIXTURE]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('not judged: trial.passed: needs --events');
    expect(run.stdout).toContain('not judged: events.cursor: needs the live run');
    expect(run.stdout.filter((l) => l.startsWith('FAILED'))).toEqual([]);
    expect(run.stdout[0]).toMatch(/^executed-pass: \d+ findings, 0 MUST failed, 0 SHOULD warned$/);
  });

  it('a summary without the cost a declared limit reads is judged on the stated cost all the same', async () => {
    const fixture = 'conformance-eval-trajectory-gate-cost-limit';
    const bare = await cli(['judge', path('cost-bare.json'), '--fixture', fixture]);
    expect(bare.stdout.filter((l) => l.startsWith('FAILED'))).toEqual([]);
    expect(bare.stdout[0]).toMatch(/^executed-pass: /);
    const reported = await cli(['judge', path('cost-reported.json'), '--fixture', fixture]);
    expect(reported.stdout[0]).toMatch(/^executed-pass: /);
    const ignored = await cli(['judge', path('cost-bare-passed.json'), '--fixture', fixture]);
    expect(
      ignored.stdout.filter((l) => l.startsWith('FAILED')).map((l) => l.split(' ')[1]),
    ).toEqual(['suite.passed']);
  });

  it('an RFC 0244 summary fails on the missing gated fields and on both pass decisions', async () => {
    const run = await cli(['judge', path('unmigrated.json'), '--fixture', FIXTURE]);
    expect(run.code).toBe(1);
    const failed = run.stdout.filter((l) => l.startsWith('FAILED')).map((l) => l.split(' ')[1]);
    expect(new Set(failed)).toEqual(
      new Set([
        'task.gated-score-present',
        'task.passed',
        'suite.gated-aggregate-present',
        'suite.passed',
      ]),
    );
  });

  it('with events, the trial verdicts are judged too, and a passed trial that took a forbidden tool fails', async () => {
    const good = await cli([
      'judge',
      path('corrected.json'),
      '--fixture',
      FIXTURE,
      '--events',
      path('events.json'),
    ]);
    expect(good.code).toBe(0);
    expect(good.stdout).toContainEqual(expect.stringMatching(/^held {3}trial\.passed /));
    expect(good.stdout).not.toContain('not judged: trial.passed: needs --events');

    const bad = await cli([
      'judge',
      path('corrected.json'),
      '--fixture',
      FIXTURE,
      '--events',
      path('events-passed.json'),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContainEqual(expect.stringMatching(/^FAILED trial\.passed /));
  });
});

describe('the order judge prints in', () => {
  it('a summary holding null: the verdict, then the cause, then the failures that follow from it, marked, then what held', async () => {
    await writeFile(path('null.json'), 'null');
    const run = await cli(['judge', path('null.json'), '--fixture', FIXTURE]);
    expect(run.code).toBe(1);
    expect(run.stdout[0]).toMatch(
      /^executed-fail: \d+ findings, (\d+) MUST failed, 0 SHOULD warned$/,
    );
    const failedCount = Number(/(\d+) MUST failed/.exec(run.stdout[0] ?? '')?.[1]);
    expect(run.stdout[1]).toBe(
      `cause: summary.schema (RFC 0081, RFC 0246 §D): the summary MUST validate against eval-summary: eval-summary# type: must be object, host sent null (${failedCount - 1} more follow from it)`,
    );
    const marks = run.stdout.map((l) => l.split(' ')[0]);
    const lastFailed = marks.lastIndexOf('FAILED');
    expect(marks.slice(2, 2 + failedCount)).toEqual(Array(failedCount).fill('FAILED'));
    expect(marks.indexOf('held')).toBeGreaterThan(lastFailed);
    const following = run.stdout.slice(3, 2 + failedCount);
    expect(run.stdout[2]).toMatch(/^FAILED summary\.schema \(RFC 0081, RFC 0246 §D\): /);
    for (const l of following)
      expect(l).toMatch(/^FAILED \S+ \([^)]*\), following from summary\.schema: /);
  });

  it('a summary that is an object: failures stand alone, the first is the cause, and held lines come after', async () => {
    const run = await cli(['judge', path('unmigrated.json'), '--fixture', FIXTURE]);
    expect(run.stdout[0]).toMatch(/^executed-fail: \d+ findings, 4 MUST failed, 0 SHOULD warned$/);
    expect(run.stdout[1]).toMatch(
      /^cause: \S+ \(RFC 0246 §[A-D]\): .* \(3 other failures stand alone\)$/,
    );
    expect(run.stdout.join('\n')).not.toContain('following from');
    const marks = run.stdout.map((l) => l.split(' ')[0]);
    expect(marks.indexOf('held')).toBeGreaterThan(marks.lastIndexOf('FAILED'));
  });

  it('a pass prints no cause line', async () => {
    const run = await cli(['judge', path('corrected.json'), '--fixture', FIXTURE]);
    expect(run.stdout[0]).toMatch(/^executed-pass: /);
    expect(run.stdout[1]).toMatch(/^held {3}/);
  });
});

describe('judge against a bare suite', () => {
  it('a corrected summary holds what the summary alone can show', async () => {
    const run = await cli(['judge', path('corrected.json'), '--fixture', path('suite.json')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContainEqual(expect.stringMatching(/^held {3}suite\.passed /));
  });

  it('a suite that states no passScore fixes no pass decision, so none is judged', async () => {
    const noThresholds: Record<string, unknown> = { ...meanFixture.suite };
    delete noThresholds.thresholds;
    await writeFile(path('no-thresholds.json'), JSON.stringify(noThresholds));
    const run = await cli([
      'judge',
      path('unmigrated.json'),
      '--fixture',
      path('no-thresholds.json'),
      '--events',
      path('events.json'),
    ]);
    expect(run.code).toBe(1);
    const judged = run.stdout.map((l) => l.split(/ +/)[1]);
    expect(judged).not.toContain('task.passed');
    expect(judged).not.toContain('suite.passed');
    expect(judged).toContain('task.gated-score-value');
  });

  it('an RFC 0244 summary fails on its missing gated fields, and never reads their absence as ungated', async () => {
    const run = await cli(['judge', path('unmigrated.json'), '--fixture', path('suite.json')]);
    expect(run.code).toBe(1);
    const failed = run.stdout.filter((l) => l.startsWith('FAILED')).map((l) => l.split(' ')[1]);
    expect(new Set(failed)).toEqual(
      new Set(['task.gated-score-present', 'suite.gated-aggregate-present']),
    );
    expect(run.stdout).not.toContainEqual(expect.stringMatching(/^held {3}(task|suite)\.passed /));
  });

  it('with events, an RFC 0244 summary also fails both pass decisions, read from the trial flags', async () => {
    const run = await cli([
      'judge',
      path('unmigrated.json'),
      '--fixture',
      path('suite.json'),
      '--events',
      path('events.json'),
    ]);
    expect(run.code).toBe(1);
    const failed = run.stdout.filter((l) => l.startsWith('FAILED')).map((l) => l.split(' ')[1]);
    expect(new Set(failed)).toEqual(
      new Set([
        'task.gated-score-present',
        'task.gated-score-value',
        'task.passed',
        'suite.gated-aggregate-present',
        'suite.passed',
      ]),
    );
  });

  it('with events, a gatedScore that is not the mean of the trial gating scores fails', async () => {
    const wrong = {
      ...corrected,
      tasks: [{ ...corrected.tasks[0], gatedScore: 0.5 }],
      gatedAggregateScore: 0.5,
    };
    await writeFile(path('wrong-gated.json'), JSON.stringify(wrong));
    const run = await cli([
      'judge',
      path('wrong-gated.json'),
      '--fixture',
      path('suite.json'),
      '--events',
      path('events.json'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContainEqual(
      expect.stringMatching(
        /^FAILED task\.gated-score-value .*mean of its trial gating scores \(0\); host reported 0\.5$/,
      ),
    );
  });
});

describe('judge input errors', () => {
  it('exits 2 without --fixture, for an unreadable summary, and for an unknown fixture id', async () => {
    const noFixture = await cli(['judge', path('corrected.json')]);
    expect(noFixture.code).toBe(2);
    expect(noFixture.stderr).toEqual([
      'openwop-eval-gate: judge needs --fixture ID|FILE.json, such as --fixture conformance-eval-trajectory-gate-mean',
    ]);

    const missing = await cli(['judge', path('nope.json'), '--fixture', FIXTURE]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toEqual([
      `openwop-eval-gate: the summary file ${path('nope.json')} could not be read (ENOENT)`,
    ]);

    const unknown = await cli(['judge', path('corrected.json'), '--fixture', 'no-such-fixture']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr[0]).toMatch(
      /^openwop-eval-gate: no shipped fixture "no-such-fixture" \(fixture file .* could not be read \(ENOENT\)\); the shipped ids are /,
    );
  });

  it('judges against a generated case named by its id, replayed from its seed as expect does', async () => {
    const id = 'generated-s3-n0002';
    const expected = await cli(['expect', id, '--json']);
    expect(expected.code).toBe(0);
    const run = await cli(['judge', path('corrected.json'), '--fixture', id]);
    // Judged (a summary of another fixture fails it), not refused as an unknown fixture.
    expect(run.stderr).toEqual([]);
    expect(run.code).toBe(1);
    const tasks = (JSON.parse(expected.stdout.join('\n')) as { tasks: { taskId: string }[] }).tasks;
    const named = tasks.map((t) => t.taskId).filter((t) => run.stdout.join('\n').includes(t));
    expect(named.length).toBeGreaterThan(0);
  });

  it('exits 2 for a fixture file with a task the suite cannot grade, naming the task', async () => {
    const run = await cli(['judge', path('corrected.json'), '--fixture', path('ungradable.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      `openwop-eval-gate: --fixture ${path('ungradable.json')}: task "forbidden-in-every-trial" ` +
        'cannot be graded by the suite: it needs expected.kind "golden" and expected.match ' +
        '{strategy, value}',
    ]);
  });

  it('exits 2 for a suite in the unpublished shape (match beside value)', async () => {
    const file = path('unpublished-suite.json');
    const run = await cli(['judge', path('corrected.json'), '--fixture', file]);
    expect(run.code).toBe(2);
    expect(run.stderr[0]).toMatch(
      new RegExp(
        `^openwop-eval-gate: --fixture ${file} is neither a fixture nor an AgentEvalSuite ` +
          '\\(agent-eval-suite#/tasks/0/expected ',
      ),
    );
  });
});
