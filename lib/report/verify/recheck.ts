// `verify --recheck` as a comparison: what the live host answers now beside what the report
// recorded it answering. A replay proves a report consistent with itself; a host that signs its own
// report can edit what it recorded and let the replay rebuild the rest. Asking the host again is
// what shows the record true. Pure: lib/report/verify/rewitness.ts drives the host and hands both
// sides here.
//
// Only what a correct host answers identically every time is compared (RECHECKED_MEMBERS): the
// status of each probe and the summary members the rows were judged on. Run ids, timestamps,
// latencies and costs, bodies that carry a nonce, and the event log's envelope are left out, since
// a correct host answers them differently on every run.

import type { Disposition, ObservedProbe, RunObservation } from '../../types.ts';
import type { CertificationReason } from '../report.ts';

/** The members compared, each with why a correct host answers it the same every time. */
export const RECHECKED_MEMBERS: readonly { readonly member: string; readonly why: string }[] = [
  {
    member: 'host check <probe>: outcome and status',
    why: 'each probe sends the same kind of request (a fresh nonce aside), and the status is what its rule judges',
  },
  {
    member:
      'summary: suiteId, suiteVersion, aggregateScore, gatedAggregateScore, passed, taskCount, passedCount',
    why: 'the fixture fixes the suite and the scripted trials fix every score the witness judges',
  },
  {
    member:
      'summary.tasks[taskId=…]: score, passed, gatedScore, schemaValid, the number of safetyFindings, trials (count, passRule, meanScore, passAtK, passHatK, trialStats)',
    why: 'the same, per task; tasks are matched by taskId, so an order the contract leaves open is not a difference',
  },
  {
    member: 'runStatus and the disposition of the row or case',
    why: 'a scripted run ends the same way each time, and the disposition is what the certificate rests on',
  },
];

const SUMMARY_MEMBERS = [
  'suiteId',
  'suiteVersion',
  'aggregateScore',
  'gatedAggregateScore',
  'passed',
  'taskCount',
  'passedCount',
] as const;

const TASK_MEMBERS = ['score', 'passed', 'gatedScore', 'schemaValid'] as const;

const TRIAL_MEMBERS = ['count', 'passRule', 'meanScore', 'passAtK', 'passHatK'] as const;

/** One member the host now answers otherwise than the report recorded. */
export interface RecheckDifference {
  readonly member: string;
  readonly recorded: string;
  readonly now: string;
}

/** What one comparison came to: the same, a difference, or nothing seen now to compare. */
export type Comparison =
  | { readonly kind: 'same' }
  | { readonly kind: 'differs'; readonly difference: RecheckDifference }
  | { readonly kind: 'unwitnessed'; readonly why: string }
  /** The record holds nothing a recheck can hold the host to (a lost answer, a probe not sent). */
  | { readonly kind: 'not-compared' };

export type RecheckOutcome =
  | {
      readonly kind: 'same';
      readonly url: string;
      readonly at: string;
      /** How many probes, rows and cases were compared. */
      readonly compared: number;
    }
  | {
      readonly kind: 'differs';
      readonly url: string;
      readonly at: string;
      readonly first: RecheckDifference;
      readonly differences: number;
    }
  /** The suite or the network could not see an answer it needed now: never a verdict. */
  | {
      readonly kind: 'unwitnessed';
      readonly url: string;
      readonly at: string;
      readonly why: string;
    };

