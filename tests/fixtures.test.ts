// The shipped fixtures and their loader. Each fixture must load, line up with its leg, answer
// every scripted call, and produce exactly the numbers of contract §8; the loader must turn every
// kind of broken file into a reason that names the file and the problem.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archivedFixtureDir,
  FIXTURE_ARCHIVE_DIR,
  FIXTURE_IDS,
  FIXTURES_DIR,
  loadFixture,
} from '../lib/fixtures.ts';
import { fixtureDigest } from '../lib/report/canonical.ts';
import { LEGS } from '../lib/legs.ts';
import type { ExpectedTrajectory, Fixture, ScriptedTrial, ToolCall } from '../lib/types.ts';

async function load(id: string): Promise<Fixture> {
  const loaded = await loadFixture(id);
  if (!loaded.ok) throw new Error(loaded.reason);
  return loaded.fixture;
}

describe('shipped fixtures', () => {
  it('the fixture directory holds exactly the fixtures the legs drive, one per host leg', () => {
    const files = readdirSync(FIXTURES_DIR).filter((f) => f.endsWith('.json'));
    const legFixtures = LEGS.flatMap((l) => (l.fixtureId === undefined ? [] : [l.fixtureId]));
    expect(files.sort()).toEqual(legFixtures.map((id) => `${id}.json`).sort());
    expect(new Set(FIXTURE_IDS).size, 'two legs drive one fixture').toBe(FIXTURE_IDS.length);
  });

  it('each archived fixture is an earlier version of a shipped one, filed under its own digest', async () => {
    const folders = readdirSync(FIXTURE_ARCHIVE_DIR);
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders) {
      for (const file of readdirSync(join(FIXTURE_ARCHIVE_DIR, folder))) {
        const id = file.replace(/\.json$/, '');
        expect(FIXTURE_IDS, `${folder}/${file} archives no shipped fixture`).toContain(id);
        const archived = await loadFixture(id, join(FIXTURE_ARCHIVE_DIR, folder));
        if (!archived.ok) throw new Error(archived.reason);
        const digest = fixtureDigest(archived.fixture);
        expect(archivedFixtureDir(digest)).toBe(join(FIXTURE_ARCHIVE_DIR, folder));
        expect(digest, `${folder}/${file} is the shipped fixture itself`).not.toBe(
          fixtureDigest(await load(id)),
        );
      }
    }
  });

  it.each(FIXTURE_IDS)('%s loads, with its path', async (id) => {
    const loaded = await loadFixture(id);
    expect(loaded).toMatchObject({ ok: true, path: join(FIXTURES_DIR, `${id}.json`) });
    if (!loaded.ok) return;
    expect(loaded.fixture.agentId).toBe('core.conformance.eval-scripted-agent');
    expect(LEGS.find((l) => l.fixtureId === id)?.id).toBe(loaded.fixture.requirement);
  });

  /**
   * The fixtures that mean to miss or to measure (contract §3): the miss fixtures call tools they
   * record no answer for, and the measured and zero-pass-score ones script outputs that differ
   * from the golden value.
   */
  const MEASURING: readonly string[] = [
    'conformance-eval-trajectory-gate-miss',
    'conformance-eval-trajectory-readings-miss',
    'conformance-eval-trajectory-measured',
    'conformance-eval-trajectory-zero-pass-score',
  ];

  it.each(FIXTURE_IDS.filter((id) => !MEASURING.includes(id)))(
    '%s answers every scripted call with a recorded response and always outputs the golden value',
    async (id) => {
      const fixture = await load(id);
      for (const task of fixture.suite.tasks) {
        const answered = (task.fixtures?.toolResponses ?? [])
          .filter((r) => r.response !== undefined)
          .map((r) => r.tool);
        expect(task.expected.kind).toBe('golden');
        for (const trial of fixture.script[task.taskId] ?? []) {
          for (const call of trial.calls) expect(answered).toContain(call.tool);
          expect(trial.output).toEqual(task.expected.match?.value);
        }
        for (const tool of task.expected.trajectory?.forbidden ?? []) {
          expect(answered).toContain(tool);
        }
      }
    },
  );
});

