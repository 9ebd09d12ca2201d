// The host guide's "Exact shapes" section promises how the suite compares outputs and calls. Its
// golden-match examples are read out of the guide and run through the witness's own matcher, so
// the guide cannot drift from what the suite does; the call examples are restated here.

import { describe, expect, it } from 'vitest';

import type { GoldenExpectation, Json, ToolCall } from '../../lib/types.ts';
import { goldenMatches, matchTrajectory, missedTool } from '../../lib/witness/match.ts';
import { readRepoFile } from './markdown.ts';

const STRATEGIES = ['exact', 'contains', 'json-match'] as const;

interface Example {
  readonly strategy: GoldenExpectation['strategy'];
  readonly output: Json;
  readonly value: Json;
  readonly score: number;
}

function guideExamples(): readonly Example[] {
  const out: Example[] = [];
  for (const line of readRepoFile('docs/host-guide.md').split('\n')) {
    const strategy = STRATEGIES.find((s) => line.startsWith(`| \`${s}\``));
    if (strategy === undefined) continue;
    for (const m of line.matchAll(/output `([^`]+)`, value `([^`]+)`: ([01])/g)) {
      const output = JSON.parse(m[1] ?? '') as Json;
      const value = JSON.parse(m[2] ?? '') as Json;
      out.push({ strategy, output, value, score: Number(m[3]) });
    }
  }
  return out;
}

describe('the host guide states the comparisons the witness makes', () => {
  it('every golden-match example in the guide scores what the witness scores', () => {
    const examples = guideExamples();
    expect(new Set(examples.map((e) => e.strategy))).toEqual(new Set(STRATEGIES));
    expect(examples.length).toBeGreaterThanOrEqual(8);
    for (const { strategy, output, value, score } of examples) {
      const got = goldenMatches({ strategy, value }, output) ? 1 : 0;
      expect(
        got,
        `${strategy}: output ${JSON.stringify(output)}, value ${JSON.stringify(value)}`,
      ).toBe(score);
    }
  });

  it('a call without args is a call with {}, and an expectation without args takes any', () => {
    const call = (tool: string, args?: { [k: string]: Json }): ToolCall =>
      args === undefined ? { tool } : { tool, args };
    const exact = (expected: ToolCall[], observed: ToolCall[]): boolean =>
      matchTrajectory({ match: 'exact', calls: expected }, observed).matched;
    expect(exact([call('a', {})], [call('a')])).toBe(true);
    expect(exact([call('a')], [call('a', { x: 1 })])).toBe(true);
    expect(exact([call('a', { x: 1 })], [call('a')])).toBe(false);
  });

  it('any-order pairs the args-free expectation with the call the args expectation leaves', () => {
    const expected = [{ tool: 'a' }, { tool: 'a', args: { x: 1 } }];
    const observed = [
      { tool: 'a', args: { x: 1 } },
      { tool: 'a', args: { x: 2 } },
    ];
    expect(matchTrajectory({ match: 'any-order', calls: expected }, observed).matched).toBe(true);
    expect(
      matchTrajectory({ match: 'any-order', calls: expected }, observed.slice(0, 1)).matched,
    ).toBe(false);
  });

  it('only a task that lists toolResponses can miss, and an entry without response records', () => {
    expect(missedTool(undefined, [{ tool: 'a' }])).toBeNull();
    expect(missedTool([], [{ tool: 'a' }])).toBe('a');
    expect(missedTool([{ tool: 'a' }], [{ tool: 'a' }])).toBeNull();
  });
});