/** Whatever a value is, as one short line. */
function shown(value: unknown): string {
  if (value === undefined) return 'absent';
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function probeState(p: ObservedProbe): string {
  return p.outcome === 'answered' ? `answered ${p.status}` : p.outcome;
}

/** A probe as recorded against the same probe sent now. */
export function compareProbe(recorded: ObservedProbe, now: ObservedProbe | undefined): Comparison {
  const member = `host check ${recorded.probe}`;
  if (recorded.outcome === 'unobserved') return { kind: 'not-compared' };
  if (now === undefined) return { kind: 'unwitnessed', why: `${member}: not sent now` };
  if (now.outcome === 'unobserved') {
    return { kind: 'unwitnessed', why: `${member}: no answer now (${now.reason})` };
  }
  // A probe the recheck had no grounds for (no key given) shows nothing of the host.
  if (now.outcome === 'not-made' && recorded.outcome !== 'not-made') {
    return { kind: 'unwitnessed', why: `${member}: not sent now: ${now.reason}` };
  }
  if (recorded.outcome === 'not-made' && now.outcome !== 'answered') return { kind: 'same' };
  const before = probeState(recorded);
  const after = probeState(now);
  if (before === after) return { kind: 'same' };
  return {
    kind: 'differs',
    difference: {
      member: `${member}: ${recorded.outcome === 'answered' && now.outcome === 'answered' ? 'status' : 'outcome'}`,
      recorded: before,
      now: after,
    },
  };
}

/** The summary members a recheck compares, by path; absent members are kept as absent. */
export function witnessedSummary(summary: unknown): ReadonlyMap<string, unknown> {
  const out = new Map<string, unknown>();
  if (!isRecord(summary)) {
    out.set('summary', summary === undefined ? undefined : 'not an object');
    return out;
  }
  for (const member of SUMMARY_MEMBERS) out.set(`summary.${member}`, summary[member]);
  const tasks = Array.isArray(summary.tasks) ? summary.tasks : [];
  for (const [index, task] of tasks.entries()) {
    const id = isRecord(task) && typeof task.taskId === 'string' ? task.taskId : `#${index}`;
    const at = `summary.tasks[taskId=${id}]`;
    if (!isRecord(task)) {
      out.set(at, 'not an object');
      continue;
    }
    for (const member of TASK_MEMBERS) out.set(`${at}.${member}`, task[member]);
    out.set(
      `${at}.safetyFindings.length`,
      Array.isArray(task.safetyFindings) ? task.safetyFindings.length : undefined,
    );
    const trials = task.trials;
    if (trials === undefined) continue;
    if (!isRecord(trials)) {
      out.set(`${at}.trials`, 'not an object');
      continue;
    }
    for (const member of TRIAL_MEMBERS) out.set(`${at}.trials.${member}`, trials[member]);
    out.set(`${at}.trials.trialStats`, trials.trialStats);
  }
  return out;
}

/** One drive as a recheck holds it: the row's (or case's) disposition and what it observed. */
export interface WitnessedDrive {
  readonly disposition: Disposition;
  readonly reason?: string;
  readonly observation?: RunObservation;
}

/**
 * A recorded drive against the same fixture driven now. `where` names the row or case. The summary
 * is compared first, member by member, since it says what the host got wrong; then the run's status
 * and the disposition.
 */
export function compareDrive(
  where: string,
  recorded: WitnessedDrive,
  now: WitnessedDrive,
): Comparison {
  if (recorded.disposition === 'blocked' || recorded.disposition === 'skipped') {
    return { kind: 'not-compared' };
  }
  if (now.disposition === 'blocked') {
    return { kind: 'unwitnessed', why: `${where}: not observed now (${now.reason ?? 'blocked'})` };
  }
  if (recorded.observation !== undefined && now.observation !== undefined) {
    const before = witnessedSummary(recorded.observation.summary);
    const after = witnessedSummary(now.observation.summary);
    for (const path of new Set([...before.keys(), ...after.keys()])) {
      const a = shown(before.get(path));
      const b = shown(after.get(path));
      if (a !== b) {
        return {
          kind: 'differs',
          difference: { member: `${where}: ${path}`, recorded: a, now: b },
        };
      }
    }
    const a = shown(recorded.observation.runStatus);
    const b = shown(now.observation.runStatus);
    if (a !== b) {
      return {
        kind: 'differs',
        difference: { member: `${where}: runStatus`, recorded: a, now: b },
      };
    }
  }
  if (recorded.disposition !== now.disposition) {
    return {
      kind: 'differs',
      difference: {
        member: `${where}: disposition`,
        recorded: recorded.disposition,
        now: now.reason === undefined ? now.disposition : `${now.disposition} (${now.reason})`,
      },
    };
  }
  return { kind: 'same' };
}

/**
 * The outcome of every comparison, in the order made: the first difference decides and is named;
 * with none, the first thing that could not be seen now; else the record held.
 */
export function recheckOutcome(
  url: string,
  at: string,
  comparisons: readonly Comparison[],
): RecheckOutcome {
  const differences = comparisons.flatMap((c) => (c.kind === 'differs' ? [c.difference] : []));
  const [first] = differences;
  if (first !== undefined) {
    return { kind: 'differs', url, at, first, differences: differences.length };
  }
  const lost = comparisons.find((c) => c.kind === 'unwitnessed');
  if (lost !== undefined && lost.kind === 'unwitnessed') {
    return { kind: 'unwitnessed', url, at, why: lost.why };
  }
  const compared = comparisons.filter((c) => c.kind === 'same').length;
  return { kind: 'same', url, at, compared };
}

/** One line for the outcome, with the first difference as member, recorded, now. */
export function recheckLine(outcome: RecheckOutcome): string {
  switch (outcome.kind) {
    case 'same':
      return `re-witnessed at ${outcome.url} on ${outcome.at}: ${outcome.compared} recorded answer${outcome.compared === 1 ? '' : 's'} compared, each the same`;
    case 'differs':
      return `the host at ${outcome.url} now answers otherwise than the report recorded (${outcome.differences} difference${outcome.differences === 1 ? '' : 's'}); first: ${describeDifference(outcome.first)}`;
    case 'unwitnessed':
      return `not re-witnessed at ${outcome.url}: ${outcome.why}`;
  }
}

export function describeDifference(d: RecheckDifference): string {
  return `${d.member}: recorded ${d.recorded}, now ${d.now}`;
}

/** Why the recheck withholds the certification, or undefined when it bears the record out. */
export function recheckReason(outcome: RecheckOutcome): CertificationReason | undefined {
  switch (outcome.kind) {
    case 'same':
      return undefined;
    case 'differs':
      return {
        code: 'recheck-differs',
        short: 'host answers otherwise',
        text: `not borne out: ${recheckLine(outcome)}; the report records answers the host does not give`,
      };
    case 'unwitnessed':
      return {
        code: 'recheck-unwitnessed',
        short: 'not re-witnessed',
        text: `${recheckLine(outcome)}; recheck while the host answers`,
      };
  }
}

/** The words after a certificate: whose evidence it rests on. */
export function evidenceClause(outcome: RecheckOutcome | undefined): string {
  return outcome?.kind === 'same'
    ? `(re-witnessed at ${outcome.url} on ${outcome.at})`
    : "(the host's own record; re-witness with --recheck)";
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
