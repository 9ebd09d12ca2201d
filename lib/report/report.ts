// The report model: eval-gate-report.json, built from the legs' outcomes, and the digests a
// verifier re-derives. Every other output (JUnit, Markdown, the console) is rendered from it.

import { readFile } from 'node:fs/promises';
import type { DiscoveryResult } from '../observe/discovery.ts';
import { advertisedImplementation } from '../observe/discovery.ts';
import { loadFixture, type FixtureLoad } from '../fixtures.ts';
import { PACKAGE_MANIFEST, packagePath } from '../package-root.ts';
import { SCHEMA_FILES } from '../schemas.ts';
import type {
  Disposition,
  Finding,
  GeneratedRecord,
  HostChecks,
  LegOutcome,
  OptOutName,
  RunObservation,
  UnexercisedRule,
} from '../types.ts';
import { canonicalDigest, fixtureDigest, redactContent, sha256Hex } from './canonical.ts';
import type { BaselineRecord, RunOptions, SelectionRecord } from './run-record.ts';
import { runRecord } from './run-record.ts';
import type { Referee } from './verify/referee.ts';
import type { RepeatRecord } from './verdict/repeat.ts';
import { thisReferee } from './verify/referee.ts';
import type { FailOn } from './run-options.ts';

export const REPORT_FILE = 'eval-gate-report.json';
export const SUITE_NAME: string = PACKAGE_MANIFEST.name;
export const SUITE_VERSION: string = PACKAGE_MANIFEST.version;

export interface Implementation {
  readonly name: string;
  readonly version?: string;
}

export interface ReportRow {
  readonly id: string;
  readonly disposition: Disposition;
  readonly assertions: number;
  readonly durationMs: number;
  readonly reason?: string;
  readonly fixtureId?: string;
  readonly findings: readonly Finding[];
  readonly unexercised?: readonly UnexercisedRule[];
  readonly observation?: RunObservation;
  /** The generated requirement's cases, observations redacted like a row's. */
  readonly generated?: GeneratedRecord;
  /** Under --repeat: the second and later repetitions, each decided as the row is (lib/report/verdict/repeat.ts). */
  readonly repetitions?: readonly Repetition[];
}

/** One more drive of a row's requirement, recorded as the row is (its id and fixture the row's). */
export type Repetition = Omit<ReportRow, 'repetitions'>;

export type RecordedDiscovery =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

export interface ReportDigests {
  readonly algorithm: 'sha256';
  readonly discovery: string | null;
  readonly fixtures: Readonly<Record<string, string>>;
  readonly schemas: Readonly<Record<string, string>>;
  readonly rows: string;
  /** Present exactly when the report has `hostChecks`. */
  readonly hostChecks?: string;
}

export interface ReportSignature {
  readonly algorithm: 'ed25519';
  /** The signing key's id among the host's discovery `signingKeys[]`; not covered by the signature. */
  readonly keyId?: string;
  readonly reportDigest: string;
  readonly value: string;
}

export type ReasonCode =
  | 'embedded'
  | 'failed'
  | 'blocked'
  | 'run-fails'
  | 'partial'
  | 'strict-off'
  | 'inapplicable'
  | 'nothing-driven'
  | 'pack-not-driven'
  | 'baseline'
  | 'unsigned'
  | 'unverified'
  | 'implementation-mismatch'
  | 'unnamed'
  | 'flaky'
  | 'severity-override'
  /** The verifier's own reasons (lib/report/verify/anchor.ts); a run never records them. */
  | 'unanchored'
  | 'unattributed'
  | 'signature-invalid'
  | 'different-referee'
  | 'stale-version'
  /** Integrity under a key that binds no implementation (lib/report/verify/voucher.ts). */
  | 'report-address'
  | 'key-file'
  | 'unbound-key'
  | 'retired-key'
  | 'report-too-old'
  | 'opted-out-advertised'
  /** verify --recheck's (lib/report/verify/recheck.ts): the live host answers otherwise, or not at all. */
  | 'recheck-differs'
  | 'recheck-unwitnessed';

export interface CertificationReason {
  readonly code: ReasonCode;
  /** A few words for a badge or a closing line: `13 of 14 inapplicable`. */
  readonly short: string;
  /** The reason in full, with what to do about it. */
  readonly text: string;
}

/** A declared opt-out: a claim the host makes, and the requirements it left out. */
export interface OptOut {
  readonly gate: OptOutName;
  readonly requirements: readonly string[];
}

/** The certification verdict of lib/report/verdict/certification.ts. */
export interface Certification {
  readonly certified: boolean;
  /** Empty exactly when certified. */
  readonly reasons: readonly CertificationReason[];
  readonly optOuts: readonly OptOut[];
  readonly signer: Signer;
}

