// The certification verdict: whether the report says the suite tested this host and found it
// conforming. Certified only when strict mode is on, every requirement passed or was left out by
// an opt-out the host declared, nothing was selected out, no baseline applies, the run fails on
// nothing, the target is not the embedded host, and a key the host publishes signs the report.
// Otherwise every reason that applies is listed, in the order a reader should fix them.

import { shownImplementation } from '../../untrusted-text.ts';
import { GENERATED_REQUIREMENT, LEGS } from '../../legs.ts';
import { currentSet, requirementSetOf } from '../../requirement-sets.ts';
import { PACK_OPT_OUT, type GateName } from '../../types.ts';
import type { Fault } from './baseline.ts';
import { ciVerdict } from './ci-verdict.ts';
import { isBypass } from './warnings.ts';
import type { CiFacts, CiVerdict } from './ci-verdict.ts';
import type {
  Certification,
  CertificationReason,
  EvalGateReport,
  Implementation,
  ReasonCode,
  Signer,
} from '../report.ts';
import { NOT_SELECTED } from '../run-options.ts';
import { overrideName } from './severity.ts';

export type CertificationFacts = CiFacts &
  Pick<EvalGateReport, 'strict' | 'optedOut'> & {
    readonly embedded: boolean;
    /** What the host's discovery advertises and what the run declared (--impl, --impl-version). */
    readonly implementation?: Implementation;
    readonly declared?: Implementation;
    /** The suite that judged the run: its version's set is the one an unpinned run certifies by. */
    readonly suite?: Pick<EvalGateReport['suite'], 'version'>;
  };

type Row = EvalGateReport['requirements'][number];

function notSelected(row: Row): boolean {
  return row.disposition === 'skipped' && row.reason === NOT_SELECTED;
}

