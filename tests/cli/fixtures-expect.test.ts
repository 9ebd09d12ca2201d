// `openwop-eval-gate fixtures` hands a host the fixtures to seed, with digests that are the ones
// a report records; `expect` prints what a conformant host reports for a fixture, as the witness
// derives it. Both with their error paths.

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalDigest, canonicalJson } from '../../lib/report/canonical.ts';
import type { ExpectedView } from '../../lib/report/expect.ts';
import { expectRun } from '../../lib/eval-gate-witness.ts';
import { FIXTURE_IDS, FIXTURES_DIR, loadFixture } from '../../lib/fixtures.ts';
import { generatePack } from '../../lib/generate/pack.ts';
import { GENERATED_REQUIREMENT, LEGS } from '../../lib/legs.ts';
import { currentSet } from '../../lib/requirement-sets.ts';
import type { Fixture } from '../../lib/types.ts';
import { cli, removeDir, scratchDir } from './support.ts';

const MEAN = 'conformance-eval-trajectory-gate-mean';

let dir = '';
beforeEach(async () => {
  dir = await scratchDir();
});
afterEach(async () => {
  await removeDir(dir);
});

async function shipped(id: string): Promise<Fixture> {
  const loaded = await loadFixture(id);
  if (!loaded.ok) throw new Error(loaded.reason);
  return loaded.fixture;
}

describe('fixtures', () => {
  it('lists every driven fixture with its requirement, file and canonical-JSON digest', async () => {
    const run = await cli(['fixtures']);
    expect(run.code).toBe(0);
    const driven = LEGS.filter((l) => l.fixtureId !== undefined);
    expect(run.stdout).toHaveLength(driven.length + 1);
    for (const [i, leg] of driven.entries()) {
      const id = leg.fixtureId ?? '';
      // The digest of the file's parsed JSON, re-derived here from the file on disk.
      const parsed: unknown = JSON.parse(await readFile(join(FIXTURES_DIR, `${id}.json`), 'utf8'));
      expect(run.stdout[i]).toBe(`${id}  ${leg.id}  ${id}.json  sha256:${canonicalDigest(parsed)}`);
    }
    expect(new Set(driven.map((l) => l.fixtureId))).toEqual(new Set(FIXTURE_IDS));
  });

  it('--out writes the files byte for byte, the pack a strict run drives beside them, and a manifest whose digests a run records', async () => {
    const out = join(dir, 'seed', 'nested');
    const run = await cli(['fixtures', '--out', out]);
    expect(run.code).toBe(0);
    const pack = generatePack(currentSet().pack).map((f) => f.id);
    expect(pack).toHaveLength(currentSet().pack.count);
    expect((await readdir(out)).sort()).toEqual(
      [...FIXTURE_IDS, ...pack]
        .map((id) => `${id}.json`)
        .concat('fixtures.manifest.json')
        .sort(),
    );
    for (const id of FIXTURE_IDS) {
      expect(await readFile(join(out, `${id}.json`))).toEqual(
        await readFile(join(FIXTURES_DIR, `${id}.json`)),
      );
    }
    const manifest = JSON.parse(await readFile(join(out, 'fixtures.manifest.json'), 'utf8')) as {
      fixtures: { id: string; requirement: string; file: string; sha256: string }[];
    };
    const reportRun = await cli(['run', '--report-dir', join(dir, 'reports')]);
    expect(reportRun.code).toBe(0);
    const report = JSON.parse(
      await readFile(join(dir, 'reports', 'eval-gate-report.json'), 'utf8'),
    ) as { digests: { fixtures: Record<string, string> } };
    const hand = manifest.fixtures.filter((f) => !pack.includes(f.id));
    expect(Object.fromEntries(hand.map((f) => [f.id, f.sha256]))).toEqual(report.digests.fixtures);
    for (const f of hand) {
      expect(LEGS.find((l) => l.id === f.requirement)?.fixtureId).toBe(f.id);
      expect(f.file).toBe(`${f.id}.json`);
    }
    expect(manifest.fixtures.filter((f) => pack.includes(f.id)).map((f) => f.requirement)).toEqual(
      pack.map(() => GENERATED_REQUIREMENT),
    );
  }, 60_000);

  it('a fixture re-indented by the host keeps its digest', async () => {
    const fixture = await shipped(MEAN);
    expect(canonicalDigest(JSON.parse(JSON.stringify(fixture, null, 4)))).toBe(
      canonicalDigest(fixture),
    );
    expect(canonicalJson(fixture)).not.toContain('\n');
  });

  it('--out into a path that cannot be a directory exits 2 naming it', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, 'not a directory');
    const run = await cli(['fixtures', '--out', join(file, 'seed')]);
    expect(run.code).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr).toEqual([
      `openwop-eval-gate: --out ${join(file, 'seed')} could not be written (ENOTDIR)`,
    ]);
  });

  it('takes no positional argument and no unknown flag', async () => {
    expect((await cli(['fixtures', 'extra'])).code).toBe(2);
    const bad = await cli(['fixtures', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toEqual([
      'openwop-eval-gate: unknown flag --json for "fixtures"; its flags are --out, --generate, --seed (see --help)',
    ]);
  });
});