// An independent reading of contract §4, just enough to show what each fixture file implies.
// Every output is golden (checked above), so every trial scores 1 and only the path matters.
type PathVerdict = 'match' | 'forbidden' | 'wrong-path';

function callMatches(expected: ToolCall, seen: ToolCall): boolean {
  return (
    expected.tool === seen.tool &&
    (expected.args === undefined || isDeepStrictEqual(expected.args, seen.args ?? {}))
  );
}

/** Each expected call on its own seen call, any order: tries every assignment. */
function pairsEach(expected: readonly ToolCall[], seen: readonly ToolCall[]): boolean {
  const [first, ...rest] = expected;
  if (first === undefined) return true;
  return seen.some(
    (c, i) =>
      callMatches(first, c) &&
      pairsEach(
        rest,
        seen.filter((_, j) => j !== i),
      ),
  );
}

function judgePath(t: ExpectedTrajectory, calls: readonly ToolCall[]): PathVerdict {
  if (calls.some((c) => t.forbidden?.includes(c.tool))) return 'forbidden';
  let ok: boolean;
  if (t.match === 'exact') {
    ok = calls.length === t.calls.length && t.calls.every((e, i) => callMatches(e, calls[i]!));
  } else if (t.match === 'in-order') {
    let from = 0;
    ok = t.calls.every((e) => {
      const at = calls.findIndex((c, i) => i >= from && callMatches(e, c));
      from = at + 1;
      return at >= 0;
    });
  } else {
    ok = pairsEach(t.calls, calls);
  }
  return ok ? 'match' : 'wrong-path';
}

interface Derived {
  readonly paths: Readonly<Record<string, readonly PathVerdict[]>>;
  readonly gated: Readonly<Record<string, number>>;
  readonly taskPassed: Readonly<Record<string, boolean>>;
  readonly gatedAggregate: number;
  readonly suitePassed: boolean;
}

function derive(fixture: Fixture): Derived {
  const { suite, script } = fixture;
  const count = suite.trials?.count ?? 1;
  const paths: Record<string, PathVerdict[]> = {};
  const gated: Record<string, number> = {};
  const taskPassed: Record<string, boolean> = {};
  for (const task of suite.tasks) {
    const entries = script[task.taskId] ?? [];
    const trials = Array.from({ length: count }, (_, i) => entries[entries.length === 1 ? 0 : i]!);
    const verdicts = trials.map((t) =>
      task.expected.trajectory ? judgePath(task.expected.trajectory, t.calls) : 'match',
    );
    paths[task.taskId] = verdicts;
    const gates = verdicts.map((v): number => (v === 'match' ? 1 : 0));
    gated[task.taskId] = gates.reduce((a, b) => a + b, 0) / count;
    const rule = suite.trials?.passRule ?? 'all';
    taskPassed[task.taskId] =
      rule === 'mean'
        ? gated[task.taskId]! >= suite.thresholds.passScore
        : rule === 'any'
          ? gates.includes(1)
          : gates.every((g) => g === 1);
  }
  const values = Object.values(gated);
  const gatedAggregate = values.reduce((a, b) => a + b, 0) / values.length;
  return {
    paths,
    gated,
    taskPassed,
    gatedAggregate,
    suitePassed: gatedAggregate >= suite.thresholds.passScore,
  };
}