/** The declared opt-outs that left this row out: only strict mode skips a leg through one. */
function optOutsOf(row: Row, facts: CertificationFacts): readonly GateName[] {
  if (!facts.strict || row.disposition !== 'skipped' || notSelected(row)) return [];
  const leg = LEGS.find((l) => l.id === row.id);
  return (leg?.gates ?? []).filter((g) => facts.optedOut.includes(g));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A fault of a row that passed: only a SHOULD warning under `--fail-on should` can be one. */
function shouldOnly(fault: Fault, facts: CertificationFacts): boolean {
  return facts.requirements.some(
    (r) => r.id === fault.requirement && r.disposition === 'executed-pass',
  );
}

/** Up to two distinct row reasons, so a reader sees why without the whole table. */
function whyOf(rows: readonly Row[]): string {
  const reasons = [...new Set(rows.map((r) => r.reason ?? 'no reason recorded'))];
  const shown = reasons.slice(0, 2).join('; ');
  return reasons.length > 2 ? `${shown}; and ${reasons.length - 2} more` : shown;
}

/** A reason when `when` holds; none otherwise. */
function reasonIf(
  when: boolean,
  code: ReasonCode,
  short: string,
  text: () => string,
): CertificationReason[] {
  return when ? [{ code, short, text: text() }] : [];
}

/** What the rows came to: failed, blocked, or failing the run beyond them. */
function outcomeReasons(facts: CertificationFacts, gate: CiVerdict): CertificationReason[] {
  const rows = facts.requirements;
  const total = rows.length;
  const failed = rows.filter((r) => r.disposition === 'executed-fail');
  const blocked = rows.filter((r) => r.disposition === 'blocked');
  const bypasses = gate.hostWarnings.filter(isBypass);
  const warnings = gate.hostWarnings.filter((f) => !isBypass(f));
  const runFails = [
    ...(bypasses.length > 0 ? ['authentication bypass'] : []),
    ...(gate.stale.length > 0 ? ['stale baseline'] : []),
    ...(warnings.length > 0 || gate.unexcused.some((f) => shouldOnly(f, facts))
      ? ['SHOULD warnings']
      : []),
  ];
  return [
    ...reasonIf(
      failed.length > 0,
      'failed',
      `${failed.length} of ${total} failed`,
      () =>
        `failed: ${failed.length} of ${total} requirements failed (${failed.map((r) => r.id).join(', ')})`,
    ),
    ...reasonIf(
      blocked.length > 0,
      'blocked',
      `${blocked.length} of ${total} blocked`,
      () =>
        `blocked: the suite could not observe ${blocked.length} of ${total} requirements (${whyOf(blocked)}); fix the connection and run again`,
    ),
    ...reasonIf(
      runFails.length > 0,
      'run-fails',
      runFails.join(', '),
      () =>
        `the run fails on ${runFails.join(' and ')} (${[
          ...(bypasses.length > 0
            ? [`${bypasses.length} authentication bypass${bypasses.length === 1 ? '' : 'es'}`]
            : []),
          `${gate.stale.length} stale ${gate.stale.length === 1 ? 'entry' : 'entries'}`,
          plural(warnings.length, 'host-check warning'),
        ].join(', ')}); see the closing line`,
    ),
  ];
}

/**
 * What the run left untested or judged otherwise: what it left out or untested, then what it
 * judged by the baseline rather than by the RFC alone.
 */
function scopeReasons(facts: CertificationFacts, gate: CiVerdict): CertificationReason[] {
  return [...untestedReasons(facts), ...baselineReasons(facts, gate)];
}

/** A selection, strict mode off, rows neither passed nor opted out, no host leg passed. */
function untestedReasons(facts: CertificationFacts): CertificationReason[] {
  const rows = facts.requirements;
  const total = rows.length;
  const ran = total - rows.filter(notSelected).length;
  const untested = rows.filter(
    (r) =>
      (r.disposition === 'inapplicable' || r.disposition === 'skipped') &&
      !notSelected(r) &&
      optOutsOf(r, facts).length === 0,
  );
  // Opt-outs can leave out every requirement that drives the host; then nothing was tested.
  const driven = rows.some((r) => r.disposition === 'executed-pass' && r.fixtureId !== undefined);
  return [
    ...reasonIf(
      ran < total,
      'partial',
      `partial ${ran} of ${total}`,
      () =>
        `partial: ${ran} of ${total} requirements selected; run the current set without --only and --skip`,
    ),
    ...reasonIf(
      !facts.strict,
      'strict-off',
      'strict mode off',
      () =>
        'strict mode off: a capability the host does not advertise leaves its requirement inapplicable instead of failed; run with --require-behavior',
    ),
    ...reasonIf(
      untested.length > 0,
      'inapplicable',
      `${untested.length} of ${total} inapplicable`,
      () =>
        `inapplicable: ${untested.length} of ${total} requirements were not tested (${whyOf(untested)})`,
    ),
    ...reasonIf(
      !driven,
      'nothing-driven',
      'no host leg passed',
      () =>
        'nothing tested: no requirement that drives the host passed, so the run shows nothing about it',
    ),
  ];
}

/** A baseline, a flaky row (allowed or not), a scoped severity. */
function baselineReasons(facts: CertificationFacts, gate: CiVerdict): CertificationReason[] {
  const flaky = [...gate.flaky, ...gate.allowedFlaky];
  const overrides = facts.baseline?.severity ?? [];
  const total = facts.requirements.length;
  return [
    ...reasonIf(
      facts.baseline !== undefined,
      'baseline',
      'baseline',
      () =>
        `baseline: failures listed in ${facts.baseline?.file ?? 'the baseline'} do not fail the run; certify without --expected-failures`,
    ),
    ...reasonIf(
      flaky.length > 0,
      'flaky',
      `${flaky.length} flaky`,
      () =>
        `flaky: ${flaky.length} of ${total} requirements came to different dispositions across the repetitions (${flaky.map((f) => `${f.requirement}: ${f.outcomes.join(', ')}`).join('; ')}); a verdict that depends on the day certifies nothing`,
    ),
    ...reasonIf(
      overrides.length > 0,
      'severity-override',
      'severity overridden',
      () =>
        `severity overridden: ${overrides.map(overrideName).join('; ')}; the run was not judged at the RFC's severities; certify without the baseline's severity section`,
    ),
  ];
}

/** The pack the run's requirement set names: the pinned set's, else the current one's. */
function packOf(facts: CertificationFacts): {
  version: string;
  count: number;
  seed: number;
  generator?: number;
} {
  const pinned = facts.selection?.requirementSet?.version ?? facts.suite?.version;
  const set = (pinned === undefined ? undefined : requirementSetOf(pinned)) ?? currentSet();
  return { version: set.version, ...set.pack };
}

/**
 * The generated row, when it drove at least the set's pack (packs are prefix-stable); one case
 * driven alone (--case) is not the pack.
 */
function drovePack(facts: CertificationFacts): boolean {
  const { count, seed, generator } = packOf(facts);
  const driven = facts.requirements.find((r) => r.id === GENERATED_REQUIREMENT)?.generated;
  return (
    driven !== undefined &&
    driven.case === undefined &&
    driven.seed === seed &&
    driven.count >= count &&
    // Another generator draws other cases at the same seed; a record or set naming none is older.
    (generator === undefined || driven.generator === undefined || driven.generator === generator)
  );
}

/**
 * A strict run that did not drive its requirement set's pack, and declared no opt-out of it:
 * the hand fixtures alone leave readings unchecked that the pack's cases reach.
 */
function packReasons(facts: CertificationFacts): CertificationReason[] {
  const pack = packOf(facts);
  return reasonIf(
    facts.strict && !facts.optedOut.includes(PACK_OPT_OUT) && !drovePack(facts),
    'pack-not-driven',
    'generated pack not driven',
    () =>
      `generated pack not driven: requirement set ${pack.version} certifies with its generated pack (${pack.count} fixtures at seed ${pack.seed}) driven as ${GENERATED_REQUIREMENT}; seed what fixtures --out writes and run without --generate, or declare ${PACK_OPT_OUT} in OPENWOP_OPTED_OUT_PROFILES if the host cannot seed it`,
  );
}

/** Who vouches for the report: nobody, or a signature no published key verifies. */
function signerReasons(signer: Signer): CertificationReason[] {
  if (signer.state === 'unsigned') {
    return reasonIf(
      true,
      'unsigned',
      'not signed',
      () =>
        'unsigned: integrity only, nobody vouches for it; sign with --sign and --key-id naming a key your discovery publishes',
    );
  }
  if (signer.state === 'unverified') {
    return reasonIf(
      true,
      'unverified',
      'signature not verified',
      () => `signed, but no key the host publishes verifies it: ${signer.why}`,
    );
  }
  return [];
}

/**
 * The implementation a certification names: the one the host advertises, with the declared
 * version where the host advertises none; the declared one when the host advertises no name.
 */
export function certifiedImplementation(
  facts: Pick<CertificationFacts, 'implementation' | 'declared'>,
): Implementation | undefined {
  const { implementation: advertised, declared } = facts;
  if (advertised === undefined) return declared;
  const version = advertised.version ?? declared?.version;
  return version === undefined ? { name: advertised.name } : { name: advertised.name, version };
}

/** `acme-host 1.2.0`, or `acme-host` without a version. */
export function implementationLabel(implementation: Implementation): string {
  // The host chose both strings: shown quoted when not plain, and flagged when the name mixes scripts.
  return shownImplementation(implementation.name, implementation.version);
}

/** What the certificate would name: nothing, or a declaration the host's discovery contradicts. */
function implementationReasons(facts: CertificationFacts): CertificationReason[] {
  const { implementation: advertised, declared } = facts;
  const differs =
    advertised !== undefined &&
    declared !== undefined &&
    (advertised.name !== declared.name ||
      (advertised.version !== undefined &&
        declared.version !== undefined &&
        advertised.version !== declared.version));
  return [
    ...reasonIf(
      certifiedImplementation(facts) === undefined,
      'unnamed',
      'implementation unnamed',
      () =>
        "unnamed: the host's discovery advertises no implementation name and none was declared, so a certificate could not say what it certifies; advertise implementation in discovery or give --impl and --impl-version",
    ),
    ...reasonIf(
      differs,
      'implementation-mismatch',
      'implementation mismatch',
      () =>
        `implementation mismatch: declared ${declared === undefined ? '' : implementationLabel(declared)}, but the host's discovery advertises ${advertised === undefined ? '' : implementationLabel(advertised)}; declare what the host advertises`,
    ),
  ];
}

/** `gate` is the run's CI verdict of `facts`, computed once by whoever certifies. */
export function certify(facts: CertificationFacts, signer: Signer, gate: CiVerdict): Certification {
  const reasons = [
    ...reasonIf(
      facts.embedded,
      'embedded',
      'embedded host',
      () =>
        "embedded: the target was the suite's own reference host, no evidence about any other; give --base-url",
    ),
    ...outcomeReasons(facts, gate),
    ...scopeReasons(facts, gate),
    ...packReasons(facts),
    ...implementationReasons(facts),
    ...signerReasons(signer),
  ];
  const optOuts = facts.optedOut.map((gate) => ({
    gate,
    requirements:
      gate === PACK_OPT_OUT
        ? drovePack(facts) || !facts.strict
          ? []
          : [GENERATED_REQUIREMENT]
        : facts.requirements.filter((r) => optOutsOf(r, facts).includes(gate)).map((r) => r.id),
  }));
  return { certified: reasons.length === 0, reasons, optOuts, signer };
}

/** The report with its certification verdict rebuilt for `signer`. */
export function withCertification(
  report: EvalGateReport,
  signer: Signer,
  gate: CiVerdict = ciVerdict(report),
): EvalGateReport {
  const { embedded, implementation, declared } = report.target;
  const certification = certify(
    {
      ...report,
      embedded,
      ...(implementation === undefined ? {} : { implementation }),
      ...(declared === undefined ? {} : { declared }),
    },
    signer,
    gate,
  );
  return { ...report, certification };
}