/** Who vouches for a report (lib/report/verify/signature.ts). */
export type Signer =
  | { readonly state: 'unsigned' }
  /** Signed, but no key the host publishes verifies it; `why` names the missing link. */
  | { readonly state: 'unverified'; readonly why: string }
  | { readonly state: 'verified'; readonly keyId: string };

export interface EvalGateReport {
  readonly reportVersion: 1;
  /** Which suite judged the report (lib/report/verify/referee.ts). */
  readonly suite: Referee;
  readonly target: {
    readonly baseUrl: string;
    readonly embedded: boolean;
    readonly implementation?: Implementation;
    readonly declared?: Implementation;
  };
  readonly strict: boolean;
  readonly optedOut: readonly OptOutName[];
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly discovery: RecordedDiscovery;
  readonly requirements: readonly ReportRow[];
  /** Discovery judged and the refusals provoked once per run; SHOULD findings, no verdict. */
  readonly hostChecks?: HostChecks;
  readonly totals: Readonly<Record<Disposition, number>>;
  readonly digests: ReportDigests;
  readonly signature?: ReportSignature;
  /** Which failures fail the exit code; absent in reports written before it was recorded: must. */
  readonly failOn?: FailOn;
  /** Present when --only or --skip chose the requirements; unselected rows are skipped. */
  readonly selection?: SelectionRecord;
  /** Present when --expected-failures gave a baseline. */
  readonly baseline?: BaselineRecord;
  /** Present when --repeat drove every requirement more than once: each row stable or flaky. */
  readonly repeat?: RepeatRecord;
  /** The certification verdict (lib/report/verdict/certification.ts); absent in reports written before it. */
  readonly certification?: Certification;
}

export interface ReportInput {
  readonly outcomes: readonly LegOutcome[];
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly baseUrl: string;
  readonly embedded: boolean;
  readonly strict: boolean;
  readonly optedOut: readonly OptOutName[];
  readonly declared?: Implementation;
  readonly discovery: DiscoveryRecord;
  readonly runOptions?: RunOptions;
  readonly hostChecks?: HostChecks;
  /** Under --repeat: the outcomes of the second and later drives of every requirement, in order. */
  readonly repetitions?: readonly (readonly LegOutcome[])[];
}

/** What the report records of discovery: the text as served and its parse, or why there is none. */
export type DiscoveryRecord =
  | Pick<Extract<DiscoveryResult, { ok: true }>, 'ok' | 'text' | 'document'>
  | { readonly ok: false; readonly reason: string };

/**
 * Where the report's digests and referee come from. A run reads the files this suite ships; the
 * replay in `verify` hands in what the report recorded of them, each checked against the files on
 * its own (cli/verify.ts), so the rebuilt report differs from the recorded one only where a
 * verdict or a digest of the run's own data does.
 */
export interface ReportSources {
  readonly fixtureDigests: (ids: readonly string[]) => Promise<Record<string, string>>;
  readonly schemaDigests: () => Promise<Record<string, string>>;
  readonly referee: () => Promise<Referee>;
}

const SHIPPED: ReportSources = {
  fixtureDigests: (ids) => fixtureDigests(ids),
  schemaDigests,
  referee: thisReferee,
};

/**
 * Builds the unsigned report: observations redacted, then digested. Its certification is added by
 * lib/report/verify/signature.ts, which knows who signs it. Nothing here scrubs the API
 * key: host text was scrubbed where it entered (lib/observe/host-client.ts), configuration refuses the key
 * in any other setting, and cli/conformance.ts refuses to write a report that still holds it.
 */
