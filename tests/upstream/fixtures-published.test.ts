// Contract §3: each shipped fixture's suite is a published AgentEvalSuite v2 document
// plus only the RFC 0244 keys of contract §5. Stripped of those keys it holds against the
// published structure as the schemas hold it; kept, the closed published structure refuses them,
// so the view really is the published one and the fixtures really carry the additions.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_IDS, FIXTURES_DIR } from '../../lib/fixtures.ts';
import { publishedSuiteView, stripRfc0244 } from './published-view.ts';

type Doc = Record<string, unknown>;

const view = publishedSuiteView();

function suiteOf(id: string): Doc {
  const fixture = JSON.parse(readFileSync(join(FIXTURES_DIR, `${id}.json`), 'utf8')) as Doc;
  return fixture.suite as Doc;
}

/** Where each fixture's suite carries an RFC 0244 key: the root, or a task's `expected`. */
function rfc0244Keys(suite: Doc): string[] {
  const at = 'trials' in suite ? ['/trials'] : [];
  const tasks = suite.tasks as { expected: Doc }[];
  tasks.forEach((task, i) => {
    if ('trajectory' in task.expected) at.push(`/tasks/${i}/expected/trajectory`);
  });
  return at;
}

describe('the shipped fixtures are published AgentEvalSuite v2 documents plus contract §5', () => {
  it.each(FIXTURE_IDS)('%s: its suite without the RFC 0244 keys holds', (id) => {
    expect(view(stripRfc0244(suiteOf(id)))).toEqual([]);
  });

  it.each(FIXTURE_IDS)('%s: each RFC 0244 key it keeps is refused by name', (id) => {
    const suite = suiteOf(id);
    const refused = view(suite)
      .filter((e) => e.keyword === 'additionalProperties')
      .map((e) => `${e.instancePath}/${String(e.params.additionalProperty)}`);
    expect(refused.sort()).toEqual(rfc0244Keys(suite).sort());
  });

  it(`${FIXTURE_IDS.length} of ${FIXTURE_IDS.length} hold, and between them they use both additions`, () => {
    const suites = FIXTURE_IDS.map(suiteOf);
    expect(suites.filter((s) => view(stripRfc0244(s)).length === 0)).toHaveLength(
      FIXTURE_IDS.length,
    );
    const keys = suites.flatMap(rfc0244Keys).map((k) => k.replace(/\/tasks\/\d+/, '/tasks/*'));
    expect(new Set(keys)).toEqual(new Set(['/trials', '/tasks/*/expected/trajectory']));
  });
});