describe('expect', () => {
  it.each(FIXTURE_IDS)('--json for %s is the witness grading, member by member', async (id) => {
    const run = await cli(['expect', id, '--json']);
    expect(run.code).toBe(0);
    const view = JSON.parse(run.stdout.join('\n')) as ExpectedView;
    const graded = expectRun(await shipped(id));
    expect(view.scoredEvents).toBe(graded.scoredCount);
    expect(view.suite.aggregateScore).toBe(graded.aggregateScore);
    expect(view.suite.passedCount).toBe(graded.passedCount);
    expect(view.suite.passed).toBe(graded.passed);
    expect('gatedAggregateScore' in view.suite).toBe(graded.gatedAggregatePresence !== 'forbidden');
    expect(view.tasks.map((t) => t.taskId)).toEqual(graded.tasks.map((t) => t.taskId));
    for (const [i, task] of view.tasks.entries()) {
      const want = graded.tasks[i];
      expect(task.score).toBe(want?.score);
      expect(task.passed).toBe(want?.passed);
      expect(task.gatedScore).toBe(
        want?.gatedScorePresence === 'forbidden' ? undefined : want?.gatedScore,
      );
      expect(
        task.trials.map((t) => [t.score, t.trajectoryMatched, t.gatingScore, t.passed]),
      ).toEqual(want?.trials.map((t) => [t.score, t.trajectoryMatched, t.gatingScore, t.passed]));
    }
  });

  it('the mean fixture: a forbidden tool in every trial gates the task and suite to 0 and fails both (RFC 0246 §A, §B)', async () => {
    const view = JSON.parse(
      (await cli(['expect', MEAN, '--json'])).stdout.join('\n'),
    ) as ExpectedView;
    expect(view.suite).toMatchObject({
      aggregateScore: 1,
      gatedAggregateScore: 0,
      passed: false,
      passedCount: 0,
    });
    expect(view.tasks.every((t) => t.gatedScore === 0 && !t.passed)).toBe(true);
    expect(view.tasks.flatMap((t) => t.trials).every((t) => t.trajectoryMatched === false)).toBe(
      true,
    );
  });

  it('the table shows per trial its score, trajectory, gating score and passed, then the suite line', async () => {
    const run = await cli(['expect', MEAN]);
    expect(run.code).toBe(0);
    expect(run.stdout[2]).toMatch(/^task\s+trial\s+score\s+trajectory\s+gating\s+passed$/);
    expect(run.stdout).toContainEqual(expect.stringMatching(/^\s+1\s+1\s+failed\s+0\s+false$/));
    expect(run.stdout).toContain(
      'suite: aggregateScore 1, gatedAggregateScore 0, passed false, passedCount 0 of 1',
    );
    expect(run.stdout).toContainEqual(expect.stringMatching(/^eval\.scored events: \d+$/));
  });

  it('the limit fixtures print each declared limit with its stated figure, and the figures per trial', async () => {
    const cost = await cli(['expect', 'conformance-eval-trajectory-gate-cost-limit']);
    expect(cost.stdout).toContain(
      'suite: aggregateScore 1, gatedAggregateScore 1, passed false, passedCount 2 of 2',
    );
    expect(cost.stdout).toContain(
      'limit: maxCostUsd 0.05, stated total cost 0.06: exceeded, so passed is false',
    );
    expect(cost.stdout).toContain(
      'stated figures of tier-of-first-customer, trial by trial: cost 0.03',
    );
    const hold = await cli(['expect', 'conformance-eval-trajectory-gate-limits-hold']);
    expect(hold.stdout.filter((l) => l.startsWith('limit: '))).toEqual([
      'limit: maxCostUsd 0.5, stated total cost 0.5: holds',
      'limit: maxP95LatencyMs 100, stated p95 latency 100: holds',
    ]);
  });

  it('the miss fixture names the trial that fails closed', async () => {
    const run = await cli(['expect', 'conformance-eval-trajectory-gate-miss']);
    expect(run.stdout).toContain(
      'failed closed on a fixture miss (score 0, gating 0, whatever the output): miss-then-clean trial 1, no-path-miss-then-clean trial 1',
    );
    expect(run.stdout).toContain(
      'suite: aggregateScore 0.5, gatedAggregateScore 0.5, passed false, passedCount 0 of 2',
    );
  });

  it("lists every member the summary must carry under the host's own names, trials.meanScore and the trials bookkeeping included", async () => {
    const view = JSON.parse(
      (await cli(['expect', MEAN, '--json'])).stdout.join('\n'),
    ) as ExpectedView;
    expect(view.suite.fields).toEqual({
      must: {
        aggregateScore: 1,
        gatedAggregateScore: 0,
        passed: false,
        taskCount: 1,
        passedCount: 0,
      },
      ifCarried: {},
    });
    expect(view.tasks[0]?.fields).toEqual({
      must: { score: 1, gatedScore: 0, passed: false, 'trials.meanScore': 1 },
      ifCarried: {
        'trials.count': 2,
        'trials.passRule': 'mean',
        'trials.passAtK': 0,
        'trials.passHatK': 0,
        'trials.trialStats.passed': 0,
        'trials.trialStats.trajectoryFailed': 2,
        'trials.trialStats.failedClosed': 0,
        'trials.trialStats.minScore': 1,
        'trials.trialStats.maxScore': 1,
      },
    });
    const run = await cli(['expect', MEAN]);
    expect(run.stdout).toContainEqual(
      expect.stringMatching(
        /^ {2}task "[^"]+": score 1, gatedScore 0, passed false, trials\.meanScore 1; if carried: trials\.count 2, trials\.passRule mean, trials\.passAtK 0, /,
      ),
    );
  });

  it('without a trials block or a trajectory, no trials member and no gated member is asked for', async () => {
    const view = JSON.parse(
      (await cli(['expect', 'conformance-eval-trajectory-gate-control', '--json'])).stdout.join(
        '\n',
      ),
    ) as ExpectedView;
    expect(view.suite.fields.must).not.toHaveProperty('gatedAggregateScore');
    for (const task of view.tasks) {
      expect(task.fields).toEqual({ must: { score: 1, passed: true }, ifCarried: {} });
    }
  });

  it('the control fixture says its gated fields are absent', async () => {
    const run = await cli(['expect', 'conformance-eval-trajectory-gate-control']);
    expect(run.stdout.find((l) => l.startsWith('suite:'))).toContain('gatedAggregateScore absent');
  });

  it('reads a fixture file, and refuses an unknown id, an unreadable file and a non-fixture', async () => {
    const file = join(dir, 'mine.json');
    await writeFile(file, JSON.stringify(await shipped(MEAN)));
    const fromFile = await cli(['expect', file, '--json']);
    expect(fromFile.code).toBe(0);
    expect(JSON.parse(fromFile.stdout.join('\n'))).toEqual(
      JSON.parse((await cli(['expect', MEAN, '--json'])).stdout.join('\n')),
    );

    const unknown = await cli(['expect', 'conformance-eval-nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr[0]).toMatch(
      /^openwop-eval-gate: no shipped fixture "conformance-eval-nope" \(.*ENOENT.*\); the shipped ids are conformance-eval-trajectory-gate-mean, /,
    );
    const missing = await cli(['expect', join(dir, 'absent.json')]);
    expect(missing.stderr).toEqual([
      `openwop-eval-gate: the fixture file ${join(dir, 'absent.json')} could not be read (ENOENT)`,
    ]);
    const notJson = join(dir, 'bad.json');
    await writeFile(notJson, '{');
    expect((await cli(['expect', notJson])).stderr).toEqual([
      `openwop-eval-gate: the fixture file ${notJson} is not JSON`,
    ]);
    const notFixture = join(dir, 'suite.json');
    await writeFile(notFixture, JSON.stringify({ suiteId: 'x' }));
    const refused = await cli(['expect', notFixture]);
    expect(refused.code).toBe(2);
    expect(refused.stderr[0]).toMatch(
      /^openwop-eval-gate: the fixture file .* is not a fixture \(fixture#/,
    );
    expect((await cli(['expect'])).code).toBe(2);
  });

  it('refuses a fixture file the schema accepts but the loader would not, as judge does', async () => {
    const mean = await shipped(MEAN);
    const [first] = mean.suite.tasks;
    if (first === undefined) throw new Error('the mean fixture has no task');
    const twice = { ...mean, suite: { ...mean.suite, tasks: [...mean.suite.tasks, first] } };
    const file = join(dir, 'twice.json');
    await writeFile(file, JSON.stringify(twice));
    const refused = await cli(['expect', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toEqual([
      `openwop-eval-gate: the fixture file ${file}: task id ${JSON.stringify(first.taskId)} appears twice`,
    ]);
  });
});
