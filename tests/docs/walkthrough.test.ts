// The host guide walks one fixture through number by number and shows the summary a correct host
// returns. That summary is the witness's own expectation for the fixture, so a fixture or a
// grading change that moves a number fails here instead of leaving the guide to mislead a host.

import { describe, expect, it } from 'vitest';

import { loadFixture } from '../../lib/fixtures.ts';
import { expectRun, type ExpectedRun } from '../../lib/witness/expected.ts';
import { jsonBlocks } from './json-blocks.ts';
import { readRepoFile } from './markdown.ts';

const GUIDE = 'docs/host-guide.md';

/** The fixture the walkthrough names in its heading. */
function walkedFixture(markdown: string): string {
  const heading = /^## \d+\. Walkthrough: `([a-z0-9-]+)`$/m.exec(markdown);
  if (heading === null) throw new Error(`${GUIDE} has no "Walkthrough: \`<fixture>\`" heading`);
  return heading[1] ?? '';
}

/** The summary members the walkthrough shows, as the witness expects them. */
function expectedSummary(run: ExpectedRun): unknown {
  return {
    suiteId: run.suiteId,
    suiteVersion: run.suiteVersion,
    aggregateScore: run.aggregateScore,
    ...(run.gatedAggregatePresence === 'required'
      ? { gatedAggregateScore: run.gatedAggregateScore }
      : {}),
    passed: run.passed,
    taskCount: run.taskCount,
    passedCount: run.passedCount,
    tasks: run.tasks.map((t) => ({
      taskId: t.taskId,
      score: t.score,
      ...(t.gatedScorePresence === 'required' ? { gatedScore: t.gatedScore } : {}),
      passed: t.passed,
    })),
  };
}

describe('the host guide walkthrough', () => {
  it('shows the summary the witness expects for the fixture it walks through', async () => {
    const markdown = readRepoFile(GUIDE);
    const loaded = await loadFixture(walkedFixture(markdown));
    if (!loaded.ok) throw new Error(loaded.reason);
    const summaries = jsonBlocks(markdown).blocks.filter(
      (b) =>
        b.declared !== undefined && 'schema' in b.declared && b.declared.schema === 'eval-summary',
    );
    expect(summaries).toHaveLength(1);
    const shown: unknown = JSON.parse(summaries[0]?.text ?? '');
    expect(shown).toEqual(expectedSummary(expectRun(loaded.fixture)));
  });
});
