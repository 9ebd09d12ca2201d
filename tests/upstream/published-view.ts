// The published AgentEvalSuite v2 as this suite's schema holds it: our schema with the RFC 0244
// keys of contract §5 deleted, compiled apart from the suite's own validators. A suite document
// with those keys stripped must hold against it; one that keeps them must not, since the
// published structure is closed. Shared with the fixture tests, which run it on every fixture.

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import suiteSchema from '../../schemas/v2/agent-eval-suite.schema.json' with { type: 'json' };
import idsSchema from '../../schemas/v2/ids.schema.json' with { type: 'json' };

type Doc = Record<string, unknown>;

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule.default;

export interface PublishedViewError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** Checks a suite document; an empty list means the published structure accepts it. */
export type PublishedSuiteValidator = (suite: unknown) => readonly PublishedViewError[];

/** Where contract §5 adds to the published suite: the root `trials`, each task's trajectory. */
const ADDED_AT: readonly (readonly string[])[] = [
  ['properties', 'trials'],
  ['properties', 'tasks', 'items', 'properties', 'expected', 'properties', 'trajectory'],
];

/** Our suite schema minus the §5 additions; throws if an addition is not where it should be. */
export function publishedSuiteSchema(): Doc {
  const schema = structuredClone(suiteSchema) as Doc;
  for (const path of ADDED_AT) {
    const key = path[path.length - 1] ?? '';
    const parent = path.slice(0, -1).reduce<Doc>((node, k) => node[k] as Doc, schema);
    if (!(key in parent)) throw new Error(`the suite schema has no ${path.join('.')} to delete`);
    delete parent[key];
  }
  return schema;
}

export function publishedSuiteView(): PublishedSuiteValidator {
  // Strict like the suite's own validators, so the view cannot hide a keyword Ajv would ignore.
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(idsSchema);
  const fn = ajv.compile(publishedSuiteSchema());
  return (suite) =>
    fn(suite)
      ? []
      : (fn.errors ?? []).map((e) => ({
          instancePath: e.instancePath,
          keyword: e.keyword,
          message: e.message ?? 'is invalid',
          params: e.params as Record<string, unknown>,
        }));
}

/** A copy of a suite without the RFC 0244 keys of contract §5 (root `trials`, `expected.trajectory`). */
export function stripRfc0244<T>(suite: T): T {
  const copy = structuredClone(suite) as Doc;
  delete copy.trials;
  const tasks = Array.isArray(copy.tasks) ? (copy.tasks as unknown[]) : [];
  for (const task of tasks) {
    const expected = (task as Doc | null)?.expected;
    if (typeof expected === 'object' && expected !== null) delete (expected as Doc).trajectory;
  }
  return copy as T;
}
