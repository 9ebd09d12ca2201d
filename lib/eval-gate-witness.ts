// The RFC 0246 witness: a pure judge of one observed eval run against the fixture that scripted
// it, and the one door to lib/witness/ for the rest of the suite (tests/architecture.test.ts). It grades the run itself from the fixture (lib/witness/expected.ts), then checks the host's
// events and summary rule by rule (lib/witness/rules.ts). It does no I/O and never throws on what
// the host sent: a malformed answer yields failing findings.

import type { Finding, Fixture, RunObservation } from './types.ts';
import { recordedSince } from './types.ts';
import { expectRun } from './witness/expected.ts';
import { indexEvents } from './witness/event-index.ts';
import { judgeLog } from './witness/log.ts';
import { judgeEvalEvents } from './witness/events.ts';
import { judgeContent } from './witness/content.ts';
import { judgeSummary } from './witness/summary.ts';
import { indexSummaryTasks, judgeTasks } from './witness/tasks.ts';
import { judgeTrials } from './witness/trials.ts';
import { judgeWire } from './witness/wire.ts';
import { judgeTaskOrder } from './witness/task-order.ts';

export { expectRun } from './witness/expected.ts';
export type {
  ExpectedLimit,
  ExpectedRun,
  ExpectedTask,
  ExpectedTrial,
  Presence,
} from './witness/expected.ts';
export { jsonEqual } from './witness/match.ts';
export {
  EVENT_LOG_RULES,
  LIVE_RUN_RULES,
  RULES,
  SUMMARY_READING_RULES,
  type Rule,
  type RuleId,
} from './witness/rules.ts';
export { judgeSummaryAgainstSuite } from './witness/suite-judge.ts';
export { cursorWasDriven } from './witness/replays.ts';
export {
  HOST_CHECK_RULES,
  judgeHostChecks,
  type DiscoveryRead,
  type HostCheckJudgement,
} from './witness/host-checks.ts';
export { judgeGatedFieldsShape } from './witness/shape-leg.ts';
export { bindingGaps, recordedOnLegs, unexercisedRules } from './witness/exercised.ts';
export { causesFirst } from './witness/consequences.ts';
export { isContentKey } from './witness/content.ts';

/**
 * Every finding on the run: one per rule per subject it applies to (the run, the log, each
 * eval.* type, each task, the summary, each call's wire record), held or not, so a clean run
 * shows what was checked.
 * Throws only when the fixture itself cannot be graded, which is a fact about the suite.
 */
export function judgeEvalRun(fixture: Fixture, observation: RunObservation): readonly Finding[] {
  const expected = expectRun(fixture);
  const index = indexEvents(observation, expected);
  const summary: unknown = observation.summary;
  const tasks = indexSummaryTasks(summary);
  return [
    ...judgeLog(observation, index.events),
    ...judgeEvalEvents(index, expected, recordedSince(observation, 2)),
    ...judgeContent(index, summary),
    ...judgeSummary(expected, summary, tasks, index),
    ...judgeTasks(expected, tasks),
    ...judgeTrials(expected, index),
    ...judgeWire(observation),
    ...(recordedSince(observation, 2) ? judgeTaskOrder(expected, tasks) : []),
  ];
}

/** The findings that fail a leg: MUST rules that did not hold. */
export function mustFailures(findings: readonly Finding[]): readonly Finding[] {
  return findings.filter((f) => f.severity === 'MUST' && !f.ok);
}
