// Contract §3: a suite is a published AgentEvalSuite v2 document plus only the RFC 0244 keys of §5.
// With those keys removed it holds against the published structure; with any of them kept it does
// not, because the published structure is closed.

import { describe, expect, it } from 'vitest';
import { validate } from '../../lib/schemas.ts';
import { contractSuite, fullPublishedSuite } from './examples.ts';
import { publishedSuiteSchema, publishedSuiteView, stripRfc0244 } from './published-view.ts';

type Doc = Record<string, unknown>;

const view = publishedSuiteView();

describe('the published view of the suite schema', () => {
  it('the contract §3 example holds once its RFC 0244 keys are stripped', () => {
    expect(view(stripRfc0244(contractSuite()))).toEqual([]);
  });

  it('a suite with every published optional member holds, stripped or not', () => {
    expect(view(fullPublishedSuite())).toEqual([]);
    expect(view(stripRfc0244(fullPublishedSuite()))).toEqual([]);
    expect(validate('agent-eval-suite', fullPublishedSuite())).toEqual([]);
  });

  it('is closed: a root trials block fails it, naming the key', () => {
    const suite = stripRfc0244(contractSuite());
    suite.trials = { count: 2, passRule: 'mean' };
    expect(view(suite)).toContainEqual(
      expect.objectContaining({
        instancePath: '',
        keyword: 'additionalProperties',
        params: { additionalProperty: 'trials' },
      }),
    );
  });

  it('is closed: an expected trajectory fails it, naming the key', () => {
    const suite = contractSuite();
    delete suite.trials;
    expect(view(suite)).toEqual([
      expect.objectContaining({
        instancePath: '/tasks/0/expected',
        keyword: 'additionalProperties',
        params: { additionalProperty: 'trajectory' },
      }),
    ]);
  });

  it('the suite schema itself accepts both additions, which is all that separates it', () => {
    expect(validate('agent-eval-suite', contractSuite())).toEqual([]);
    const ours = JSON.stringify(publishedSuiteSchema());
    expect(ours).not.toMatch(/"trajectory"|"passRule"/);
  });

  it('stripping removes only the §5 keys and leaves the input untouched', () => {
    const suite = contractSuite();
    const stripped = stripRfc0244(suite) as Doc & { tasks: { expected: Doc }[] };
    expect(suite.trials).toBeDefined();
    expect(stripped.trials).toBeUndefined();
    expect(stripped.tasks[0]?.expected).toEqual({
      kind: 'golden',
      match: { strategy: 'exact', value: 'customer 42: active' },
    });
    expect({ ...stripped, trials: suite.trials, tasks: suite.tasks }).toEqual(suite);
  });
});
