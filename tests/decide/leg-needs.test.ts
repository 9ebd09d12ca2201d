// The needs each leg declares (lib/legs.ts) are what its fixture file holds. The limit gates read
// the declarations so that host facts are decided before the fixture loads; this keeps the two
// from drifting apart. The file is read as plain JSON, whatever the fixture types say.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../../lib/fixtures.ts';
import { LEGS } from '../../lib/legs.ts';

interface RawTask {
  readonly expected?: { readonly trajectory?: { readonly match?: unknown } };
}
interface RawFixture {
  readonly suite: {
    readonly tasks: readonly RawTask[];
    readonly trials?: { readonly count?: unknown; readonly passRule?: unknown };
  };
}

describe('declared fixture needs', () => {
  it('every host leg declares needs, the server-free leg none', () => {
    for (const leg of LEGS)
      expect(leg.needs === undefined, leg.id).toBe(leg.fixtureId === undefined);
  });

  it.each(LEGS.filter((l) => l.fixtureId !== undefined).map((l) => [l.id, l] as const))(
    '%s declares what its fixture file holds',
    async (_id, leg) => {
      const text = await readFile(join(FIXTURES_DIR, `${leg.fixtureId ?? ''}.json`), 'utf8');
      const { suite } = JSON.parse(text) as RawFixture;
      const modes = [
        ...new Set(
          suite.tasks.flatMap((t) => {
            const match = t.expected?.trajectory?.match;
            return match === undefined ? [] : [match];
          }),
        ),
      ];
      expect(leg.needs).toEqual({
        taskCount: suite.tasks.length,
        trialCount: suite.trials?.count ?? 1,
        ...(suite.trials?.passRule === undefined ? {} : { passRule: suite.trials.passRule }),
        matchModes: modes,
      });
    },
  );
});

describe('the reading legs', () => {
  it.each([
    ['exact', 4],
    ['in-order', 5],
    ['any-order', 6],
  ] as const)(
    'readings-%s needs only its own match mode, one trial per task, and the trajectory gate',
    (mode, taskCount) => {
      const leg = LEGS.find((l) => l.id === `openwop.requirement.0246.readings-${mode}`);
      expect(leg?.fixtureId).toBe(`conformance-eval-trajectory-readings-${mode}`);
      expect(leg?.needs).toEqual({ taskCount, trialCount: 1, matchModes: [mode] });
      expect(leg?.gates).toEqual(['agents.evalSuite', 'agents.evalSuite.trajectory']);
    },
  );

  it('follow all-rule-unchanged, in the order exact, in-order, any-order', () => {
    const ids = LEGS.map((l) => l.id.replace('openwop.requirement.0246.', ''));
    const at = ids.indexOf('all-rule-unchanged');
    expect(ids.slice(at + 1, at + 4)).toEqual([
      'readings-exact',
      'readings-in-order',
      'readings-any-order',
    ]);
  });
});
