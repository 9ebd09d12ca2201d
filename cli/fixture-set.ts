// The fixtures a host seeds, as the suite ships them: `openwop-eval-gate fixtures [--out DIR]`
// lists or writes them with a manifest, and `verify` checks a report's fixture digests against
// the same set. A fixture's digest is SHA-256 of its canonical JSON, so a host that re-indents or
// reorders a file it seeded still holds the same fixture.

import { Refusal } from '../lib/refusal.ts';
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirectory, unwritableReason } from '../lib/make-directory.ts';
import {
  archivedFixtureDir,
  fixtureProblem,
  loadFixture,
  type FixtureLoad,
  type UncheckedFixture,
} from '../lib/fixtures.ts';
import { LEGS } from '../lib/legs.ts';
import { formatSchemaErrors, validate } from '../lib/schemas.ts';
import type { Fixture } from '../lib/types.ts';
import { fixtureDigest } from '../lib/report/canonical.ts';
import { SUITE_NAME, SUITE_VERSION } from '../lib/report/report.ts';
import { readJsonInput } from './read-json.ts';

export const MANIFEST_FILE = 'fixtures.manifest.json';

export interface ManifestEntry {
  readonly id: string;
  /** The requirement whose leg drives this fixture. */
  readonly requirement: string;
  readonly file: string;
  /** SHA-256 of the fixture's canonical JSON: the digest the report records for it. */
  readonly sha256: string;
}

export interface FixtureManifest {
  readonly suite: { readonly name: string; readonly version: string };
  readonly digest: 'sha256 of canonical JSON (docs/report.md)';
  readonly fixtures: readonly ManifestEntry[];
}

/** A fixture the command line named that cannot be used; exit 2 with this message. */
export class FixtureInputError extends Refusal {
  override readonly name: string = 'FixtureInputError';
}

interface Shipped {
  readonly entry: ManifestEntry;
  readonly path: string;
}

/** A fixture as a shelf loaded it: with the digest of its canonical JSON when it loaded. */
export type ShelvedFixture =
  | (Extract<FixtureLoad, { ok: true }> & { readonly sha256: string })
  | Extract<FixtureLoad, { ok: false }>;

/**
 * Each fixture file a command asks for, read, checked and digested once however often it is asked
 * for: `verify` wants every shipped fixture for the digest check, then each again for its row and
 * for the rebuilt report's digests, and each of those was a file read and a canonical form.
 */
export class FixtureShelf {
  readonly #loads = new Map<string, Promise<ShelvedFixture>>();

  /** Fixture `id` from `dir` (the shipped folder unless given). */
  load(id: string, dir?: string): Promise<ShelvedFixture> {
    const key = JSON.stringify([dir ?? null, id]);
    let pending = this.#loads.get(key);
    if (pending === undefined) {
      pending = loadDigested(id, dir);
      this.#loads.set(key, pending);
    }
    return pending;
  }
}

async function loadDigested(id: string, dir: string | undefined): Promise<ShelvedFixture> {
  const loaded = await loadFixture(id, dir);
  return loaded.ok ? { ...loaded, sha256: fixtureDigest(loaded.fixture) } : loaded;
}

/** Every fixture a leg drives, in leg order. A shipped fixture that will not load is a suite bug. */
async function shippedFixtures(
  shelf: FixtureShelf = new FixtureShelf(),
): Promise<readonly Shipped[]> {
  const legs = LEGS.flatMap((leg) =>
    leg.fixtureId === undefined ? [] : [{ requirement: leg.id, id: leg.fixtureId }],
  );
  // Read at once; a failure is still named for the first leg, in leg order, that has one.
  const loads = await Promise.all(
    legs.map(async (leg) => ({ ...leg, loaded: await shelf.load(leg.id) })),
  );
  return loads.map(({ id, requirement, loaded }) => {
    if (!loaded.ok) throw new Error(`the shipped fixture ${id} does not load: ${loaded.reason}`);
    return {
      path: loaded.path,
      entry: { id, requirement, file: `${id}.json`, sha256: loaded.sha256 },
    };
  });
}

export async function fixtureManifest(): Promise<FixtureManifest> {
  return manifestOf(await shippedFixtures());
}

function manifestOf(shipped: readonly Shipped[]): FixtureManifest {
  return {
    suite: { name: SUITE_NAME, version: SUITE_VERSION },
    digest: 'sha256 of canonical JSON (docs/report.md)',
    fixtures: shipped.map((s) => s.entry),
  };
}

/**
 * Copies every shipped fixture file, byte for byte, into `dir` (created if need be) and writes
 * the manifest beside them. Returns the paths written. Throws FixtureInputError when `dir`
 * cannot be written.
 */
export async function writeFixtureSet(
  dir: string,
  generated?: { readonly count: number; readonly seed: number },
): Promise<readonly string[]> {
  // Proved writable before a pack of up to 10,000 fixtures is generated for it.
  const unwritable = await unwritableReason(dir);
  if (unwritable !== undefined) {
    throw new FixtureInputError(`--out ${dir} could not be written (${unwritable})`);
  }
  const shipped = await shippedFixtures();
  const pack = generated === undefined ? [] : (await generator()).generatePack(generated);
  const entries = [
    ...shipped.map((s) => s.entry),
    ...pack.map((f) => ({
      id: f.id,
      requirement: f.requirement,
      file: `${f.id}.json`,
      sha256: fixtureDigest(f),
    })),
  ];
  const written: string[] = [];
  try {
    await makeDirectory(dir);
    for (const { entry, path } of shipped) {
      const target = join(dir, entry.file);
      await copyFile(path, target);
      written.push(target);
    }
    written.push(...(await writePackFiles(dir, pack)));
    const manifest = join(dir, MANIFEST_FILE);
    const document: FixtureManifest = { ...manifestOf(shipped), fixtures: entries };
    await writeFile(manifest, `${JSON.stringify(document, null, 2)}\n`);
    written.push(manifest);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'write error';
    throw new FixtureInputError(`--out ${dir} could not be written (${code})`);
  }
  return written;
}

