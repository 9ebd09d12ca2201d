// The reference host's own reading of a fixture file (contract §3): the published suite shape
// goes in, the host's normalised task comes out. The host keys recorded answers by tool, so the
// list's rules (first entry wins, an entry without `response` still records its tool) must
// survive that step, and a task the scripted agent cannot be graded on must be refused.

import { describe, expect, it } from 'vitest';
import { readFixture } from '../../reference-host/fixtures.ts';

function fixtureWith(task: Record<string, unknown>): Record<string, unknown> {
  return {
    id: 'reader',
    requirement: 'openwop.requirement.0246.suite-gated',
    agentId: 'core.conformance.eval-scripted-agent',
    suite: {
      suiteId: 'reader.evals.one',
      version: '1.0.0',
      modes: ['golden'],
      thresholds: { passScore: 0.6 },
      tasks: [{ taskId: 't', input: null, ...task }],
    },
    script: { t: [{ calls: [], output: 'ok' }] },
  };
}

const golden = { kind: 'golden', match: { strategy: 'contains', value: { n: 1 } } };

describe('the reference host reads a published suite task', () => {
  it('takes the strategy and value from expected.match', () => {
    const task = readFixture(fixtureWith({ expected: golden })).suite.tasks[0];
    expect(task).toEqual({ taskId: 't', match: 'contains', value: { n: 1 } });
  });

  it('keys recorded answers by tool: first entry wins, an entry without response answers null', () => {
    const task = readFixture(
      fixtureWith({
        expected: golden,
        fixtures: {
          toolResponses: [
            { tool: 's:a', response: 1 },
            { tool: 's:b' },
            { tool: 's:a', response: 2 },
            { tool: '__proto__', response: 3 },
          ],
        },
      }),
    ).suite.tasks[0];
    const answers = task?.toolResponses ?? {};
    expect(Object.keys(answers)).toEqual(['s:a', 's:b', '__proto__']);
    expect([answers['s:a'], answers['s:b'], Object.hasOwn(answers, '__proto__')]).toEqual([
      1,
      null,
      true,
    ]);
  });

  it('records nothing, so nothing can miss, when fixtures carry no toolResponses', () => {
    const task = readFixture(
      fixtureWith({ expected: golden, fixtures: { memorySeed: [{ note: 'x' }] } }),
    ).suite.tasks[0];
    expect(task !== undefined && Object.hasOwn(task, 'toolResponses')).toBe(false);
  });

  it.each([
    ['no match', { kind: 'golden' }, 'suite.tasks[0].expected.match must be an object'],
    ['a rubric task', { kind: 'rubric', match: golden.match }, 'must be "golden"'],
    ['the unpublished shape', { match: 'exact', value: 'ok' }, 'must be "golden"'],
  ])('refuses a task with %s', (_, expected, message) => {
    expect(() => readFixture(fixtureWith({ expected }))).toThrow(message);
  });

  it('refuses answers keyed by tool instead of listed', () => {
    expect(() =>
      readFixture(fixtureWith({ expected: golden, fixtures: { toolResponses: { 's:a': 1 } } })),
    ).toThrow('suite.tasks[0].fixtures.toolResponses must be an array');
  });
});