describe('each fixture yields the numbers of contract §8', () => {
  it.each<[string, Derived]>([
    [
      'conformance-eval-trajectory-readings-args',
      {
        paths: { 'args-members-reordered': ['match'], 'args-array-reordered': ['wrong-path'] },
        gated: { 'args-members-reordered': 1, 'args-array-reordered': 0 },
        taskPassed: { 'args-members-reordered': true, 'args-array-reordered': false },
        gatedAggregate: 0.5,
        suitePassed: true,
      },
    ],
    [
      'conformance-eval-trajectory-gate-mean',
      {
        paths: { 'forbidden-in-every-trial': ['forbidden', 'forbidden'] },
        gated: { 'forbidden-in-every-trial': 0 },
        taskPassed: { 'forbidden-in-every-trial': false },
        gatedAggregate: 0,
        suitePassed: false,
      },
    ],
    [
      'conformance-eval-trajectory-gate',
      {
        paths: { 'matches-trajectory': ['match'], 'wrong-path': ['wrong-path'] },
        gated: { 'matches-trajectory': 1, 'wrong-path': 0 },
        taskPassed: { 'matches-trajectory': true, 'wrong-path': false },
        gatedAggregate: 0.5,
        suitePassed: false,
      },
    ],
    [
      'conformance-eval-trajectory-gate-control',
      {
        paths: { 'no-trajectory-with-calls': ['match'], 'no-trajectory-no-calls': ['match'] },
        gated: { 'no-trajectory-with-calls': 1, 'no-trajectory-no-calls': 1 },
        taskPassed: { 'no-trajectory-with-calls': true, 'no-trajectory-no-calls': true },
        gatedAggregate: 1,
        suitePassed: true,
      },
    ],
    [
      'conformance-eval-trajectory-gate-boundary',
      {
        paths: { 'forbidden-in-trial-3': ['match', 'match', 'forbidden', 'match'] },
        gated: { 'forbidden-in-trial-3': 0.75 },
        taskPassed: { 'forbidden-in-trial-3': true },
        gatedAggregate: 0.75,
        suitePassed: true,
      },
    ],
    [
      'conformance-eval-trajectory-gate-any',
      {
        paths: {
          'wrong-path-then-match': ['wrong-path', 'match'],
          'wrong-path-twice': ['wrong-path', 'wrong-path'],
        },
        gated: { 'wrong-path-then-match': 0.5, 'wrong-path-twice': 0 },
        taskPassed: { 'wrong-path-then-match': true, 'wrong-path-twice': false },
        gatedAggregate: 0.25,
        suitePassed: false,
      },
    ],
    [
      'conformance-eval-trajectory-gate-all',
      {
        paths: { 'match-then-forbidden': ['match', 'forbidden'] },
        gated: { 'match-then-forbidden': 0.5 },
        taskPassed: { 'match-then-forbidden': false },
        gatedAggregate: 0.5,
        suitePassed: false,
      },
    ],
    [
      'conformance-eval-trajectory-readings-exact',
      {
        paths: {
          'exact-absent-args-are-empty': ['match'],
          'exact-extra-call': ['wrong-path'],
          'exact-args-differ': ['wrong-path'],
          'exact-empty-path': ['match'],
        },
        gated: {
          'exact-absent-args-are-empty': 1,
          'exact-extra-call': 0,
          'exact-args-differ': 0,
          'exact-empty-path': 1,
        },
        taskPassed: {
          'exact-absent-args-are-empty': true,
          'exact-extra-call': false,
          'exact-args-differ': false,
          'exact-empty-path': true,
        },
        gatedAggregate: 0.5,
        suitePassed: false,
      },
    ],
    [
      'conformance-eval-trajectory-readings-in-order',
      {
        paths: {
          'in-order-extra-call': ['match'],
          'in-order-swapped': ['wrong-path'],
          'in-order-args-differ': ['wrong-path'],
          'in-order-forbidden-inside': ['forbidden'],
          'in-order-repeat-once': ['wrong-path'],
        },
        gated: {
          'in-order-extra-call': 1,
          'in-order-swapped': 0,
          'in-order-args-differ': 0,
          'in-order-forbidden-inside': 0,
          'in-order-repeat-once': 0,
        },
        taskPassed: {
          'in-order-extra-call': true,
          'in-order-swapped': false,
          'in-order-args-differ': false,
          'in-order-forbidden-inside': false,
          'in-order-repeat-once': false,
        },
        gatedAggregate: 0.2,
        suitePassed: false,
      },
    ],
    [
      'conformance-eval-trajectory-readings-any-order',
      {
        paths: {
          'any-order-swapped': ['match'],
          'any-order-extra-call': ['match'],
          'any-order-pairs-args-first': ['match'],
          'any-order-args-differ': ['wrong-path'],
          'any-order-forbidden-inside': ['forbidden'],
          'any-order-repeat-once': ['wrong-path'],
        },
        gated: {
          'any-order-swapped': 1,
          'any-order-extra-call': 1,
          'any-order-pairs-args-first': 1,
          'any-order-args-differ': 0,
          'any-order-forbidden-inside': 0,
          'any-order-repeat-once': 0,
        },
        taskPassed: {
          'any-order-swapped': true,
          'any-order-extra-call': true,
          'any-order-pairs-args-first': true,
          'any-order-args-differ': false,
          'any-order-forbidden-inside': false,
          'any-order-repeat-once': false,
        },
        gatedAggregate: 0.5,
        suitePassed: true,
      },
    ],
  ])('%s', async (id, expected) => {
    expect(derive(await load(id))).toEqual(expected);
  });

  it.each(['exact', 'in-order', 'any-order'] as const)(
    'the %s reading fixture uses only its own mode, one trial per task, so the advertised-mode gate gates it',
    async (mode) => {
      const fixture = await load(`conformance-eval-trajectory-readings-${mode}`);
      expect(fixture.suite.trials).toBeUndefined();
      const modes = fixture.suite.tasks.map((t) => t.expected.trajectory?.match);
      expect(new Set(modes)).toEqual(new Set([mode]));
    },
  );

  it('the control fixture has no trajectory, so it carries no gated field', async () => {
    const fixture = await load('conformance-eval-trajectory-gate-control');
    expect(fixture.suite.tasks.filter((t) => t.expected.trajectory !== undefined)).toEqual([]);
  });
});