/**
 * The recorded fixture digests against the shipped set: `problems` for a digest no version of the
 * suite shipped under that id (the host ran a fixture of its own), `archived` for one an earlier
 * version shipped and this one changed (the report verifies against that file, judged by another
 * referee). `shelf` keeps what it reads for the replay that follows.
 */
export async function checkFixtureDigests(
  recorded: Readonly<Record<string, string>>,
  shelf: FixtureShelf = new FixtureShelf(),
): Promise<{ problems: string[]; archived: string[] }> {
  const shipped = new Map((await shippedFixtures(shelf)).map((s) => [s.entry.id, s.entry.sha256]));
  const known = new Set(shipped.values());
  const problems: string[] = [];
  const archived: string[] = [];
  for (const [id, digest] of Object.entries(recorded)) {
    const ours = shipped.get(id);
    if (ours === digest) continue;
    if (await isArchived(id, digest, shelf)) {
      archived.push(
        `digests.fixtures.${id}: the fixture an earlier version of this suite shipped (archived), not the one it ships now`,
      );
      continue;
    }
    const elsewhere = known.has(digest) ? ' (it is the digest of another shipped fixture)' : '';
    problems.push(
      ours === undefined
        ? `digests.fixtures.${id}: ${digest} is not in the shipped fixture set, which has no fixture ${id} (openwop-eval-gate fixtures lists the set)`
        : `digests.fixtures.${id}: ${digest} is not in the shipped fixture set${elsewhere}; the shipped ${id} digests to ${ours}, so the host ran a different fixture (openwop-eval-gate fixtures lists the set)`,
    );
  }
  return { problems, archived };
}

/** Whether the archive holds fixture `id` exactly as `digest` names it. */
async function isArchived(id: string, digest: string, shelf: FixtureShelf): Promise<boolean> {
  const loaded = await shelf.load(id, archivedFixtureDir(digest));
  return loaded.ok && loaded.sha256 === digest;
}

/**
 * The loader `verify` recomputes a report's rows with: the fixture the report recorded, from the
 * archive when an earlier version shipped it, else the shipped one (whose digest check names any
 * difference). Each load carries its digest, which the rebuilt report records.
 */
export function recordedFixtureLoader(
  recorded: Readonly<Record<string, string>>,
  shelf: FixtureShelf = new FixtureShelf(),
): (id: string) => Promise<ShelvedFixture> {
  return async (id) => {
    const digest = recorded[id];
    const shipped = await shelf.load(id);
    // A fixture is archived under its own digest, so when the shipped one has the recorded digest
    // the archive could only hold the same fixture: one file read, not a probe of the archive.
    if (digest === undefined || (shipped.ok && shipped.sha256 === digest)) return shipped;
    const archived = await shelf.load(id, archivedFixtureDir(digest));
    return archived.ok && archived.sha256 === digest ? archived : shipped;
  };
}

/** Each generated fixture as `<id>.json` in `dir`, which must exist; the paths written. */
export async function writePackFiles(dir: string, pack: Iterable<Fixture>): Promise<string[]> {
  const written: string[] = [];
  for (const fixture of pack) {
    const target = join(dir, `${fixture.id}.json`);
    await writeFile(target, `${JSON.stringify(fixture, null, 2)}\n`);
    written.push(target);
  }
  return written;
}

/** The generator, loaded only by a command that needs it: it brings fast-check with it. */
const generator = () => import('../lib/generate/pack.ts');

/** A fixture named on the command line: a shipped id, or a fixture file ending in .json. */
export async function readFixtureRef(ref: string): Promise<Fixture> {
  // A generated id replays its fixture from the seed and place it names.
  const { generatePack, parseGeneratedId } = await generator();
  const place = parseGeneratedId(ref);
  if (place !== null && place.index > 0) {
    const fixture = generatePack({ count: place.index, seed: place.seed }).at(-1);
    if (fixture !== undefined) return fixture;
  }
  if (!ref.endsWith('.json')) {
    const loaded = await loadFixture(ref);
    if (loaded.ok) return loaded.fixture;
    const ids = LEGS.flatMap((l) => (l.fixtureId === undefined ? [] : [l.fixtureId]));
    throw new FixtureInputError(
      `no shipped fixture ${JSON.stringify(ref)} (${loaded.reason.split('\n')[0] ?? ''}); the shipped ids are ${ids.join(', ')}, or give a FILE.json`,
    );
  }
  const doc = await readJsonInput(ref, 'fixture', (message) => new FixtureInputError(message));
  const errors = validate('fixture', doc);
  if (errors.length > 0) {
    throw new FixtureInputError(
      `the fixture file ${ref} is not a fixture (${formatSchemaErrors(errors, 1).replace(/\n/g, '; ')})`,
    );
  }
  // What the schema cannot say, as the loader checks it for the shipped set.
  const problem = fixtureProblem(doc as UncheckedFixture);
  if (problem !== undefined) throw new FixtureInputError(`the fixture file ${ref}: ${problem}`);
  return doc as Fixture;
}
