// What `judge` prints: the verdict and its cause first, so a reader who stops after two lines
// knows the result and why; then the failures (each cause before what follows from it, marked as
// a run's reason marks it), the SHOULD warnings, what held, and what could not be judged offline.

import type { Finding } from '../lib/types.ts';
import type { Judgement } from './judge.ts';

export function renderJudgement(judgement: Judgement): string[] {
  const { findings } = judgement;
  const failed = findings.filter((f) => !f.ok && f.severity === 'MUST');
  const warned = findings.filter((f) => !f.ok && f.severity === 'SHOULD');
  const held = findings.filter((f) => f.ok);
  return [
    `${judgement.disposition}: ${findings.length} findings, ${failed.length} MUST failed, ${warned.length} SHOULD warned`,
    ...causeLine(judgement, failed),
    ...failed.map((f) => line('FAILED', f)),
    ...warned.map((f) => line('warns ', f)),
    ...held.map((f) => line('held  ', f)),
    ...judgement.notJudged.map((why) => `not judged: ${why}`),
  ];
}

/**
 * The first failure that follows from no other, and how many other independent failures there
 * are; for a verdict reached without a failure (nothing to judge), the decision's reason.
 */
function causeLine(judgement: Judgement, failed: readonly Finding[]): string[] {
  const roots = failed.filter((f) => f.consequenceOf === undefined);
  const first = roots[0];
  if (first === undefined) {
    return judgement.reason === undefined ? [] : [`cause: ${judgement.reason}`];
  }
  const following = failed.length - roots.length;
  const others = roots.length - 1;
  const more = [
    ...(following === 0 ? [] : [`${following} more follow${following === 1 ? 's' : ''} from it`]),
    ...(others === 0
      ? []
      : [
          `${others} other failure${others === 1 ? '' : 's'} stand${others === 1 ? 's' : ''} alone`,
        ]),
  ];
  return [
    `cause: ${first.rule} (${first.ref}): ${first.message}${more.length === 0 ? '' : ` (${more.join('; ')})`}`,
  ];
}

function line(mark: string, f: Finding): string {
  const following = f.consequenceOf === undefined ? '' : `, following from ${f.consequenceOf}`;
  return `${mark} ${f.rule} (${f.ref})${following}: ${f.message}`;
}
