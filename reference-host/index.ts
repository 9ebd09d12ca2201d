// The reference host: an independent implementation of the eval-gate wire contract, optionally
// started with defects that combine. It shares no code with the suite (lib/), so each checks the
// other.

import { setMaxListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { defectSet } from './defect-set.ts';
import { defectPredicate, type DefectName } from './defects.ts';
import { PACKAGE_ROOT } from './package-root.ts';
import type { PublishedSigningKey } from './discovery.ts';
import { seedFixtures, type SeededFixture } from './fixtures.ts';
import { handler, versionHeader, type HangWatch, type HostState } from './server.ts';
import { errorBody, HttpError, preferredVersion } from './wire.ts';

export { DEFECTS, isDefectName, type DefectName, type DefectRecord } from './defects.ts';
export { conflictOf, defectSet, parseDefectList } from './defect-set.ts';
export type { HangWatch } from './server.ts';

export interface ReferenceHostOptions {
  /** Default 0: the system picks a free port. */
  readonly port?: number;
  /** When set, every route but discovery requires `Authorization: Bearer <apiKey>`. */
  readonly apiKey?: string;
  readonly defect?: DefectName;
  /** More defects, switched on together with `defect`; a conflicting pair is refused. */
  readonly defects?: readonly DefectName[];
  readonly variant?: 'plain' | 'varied';
  /** Default: the project's `fixtures/`. */
  readonly fixturesDir?: string;
  /** More directories of fixture files, seeded after `fixturesDir` (a generated pack, say). */
  readonly extraFixturesDirs?: readonly string[];
  /** Pause between consecutive trials. */
  readonly trialDelayMs?: number;
  /** Minimum duration of a whole run, from its first event to its last. */
  readonly runDelayMs?: number;
  /**
   * Called as each run is ready to end (after `runDelayMs`); the run ends when the promise
   * settles, or when the host closes. A test holds runs open until the events it waits for.
   */
  readonly runGate?: () => Promise<void>;
  /**
   * `instant` (default) runs a fixture at once and pages the log as far as it goes; `slow` pauses
   * {@link SLOW_STEP_MS} before every trial and before the end, so a client reads a log that is
   * still growing, a page per step. (The `varied` variant pages one event at a time.)
   */
  readonly pacing?: Pacing;
  /** The public half of a report-signing key, published in discovery `signingKeys`. */
  readonly signingKey?: PublishedSigningKey | readonly PublishedSigningKey[];
  /**
   * For tests: told a run's id when that run has entered a hang that a defect makes endless, once
   * its client has been served everything the host will ever serve for it (see `HangWatch`). A
   * test can then end the client's wait by event rather than by racing a deadline.
   */
  readonly onHang?: HangWatch;
}

export type Pacing = 'instant' | 'slow';
export const PACINGS: readonly Pacing[] = ['instant', 'slow'];

/** A few tens of milliseconds: a run takes a few hundred, yet every poll meets a running log. */
export const SLOW_STEP_MS = 20;

export interface ReferenceHost {
  readonly url: string;
  close(): Promise<void>;
}

export const DEFAULT_FIXTURES_DIR = join(PACKAGE_ROOT, 'fixtures');

export async function startReferenceHost(
  options: ReferenceHostOptions = {},
): Promise<ReferenceHost> {
  const defects = defectSet([
    ...(options.defect === undefined ? [] : [options.defect]),
    ...(options.defects ?? []),
  ]);
  const slow = options.pacing === 'slow';
  if (!slow && options.pacing !== undefined && options.pacing !== 'instant') {
    throw new Error(`unknown pacing ${String(options.pacing)}`);
  }
  const warn = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  const dirs = [options.fixturesDir ?? DEFAULT_FIXTURES_DIR, ...(options.extraFixturesDirs ?? [])];
  // A pack written by `fixtures --out` holds copies of the shipped files too: an id seeded
  // already is the same fixture, and is listed once.
  const fixtures = dirs
    .flatMap((dir) => seedFixtures(dir, warn))
    .filter((f, i, all) => all.findIndex((g) => g.id === f.id) === i);
  const suites = new Map<string, SeededFixture>();
  for (const f of fixtures) {
    const ref = `${f.suite.suiteId}@${f.suite.version}`;
    if (suites.has(ref)) process.stderr.write(`reference host: ${f.id} re-registers ${ref}\n`);
    suites.set(ref, f);
  }
  const lifetime = new AbortController();
  // Every sleeping run and held long-poll listens on this one signal; a busy host has far more
  // than Node's default of 10 listeners, and each is removed when its wait ends.
  setMaxListeners(Infinity, lifetime.signal);
  const state: HostState = {
    apiKey: options.apiKey,
    ...(options.signingKey === undefined ? {} : { signingKey: options.signingKey }),
    has: defectPredicate(defects),
    varied: options.variant === 'varied',
    fixtures,
    suites,
    runs: new Map(),
    ...(options.onHang === undefined ? {} : { onHang: options.onHang }),
    runSettings: {
      has: defectPredicate(defects),
      varied: options.variant === 'varied',
      trialDelayMs: options.trialDelayMs ?? 0,
      runDelayMs: options.runDelayMs ?? 0,
      stepDelayMs: slow ? SLOW_STEP_MS : 0,
      signal: lifetime.signal,
      ...(options.runGate === undefined ? {} : { runGate: options.runGate }),
    },
    runCounter: 0,
  };
  const server = createServer(handler(state));
  // Node closes an idle keep-alive socket after 5 s. When one thread carries hundreds of hosts and
  // their suites (the matrix), a timer that late can close a socket just as the client reuses it,
  // and the suite rightly reports a reset as blocked. A long idle window keeps that race out of
  // the host's own behaviour; close() ends every connection regardless.
  server.keepAliveTimeout = 60_000;
  // A request node cannot parse still gets the v2 envelope and the version header.
  server.on('clientError', (_err, socket) => {
    if (!socket.writable) return;
    const body = JSON.stringify(
      errorBody(new HttpError('validation_error', 'malformed HTTP request'), state.has),
    );
    const version = versionHeader(state.has, preferredVersion(state.has));
    const headers = [
      'HTTP/1.1 400 Bad Request',
      'connection: close',
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      ...Object.entries(version).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    close() {
      // Aborting first stops every run and answers every held long-poll before sockets close.
      closing ??= new Promise<void>((resolve) => {
        lifetime.abort();
        server.close(() => resolve());
        setImmediate(() => server.closeAllConnections());
      });
      return closing;
    },
  };
}