describe('loadFixture loads a shipped fixture again as it loaded it first', () => {
  it('each load hands back its own copy of the same document', async () => {
    const id = FIXTURE_IDS[0] ?? '';
    const [first, again] = [await load(id), await load(id)];
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    expect(again).toEqual(JSON.parse(readFileSync(join(FIXTURES_DIR, `${id}.json`), 'utf8')));
  });
});

describe('loadFixture refuses a broken fixture with a reason', () => {
  let dir: string;
  const mean = (): Record<string, unknown> =>
    JSON.parse(
      readFileSync(join(FIXTURES_DIR, 'conformance-eval-trajectory-gate-mean.json'), 'utf8'),
    );

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'eval-gate-fixtures-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function reasonFor(id: string, contents?: string): Promise<string> {
    if (contents !== undefined) writeFileSync(join(dir, `${id}.json`), contents);
    const loaded = await loadFixture(id, dir);
    expect(loaded.ok).toBe(false);
    return loaded.ok ? '' : loaded.reason;
  }

  it('an id that is not a safe file name, before touching the disk', async () => {
    expect(await reasonFor('../fixtures/x')).toBe(
      'fixture id "../fixtures/x" is not a safe file name (^[a-z0-9]+(-[a-z0-9]+)*$)',
    );
  });

  it('a missing file', async () => {
    expect(await reasonFor('absent')).toBe(
      `fixture file ${join(dir, 'absent.json')} could not be read (ENOENT)`,
    );
  });

  it('a file that is not JSON', async () => {
    expect(await reasonFor('bad-json', '{"id": ')).toMatch(
      new RegExp(`^fixture file ${join(dir, 'bad-json.json')} is not valid JSON: `),
    );
  });

  it('a file the schema rejects, with the schema error', async () => {
    const doc = { ...mean(), id: 'schema-fail', requirement: 'openwop.requirement.0244.trials' };
    expect(await reasonFor('schema-fail', JSON.stringify(doc))).toBe(
      `fixture file ${join(dir, 'schema-fail.json')} does not match the fixture schema:\n` +
        'fixture#/requirement pattern: must match pattern "^openwop\\.requirement\\.0246\\.[a-z0-9-]+$"',
    );
  });

  it('an id that differs from the file name', async () => {
    expect(await reasonFor('renamed', JSON.stringify(mean()))).toBe(
      `fixture file ${join(dir, 'renamed.json')}: ` +
        'id "conformance-eval-trajectory-gate-mean" does not match the file name',
    );
  });

  it('script keys that differ from the task ids', async () => {
    const doc = mean();
    const script = doc.script as Record<string, unknown>;
    doc.id = 'mismatch';
    doc.script = { 'some-other-task': script['forbidden-in-every-trial'] };
    expect(await reasonFor('mismatch', JSON.stringify(doc))).toBe(
      `fixture file ${join(dir, 'mismatch.json')}: script keys must equal the task ids; ` +
        'tasks without a script: [forbidden-in-every-trial], ' +
        'script keys without a task: [some-other-task]',
    );
  });

  it('a script list that is neither 1 entry nor trials.count entries', async () => {
    const doc = mean();
    const script = doc.script as Record<string, unknown[]>;
    doc.id = 'three-entries';
    script['forbidden-in-every-trial']?.push(script['forbidden-in-every-trial'][0]);
    expect(await reasonFor('three-entries', JSON.stringify(doc))).toBe(
      `fixture file ${join(dir, 'three-entries.json')}: script for task ` +
        '"forbidden-in-every-trial" has 3 entries; expected 1 or trials.count (2)',
    );
  });

  it('a task id used twice', async () => {
    const doc = mean();
    const suite = doc.suite as { tasks: unknown[] };
    doc.id = 'twice';
    suite.tasks.push(suite.tasks[0]);
    expect(await reasonFor('twice', JSON.stringify(doc))).toBe(
      `fixture file ${join(dir, 'twice.json')}: task id "forbidden-in-every-trial" appears twice`,
    );
  });

  it('a file in the unpublished shape (match beside value, answers keyed by tool)', async () => {
    const doc = mean();
    const task = (doc.suite as { tasks: Record<string, unknown>[] }).tasks[0]!;
    doc.id = 'old-shape';
    task.expected = { match: 'exact', value: 'C-1001 merged into C-1002' };
    task.fixtures = { toolResponses: { 'crm:lookup-customer': {} } };
    const reason = await reasonFor('old-shape', JSON.stringify(doc));
    expect(reason).toContain('fixture#/suite/tasks/0/expected required:');
    expect(reason).toContain('(+');
  });

  it.each([
    ['no-match', { kind: 'golden' }],
    ['rubric-task', { kind: 'rubric', rubric: [{ criterion: 'polite', weight: 1 }] }],
  ])('a task the suite cannot grade (%s)', async (id, expected) => {
    const doc = mean();
    const task = (doc.suite as { tasks: Record<string, unknown>[] }).tasks[0]!;
    doc.id = id;
    task.expected = expected;
    expect(await reasonFor(id, JSON.stringify(doc))).toBe(
      `fixture file ${join(dir, `${id}.json`)}: task "forbidden-in-every-trial" cannot be graded ` +
        'by the suite: it needs expected.kind "golden" and expected.match {strategy, value}',
    );
  });

  it('a suite that states no passScore, which the published structure allows', async () => {
    const doc = mean();
    const suite = doc.suite as Record<string, unknown>;
    doc.id = 'no-pass-score';
    delete suite.thresholds;
    expect(await reasonFor('no-pass-score', JSON.stringify(doc))).toBe(
      `fixture file ${join(dir, 'no-pass-score.json')}: the suite states no thresholds.passScore, ` +
        'so no pass decision follows from it',
    );
  });

  it('accepts one script entry standing for every trial', async () => {
    const doc = mean();
    const script = doc.script as Record<string, unknown[]>;
    doc.id = 'one-entry';
    script['forbidden-in-every-trial'] = script['forbidden-in-every-trial']?.slice(0, 1) ?? [];
    writeFileSync(join(dir, 'one-entry.json'), JSON.stringify(doc));
    expect(await loadFixture('one-entry', dir)).toMatchObject({ ok: true });
  });
});

