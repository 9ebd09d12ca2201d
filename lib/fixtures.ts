// Loads one fixture file by id and checks it before anything drives a host with it. A fixture
// that cannot be used is a fact about the suite, so every failure comes back as a reason (the
// caller reports it as `blocked`), never as a thrown error.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LEGS } from './legs.ts';
import { packagePath } from './package-root.ts';
import { formatSchemaErrors, validate } from './schemas.ts';
import type { AgentEvalSuite, Fixture } from './types.ts';

export const FIXTURES_DIR: string = packagePath('fixtures');

/**
 * Fixtures an earlier version of the suite shipped and this one changed, kept so a report judged
 * with one can still be recomputed: `archive/<first 16 hex of its digest>/<id>.json`. Nothing
 * drives a host with them; `verify` loads one only for a report that recorded its digest.
 */
export const FIXTURE_ARCHIVE_DIR: string = join(FIXTURES_DIR, 'archive');

/** Where the archived fixture `id` with canonical digest `digest` lives, if it was archived. */
export function archivedFixtureDir(digest: string): string {
  return join(FIXTURE_ARCHIVE_DIR, digest.slice(0, 16));
}

/** Every fixture a leg drives, in the order of `LEGS`: the legs are the one list of them. */
export const FIXTURE_IDS: readonly string[] = LEGS.flatMap((leg) =>
  leg.fixtureId === undefined ? [] : [leg.fixtureId],
);

export type FixtureLoad =
  | {
      readonly ok: true;
      readonly fixture: Fixture;
      readonly path: string;
    }
  | { readonly ok: false; readonly reason: string };

// Same rule as the schema's `id` pattern; checked before the id touches a path.
const SAFE_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The text of each shipped fixture this process has already accepted, by path. A run loads every
 * fixture three times (its preflight, its leg, its report's digest), the last after the host has
 * answered, and a check's verdict follows from the bytes alone: the same bytes are accepted again
 * without validating them again. Only the shipped folder is kept, a score of small files; a
 * generated pack's thousands of cases are not.
 */
const accepted = new Map<string, string>();

export async function loadFixture(id: string, dir: string = FIXTURES_DIR): Promise<FixtureLoad> {
  if (!SAFE_ID.test(id)) {
    return fail(`fixture id ${JSON.stringify(id)} is not a safe file name (${SAFE_ID.source})`);
  }
  const path = join(dir, `${id}.json`);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'read error';
    return fail(`fixture file ${path} could not be read (${code})`);
  }
  const text = bytes.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return fail(`fixture file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (accepted.get(path) === text) return { ok: true, fixture: parsed as Fixture, path };
  const errors = validate('fixture', parsed);
  if (errors.length > 0) {
    return fail(
      `fixture file ${path} does not match the fixture schema:\n${formatSchemaErrors(errors)}`,
    );
  }
  // The schema has accepted the document, so it has the shape of a fixture with a published suite.
  const doc = parsed as UncheckedFixture;
  const problem =
    doc.id === id
      ? fixtureProblem(doc)
      : `id ${JSON.stringify(doc.id)} does not match the file name`;
  if (problem !== undefined) return fail(`fixture file ${path}: ${problem}`);
  if (dir === FIXTURES_DIR) accepted.set(path, text);
  return {
    ok: true,
    // fixtureProblem has checked what Fixture adds to the schema's shape.
    fixture: doc as Fixture,
    path,
  };
}

/** A document the fixture schema accepted; `fixtureProblem` decides whether it is a Fixture. */
export type UncheckedFixture = Omit<Fixture, 'suite'> & { readonly suite: AgentEvalSuite };

/**
 * What a schema cannot say, or the published suite structure leaves open: task ids are unique,
 * the suite states the passScore and grades every task by golden match, so the witness can grade
 * it, and the script lines up with the tasks. Undefined when the document is a usable Fixture.
 */
export function fixtureProblem(fixture: UncheckedFixture): string | undefined {
  const taskIds = fixture.suite.tasks.map((t) => t.taskId);
  const duplicate = taskIds.find((t, i) => taskIds.indexOf(t) !== i);
  if (duplicate !== undefined) return `task id ${JSON.stringify(duplicate)} appears twice`;
  const scriptIds = Object.keys(fixture.script);
  const unscripted = taskIds.filter((t) => !scriptIds.includes(t));
  const unknown = scriptIds.filter((t) => !taskIds.includes(t));
  if (unscripted.length > 0 || unknown.length > 0) {
    return (
      `script keys must equal the task ids; ` +
      `tasks without a script: [${unscripted.join(', ')}], ` +
      `script keys without a task: [${unknown.join(', ')}]`
    );
  }
  // The witness grades golden matches only; a task it cannot grade makes the fixture unusable.
  const ungradable = fixture.suite.tasks.find(
    (t) => t.expected.kind !== 'golden' || t.expected.match === undefined,
  );
  if (ungradable !== undefined) {
    return `task "${ungradable.taskId}" cannot be graded by the suite: it needs expected.kind "golden" and expected.match {strategy, value}`;
  }
  if (typeof fixture.suite.thresholds?.passScore !== 'number') {
    return 'the suite states no thresholds.passScore, so no pass decision follows from it';
  }
  const count = fixture.suite.trials?.count ?? 1;
  for (const taskId of taskIds) {
    const entries = fixture.script[taskId]?.length ?? 0;
    if (entries !== 1 && entries !== count) {
      return `script for task "${taskId}" has ${entries} entries; expected 1 or trials.count (${count})`;
    }
  }
  return unstatedFigure(fixture);
}

/**
 * A declared cost or latency limit is decided on the figures the script states, so every scripted
 * trial must state the figure the limit reads; otherwise no verdict follows from the file.
 */
function unstatedFigure(fixture: UncheckedFixture): string | undefined {
  const thresholds = fixture.suite.thresholds;
  const limits = [
    ['maxCostUsd', 'costUsd'],
    ['maxP95LatencyMs', 'latencyMs'],
  ] as const;
  for (const [limit, figure] of limits) {
    if (thresholds?.[limit] === undefined) continue;
    for (const [taskId, entries] of Object.entries(fixture.script)) {
      if (entries.some((entry) => entry[figure] === undefined)) {
        return `the suite declares thresholds.${limit}, but a script entry of task "${taskId}" states no ${figure}`;
      }
    }
  }
  return undefined;
}

function fail(reason: string): FixtureLoad {
  return { ok: false, reason };
}