export async function buildReport(
  input: ReportInput,
  sources: ReportSources = SHIPPED,
): Promise<EvalGateReport> {
  const rows = input.outcomes.map((o) => withRepetitions(toRow(o), input.repetitions ?? []));
  const discovery: RecordedDiscovery = input.discovery.ok
    ? { ok: true, text: input.discovery.text }
    : { ok: false, reason: input.discovery.reason };
  const advertised = input.discovery.ok
    ? advertisedImplementation(input.discovery.document)
    : undefined;
  const fixtureIds = [
    ...new Set(rows.flatMap((r) => (r.fixtureId === undefined ? [] : [r.fixtureId]))),
  ];
  // Every file read at once: one after another, each read waits its turn for the thread pool and
  // then for this thread, which on a busy machine is most of a run's last half second.
  const [fixtures, schemas, suite] = await Promise.all([
    sources.fixtureDigests(fixtureIds),
    sources.schemaDigests(),
    sources.referee(),
  ]);
  const report: EvalGateReport = {
    reportVersion: 1,
    suite,
    target: {
      baseUrl: input.baseUrl,
      embedded: input.embedded,
      ...(advertised === undefined ? {} : { implementation: advertised }),
      ...(input.declared === undefined ? {} : { declared: input.declared }),
    },
    strict: input.strict,
    optedOut: input.optedOut,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    discovery,
    requirements: rows,
    ...(input.hostChecks === undefined ? {} : { hostChecks: input.hostChecks }),
    totals: totalsOf(rows),
    digests: {
      algorithm: 'sha256',
      discovery: discoveryDigest(discovery),
      fixtures,
      schemas,
      rows: rowsDigest(rows),
      ...(input.hostChecks === undefined ? {} : { hostChecks: hostChecksDigest(input.hostChecks) }),
    },
    // An entry's expiry is read against the day the run started; host-check entries on its checks.
    ...runRecord(input.runOptions ?? {}, rows, {
      day: input.startedAt.slice(0, 10),
      ...(input.hostChecks === undefined ? {} : { hostFindings: input.hostChecks.findings }),
    }),
  };
  return report;
}

/** The row with the later drives of its requirement, each recorded as the row is. */
function withRepetitions(row: ReportRow, later: readonly (readonly LegOutcome[])[]): ReportRow {
  if (later.length === 0) return row;
  const repetitions = later.map((outcomes): Repetition => {
    const outcome = outcomes.find((o) => o.requirement === row.id);
    if (outcome === undefined) throw new Error(`repetition without ${row.id}`);
    return toRow(outcome);
  });
  return { ...row, repetitions };
}

function toRow(outcome: LegOutcome): ReportRow {
  return {
    id: outcome.requirement,
    disposition: outcome.disposition,
    assertions: outcome.assertions,
    durationMs: outcome.durationMs,
    ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
    ...(outcome.fixtureId === undefined ? {} : { fixtureId: outcome.fixtureId }),
    findings: outcome.findings.map((f) => ({
      rule: f.rule,
      ok: f.ok,
      severity: f.severity,
      ref: f.ref,
      message: f.message,
    })),
    ...(outcome.unexercised === undefined
      ? {}
      : { unexercised: outcome.unexercised.map((u) => ({ rule: u.rule, reason: u.reason })) }),
    ...(outcome.observation === undefined
      ? {}
      : { observation: redactContent(outcome.observation) }),
    ...(outcome.generated === undefined ? {} : { generated: redactContent(outcome.generated) }),
  };
}

export const DISPOSITIONS: readonly Disposition[] = [
  'executed-pass',
  'executed-fail',
  'inapplicable',
  'skipped',
  'blocked',
];

export function totalsOf(
  rows: readonly { readonly disposition: Disposition }[],
): Record<Disposition, number> {
  const totals = Object.fromEntries(DISPOSITIONS.map((d) => [d, 0])) as Record<Disposition, number>;
  for (const row of rows) totals[row.disposition] += 1;
  return totals;
}

export function rowsDigest(rows: readonly ReportRow[]): string {
  return canonicalDigest(rows);
}

export function hostChecksDigest(hostChecks: HostChecks): string {
  return canonicalDigest(hostChecks);
}

export function discoveryDigest(discovery: RecordedDiscovery): string | null {
  return discovery.ok ? sha256Hex(discovery.text) : null;
}

/** The digest a signature covers: the canonical report without its `signature` (canonical JSON drops an undefined member). */
export function reportDigest(report: EvalGateReport): string {
  return canonicalDigest({ ...report, signature: undefined });
}

/** A fixture loaded, with its digest when the loader has already taken it. */
export type DigestedLoad = FixtureLoad & { readonly sha256?: string };

/** The canonical-JSON digest of each fixture; a fixture that will not load has none. */
export async function fixtureDigests(
  ids: readonly string[],
  load: (id: string) => Promise<DigestedLoad> = loadFixture,
): Promise<Record<string, string>> {
  const digests = await Promise.all(
    [...ids].sort().map(async (id) => {
      const loaded = await load(id);
      return loaded.ok ? [[id, loaded.sha256 ?? fixtureDigest(loaded.fixture)] as const] : [];
    }),
  );
  return Object.fromEntries(digests.flat());
}

/** Every schema the suite ships: each is compiled into the validators a run loads, so all were in use. */
export async function schemaDigests(): Promise<Record<string, string>> {
  // Several validators live in one file (the payload `$defs`): each file is read once.
  const digests = await Promise.all(
    [...new Set(Object.values(SCHEMA_FILES))]
      .sort()
      .map(async (path) => [path, sha256Hex(await readFile(packagePath(path)))] as const),
  );
  return Object.fromEntries(digests);
}
