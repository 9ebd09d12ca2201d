// A generated pack: the first N fixtures fast-check draws from a seed, each named by seed and
// place so that a file name alone replays it. Drawing is prefix-stable: the pack of 10 at a seed
// is the first 10 of the pack of 200 at that seed. Every draw is by a generator version
// (lib/generate/versions.ts): the current one unless the request names an earlier release.

import fc from 'fast-check';
import { fixtureDigest } from '../canonical-json.ts';
import type { Fixture } from '../types.ts';
import { GENERATED_ID_PREFIX, generatedId, parseGeneratedId } from './generated-id.ts';
import type { GeneratorOptions } from './suite.ts';
import { CURRENT_GENERATOR, generatorOf, GENERATOR_VERSIONS } from './versions.ts';

// The ids are a light module of their own, for readers that load no generator (the page).
export { GENERATED_ID_PREFIX, generatedId, parseGeneratedId, placeInPack } from './generated-id.ts';

/** Names a drawn fixture: its id, and a suite id of its own so a host can register every one. */
export function named(fixture: Fixture, seed: number, index: number): Fixture {
  const id = generatedId(seed, index);
  return {
    ...fixture,
    id,
    suite: {
      ...fixture.suite,
      suiteId: `generated.evals.${id.slice(GENERATED_ID_PREFIX.length + 1)}`,
    },
  };
}

export interface PackRequest extends GeneratorOptions {
  readonly count: number;
  /** A non-negative 31-bit integer: fast-check's seeds are 32-bit. */
  readonly seed: number;
  /** The generator version that draws the pack; absent: the current one. */
  readonly generator?: number;
}

/** The arbitrary of the version a request names; throws for a version this suite never released. */
function arbitraryOf(request: GeneratorOptions & { readonly generator?: number }) {
  const version = request.generator ?? CURRENT_GENERATOR;
  const arb = generatorOf(version);
  if (arb === undefined) {
    throw new Error(
      `generator version ${version} is not one this suite has (${GENERATOR_VERSIONS.join(', ')})`,
    );
  }
  return arb(request);
}

/** Throws for a seed fast-check cannot take or a size that is no count. */
function checkRequest({ seed, count }: Pick<PackRequest, 'seed' | 'count'>): void {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0x7fffffff) {
    throw new Error(`a pack seed is an integer in 0..${0x7fffffff}, not ${seed}`);
  }
  if (!Number.isInteger(count) || count < 0) {
    throw new Error(`a pack size is a non-negative integer, not ${count}`);
  }
}

/** The pack: fixtures 1..count drawn from the seed. */
export function generatePack(request: PackRequest): Fixture[] {
  checkRequest(request);
  if (request.count === 0) return [];
  const drawn = fc.sample(arbitraryOf(request), { seed: request.seed, numRuns: request.count });
  return drawn.map((fixture, i) => named(fixture, request.seed, i + 1));
}

/** Fixtures drawn per call in packFixtures: few enough that a chunk's memory does not show. */
const DRAW_CHUNK = 32;

/**
 * The pack's fixtures one at a time, the same as generatePack's, never all held at once: each
 * chunk is drawn from the seed with fast-check's replay path skipping the fixtures before it.
 */
export function* packFixtures(request: PackRequest): Generator<Fixture> {
  checkRequest(request);
  const arb = arbitraryOf(request);
  for (let start = 0; start < request.count; start += DRAW_CHUNK) {
    const numRuns = Math.min(DRAW_CHUNK, request.count - start);
    yield* drawnChunk(request, arb, start, numRuns);
  }
}

/**
 * The chunks drawn last, by what draws them. One process often draws the same pack again: `diff`
 * verifies two reports of the certification pack, and a program that calls the API verifies one
 * report after another. Drawing is a pure function of the generator version, its options, the
 * seed and the place, so a chunk drawn once is the chunk; each is frozen whole, so no reader can
 * change what the next one is handed. At most DRAWN_KEPT chunks are held, the oldest let go first.
 */
const kept = new Map<string, readonly Fixture[]>();
const DRAWN_KEPT = 8;

function drawnChunk(
  request: PackRequest,
  arb: fc.Arbitrary<Fixture>,
  start: number,
  numRuns: number,
): readonly Fixture[] {
  const { seed } = request;
  // Every member of the request but its size (the version and its options among them) names the
  // arbitrary and the seed; the place and the number drawn name the chunk.
  const key = JSON.stringify([{ ...request, count: undefined }, start, numRuns]);
  let chunk = kept.get(key);
  if (chunk === undefined) {
    const fixtures = fc.sample(arb, { seed, path: String(start), numRuns });
    chunk = fixtures.map((fixture, i) => frozen(named(fixture, seed, start + i + 1)));
    for (const fixture of chunk) digests.set(fixture, null);
    const [oldest] = kept.keys();
    if (kept.size >= DRAWN_KEPT && oldest !== undefined) kept.delete(oldest);
  } else kept.delete(key);
  // Set again on every use, so the chunk used last is the one let go last.
  kept.set(key, chunk);
  return chunk;
}

/**
 * Each fixture a chunk holds, with its digest once something asked for it (null until then): a
 * replay checks every case's recorded fixture digest against the fixture drawn at its place.
 */
const digests = new WeakMap<Fixture, string | null>();

/**
 * fixtureDigest of `fixture`, taken once for a fixture packFixtures drew (frozen, so its digest
 * cannot change) and every time for any other.
 */
export function drawnFixtureDigest(fixture: Fixture): string {
  const known = digests.get(fixture);
  if (typeof known === 'string') return known;
  const digest = fixtureDigest(fixture);
  if (known === null) digests.set(fixture, digest);
  return digest;
}

/** `value` frozen at every depth: a drawn fixture is plain JSON data. */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) frozen(member);
    Object.freeze(value);
  }
  return value;
}

/** The fixture at `place` (1-based) of the seed's pack, drawn alone: packFixtures' and generatePack's. */
export function packFixtureAt(seed: number, place: number, generator?: number): Fixture {
  checkRequest({ seed, count: place });
  const arb = arbitraryOf(generator === undefined ? {} : { generator });
  const [drawn] = fc.sample(arb, { seed, path: String(place - 1), numRuns: 1 });
  if (drawn === undefined) throw new Error(`the pack at seed ${seed} has no fixture ${place}`);
  return named(drawn, seed, place);
}

/** A pack as a run names it: its seed and size, and, when one case is driven alone, that case. */
export interface PackSelection {
  readonly count: number;
  readonly seed: number;
  readonly case?: string;
  /** The generator version that draws it; absent: the current one. */
  readonly generator?: number;
}

/**
 * The fixtures a run drives: the whole pack, drawn lazily, or only the case it names, the same
 * fixture the whole pack holds at that place. Empty when the named case is not in the pack.
 */
export function selectedFixtures(selection: PackSelection): Iterable<Fixture> {
  const version = selection.generator === undefined ? {} : { generator: selection.generator };
  if (selection.case === undefined)
    return packFixtures({ count: selection.count, seed: selection.seed, ...version });
  const place = parseGeneratedId(selection.case);
  if (place === null || generatedId(place.seed, place.index) !== selection.case) return [];
  if (place.seed !== selection.seed || place.index < 1 || place.index > selection.count) return [];
  return [packFixtureAt(selection.seed, place.index, selection.generator)];
}