describe('the limit fixtures tell each reading of a limit apart, and the miss fixture leaves none to choose', () => {
  /** Every trial a host runs: a one-entry script is played in each of `trials.count` trials. */
  const trialsOf = (fixture: Fixture): ScriptedTrial[] =>
    Object.values(fixture.script).flatMap((entries) =>
      entries.length === 1
        ? Array.from(
            { length: fixture.suite.trials?.count ?? 1 },
            () => entries[0] as ScriptedTrial,
          )
        : entries,
    );
  /** Each task's trials, in the same way. */
  const tasksOf = (fixture: Fixture): (readonly ScriptedTrial[])[] =>
    Object.values(fixture.script).map((entries) =>
      entries.length === 1
        ? Array.from(
            { length: fixture.suite.trials?.count ?? 1 },
            () => entries[0] as ScriptedTrial,
          )
        : entries,
    );
  const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

  it('cost-limit: no trial alone exceeds maxCostUsd, and the total does', async () => {
    const fixture = await load('conformance-eval-trajectory-gate-cost-limit');
    const limit = fixture.suite.thresholds.maxCostUsd ?? NaN;
    const costs = trialsOf(fixture).map((t) => t.costUsd ?? NaN);
    expect(fixture.suite.trials).toBeUndefined();
    for (const cost of costs) expect(cost).toBeLessThanOrEqual(limit);
    expect(sum(costs)).toBeGreaterThan(limit);
  });

  it('latency-limit: nearest-rank, interpolated and maximum p95 agree above the limit; mean, median and minimum are within it', async () => {
    const fixture = await load('conformance-eval-trajectory-gate-latency-limit');
    const limit = fixture.suite.thresholds.maxP95LatencyMs ?? NaN;
    const sorted = trialsOf(fixture)
      .map((t) => t.latencyMs ?? NaN)
      .sort((a, b) => a - b);
    const n = sorted.length;
    const at = (i: number): number => sorted[i] ?? NaN;
    const nearestRank = at(Math.ceil(0.95 * n) - 1);
    const rank = 0.95 * (n - 1);
    const interpolated =
      at(Math.floor(rank)) + (at(Math.ceil(rank)) - at(Math.floor(rank))) * (rank % 1);
    const maximum = at(n - 1);
    expect(new Set([nearestRank, interpolated, maximum]).size).toBe(1);
    expect(maximum).toBeGreaterThan(limit);
    const median = n % 2 === 1 ? at((n - 1) / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
    for (const within of [sum(sorted) / n, median, at(0)])
      expect(within).toBeLessThanOrEqual(limit);
    // Over one figure per task, its trials' mean, even the maximum is within the limit: only the
    // p95 over trial latencies exceeds it.
    const taskMeans = tasksOf(fixture).map((t) => sum(t.map((r) => r.latencyMs ?? NaN)) / t.length);
    expect(fixture.suite.trials?.count).toBeGreaterThan(1);
    expect(Math.max(...taskMeans)).toBeLessThanOrEqual(limit);
  });

  it('limits-hold: the total cost and the p95 latency sit exactly on their limits, in numbers a double holds exactly', async () => {
    const fixture = await load('conformance-eval-trajectory-gate-limits-hold');
    const { maxCostUsd = NaN, maxP95LatencyMs = NaN } = fixture.suite.thresholds;
    const trials = trialsOf(fixture);
    const costs = trials.map((t) => t.costUsd ?? NaN);
    // Eighths and whole milliseconds add without rounding, so every reading lands on the limit.
    for (const cost of costs) expect(Number.isInteger(cost * 8)).toBe(true);
    expect(sum(costs)).toBe(maxCostUsd);
    for (const trial of trials) expect(trial.latencyMs).toBe(maxP95LatencyMs);
    // Over one figure per task, its trials' sum, the p95 is over the limit: only the p95 over
    // trial latencies keeps the suite passing.
    expect(fixture.suite.trials?.count).toBeGreaterThan(1);
    for (const task of tasksOf(fixture)) {
      expect(sum(task.map((r) => r.latencyMs ?? NaN))).toBeGreaterThan(maxP95LatencyMs);
    }
  });

  it('miss: in each task only trial 1 calls a tool without a recorded response, every output is golden, and one task has no trajectory', async () => {
    const fixture = await load('conformance-eval-trajectory-gate-miss');
    expect(fixture.suite.tasks.map((t) => t.expected.trajectory !== undefined)).toEqual([
      true,
      false,
    ]);
    for (const task of fixture.suite.tasks) {
      const recorded = (task.fixtures?.toolResponses ?? []).map((r) => r.tool);
      const missed = (fixture.script[task.taskId] ?? []).map((trial) =>
        trial.calls.filter((c) => !recorded.includes(c.tool)).map((c) => c.tool),
      );
      expect(missed).toEqual([['crm:lookup-orders'], []]);
      expect(task.expected.trajectory?.forbidden).toBeUndefined();
      for (const trial of fixture.script[task.taskId] ?? []) {
        expect(trial.output).toEqual(task.expected.match?.value);
      }
    }
  });
});

// What the measuring fixtures imply, read from the files with no suite code: which outputs meet
// their golden value under RFC 0081's strategies, and which calls have a recorded answer.
describe('the measuring fixtures are built to tell each reading apart', () => {
  const only = (fixture: Fixture, taskId: string): ScriptedTrial => {
    const [trial, ...rest] = fixture.script[taskId] ?? [];
    expect(rest).toEqual([]);
    if (trial === undefined) throw new Error(`no script for ${taskId}`);
    return trial;
  };
  const taskOf = (fixture: Fixture, taskId: string) => {
    const task = fixture.suite.tasks.find((t) => t.taskId === taskId);
    if (task === undefined) throw new Error(`no task ${taskId}`);
    return task;
  };

  it('measured: three outputs miss their golden value, two meet it only as documented, one path differs only in case', async () => {
    const fixture = await load('conformance-eval-trajectory-measured');
    expect(fixture.suite.thresholds.passScore).toBe(1);
    expect(fixture.suite.trials).toBeUndefined();
    const golden = (taskId: string) => taskOf(fixture, taskId).expected.match;
    const output = (taskId: string) => only(fixture, taskId).output;
    expect(golden('exact-output-differs')?.strategy).toBe('exact');
    expect(output('exact-output-differs')).not.toBe(golden('exact-output-differs')?.value);
    expect(golden('contains-output-lacks')?.strategy).toBe('contains');
    expect(String(output('contains-output-lacks'))).not.toContain(
      golden('contains-output-lacks')?.value,
    );
    expect(golden('json-member-differs')?.strategy).toBe('json-match');
    expect(
      isDeepStrictEqual(output('json-member-differs'), golden('json-member-differs')?.value),
    ).toBe(false);
    // Deep-equal as JSON, different as text: only a member-order-blind comparison matches it.
    const reordered = golden('json-members-reordered');
    expect(reordered?.strategy).toBe('json-match');
    expect(isDeepStrictEqual(output('json-members-reordered'), reordered?.value)).toBe(true);
    expect(JSON.stringify(output('json-members-reordered'))).not.toBe(
      JSON.stringify(reordered?.value),
    );
    // Contained, not equal: an exact reading of contains would miss it.
    const inside = golden('contains-output-inside');
    expect(inside?.strategy).toBe('contains');
    expect(String(output('contains-output-inside'))).toContain(inside?.value);
    expect(output('contains-output-inside')).not.toBe(inside?.value);
    // The golden output of a call whose args differ from the expected ones only in case.
    const cased = taskOf(fixture, 'args-differ-in-case');
    expect(output('args-differ-in-case')).toBe(cased.expected.match?.value);
    const want = cased.expected.trajectory?.calls[0]?.args;
    const seen = only(fixture, 'args-differ-in-case').calls[0]?.args;
    expect(isDeepStrictEqual(want, seen)).toBe(false);
    expect(JSON.stringify(want).toLowerCase()).toBe(JSON.stringify(seen).toLowerCase());
  });

  it('readings-miss: an empty list and a called tool, no list and a called tool, a response-less entry for the called tool', async () => {
    const fixture = await load('conformance-eval-trajectory-readings-miss');
    const tools = (taskId: string) => only(fixture, taskId).calls.map((c) => c.tool);
    expect(taskOf(fixture, 'empty-list-misses').fixtures?.toolResponses).toEqual([]);
    expect(tools('empty-list-misses')).toEqual(['crm:lookup-customer']);
    expect(taskOf(fixture, 'no-list-never-misses').fixtures).toBeUndefined();
    expect(tools('no-list-never-misses')).toEqual(['crm:lookup-customer']);
    expect(taskOf(fixture, 'entry-without-response-records').fixtures?.toolResponses).toEqual([
      { tool: 'crm:lookup-customer' },
    ]);
    expect(tools('entry-without-response-records')).toEqual(['crm:lookup-customer']);
    for (const task of fixture.suite.tasks) {
      expect(only(fixture, task.taskId).output).toEqual(task.expected.match?.value);
    }
  });

  it('zero-pass-score: at passScore 0 with one trial, a golden output on a wrong path, a missed output on a matching one, and a miss on a matching one', async () => {
    const fixture = await load('conformance-eval-trajectory-zero-pass-score');
    expect(fixture.suite.thresholds.passScore).toBe(0);
    expect(fixture.suite.trials).toBeUndefined();
    const path = (taskId: string) => {
      const trajectory = taskOf(fixture, taskId).expected.trajectory;
      if (trajectory === undefined) throw new Error(`${taskId} has no trajectory`);
      return judgePath(trajectory, only(fixture, taskId).calls);
    };
    const golden = (taskId: string) => taskOf(fixture, taskId).expected.match;
    // Score 1 on a path that fails: gated 0, which clears passScore 0, and the trial fails.
    expect(path('wrong-path-golden')).toBe('wrong-path');
    expect(golden('wrong-path-golden')?.strategy).toBe('exact');
    expect(only(fixture, 'wrong-path-golden').output).toBe(golden('wrong-path-golden')?.value);
    // Score 0 on a path that holds: 0 clears passScore 0, and the trial passes.
    expect(path('matching-path-misses')).toBe('match');
    expect(golden('matching-path-misses')?.strategy).toBe('exact');
    expect(only(fixture, 'matching-path-misses').output).not.toBe(
      golden('matching-path-misses')?.value,
    );
    // A path that holds and a call its task records no answer for: it fails closed, score 0.
    expect(path('miss-on-matching-path')).toBe('match');
    const recorded = (taskId: string) =>
      (taskOf(fixture, taskId).fixtures?.toolResponses ?? [])
        .filter((r) => r.response !== undefined)
        .map((r) => r.tool);
    const missed = only(fixture, 'miss-on-matching-path').calls.map((c) => c.tool);
    expect(missed.filter((tool) => !recorded('miss-on-matching-path').includes(tool))).toEqual([
      'crm:lookup-customer',
    ]);
    for (const taskId of ['wrong-path-golden', 'matching-path-misses']) {
      for (const call of only(fixture, taskId).calls) expect(recorded(taskId)).toContain(call.tool);
    }
  });
});
