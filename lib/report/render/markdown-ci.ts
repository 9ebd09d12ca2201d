// The Markdown lines for a run's verdict and CI options: the certification with every reason it
// is withheld and every opt-out it rests on, the severity gate, a pinned requirement set and what
// the current set adds to it, and the baseline's entries with who tracks each until when.

import { consoleText } from '../../untrusted-text.ts';
import { faultName } from '../verdict/baseline.ts';
import { addedSince, currentSet } from '../../requirement-sets.ts';
import type { RequirementSet } from '../../requirement-sets.ts';
import type { EvalGateReport } from '../report.ts';
import type { FailOn } from '../run-options.ts';
import type { RunVerdict } from '../verdict/run-verdict.ts';
import type { SeverityOverride } from '../verdict/severity.ts';

type CiFacts = Pick<EvalGateReport, 'failOn' | 'selection' | 'baseline'> &
  Partial<Pick<EvalGateReport, 'repeat'>>;

/** The certification: what it rests on when given, and every reason when withheld. */
export function certificationSection(verdict: RunVerdict): string[] {
  const c = verdict.certification;
  const optOuts = c.optOuts.map(
    (o) =>
      `- opt-out claimed by the host: \`${o.gate}\` (${o.requirements.length === 0 ? 'left out no requirement' : `left out ${o.requirements.join(', ')}`})`,
  );
  if (c.certified) {
    const by =
      c.signer.state === 'verified'
        ? ` by key \`${c.signer.keyId}\`, which the host publishes`
        : '';
    return [
      `> **Certified**: strict mode, every requirement tested or opted out, signed${by}.`,
      '',
      ...optOuts,
      ...(optOuts.length === 0 ? [] : ['']),
    ];
  }
  return [
    '> **Not certified.**',
    ...c.reasons.map((r) => `> - ${cell(r.text)}`),
    '',
    ...optOuts,
    ...(optOuts.length === 0 ? [] : ['']),
  ];
}

const FAILS_ON: Readonly<Record<FailOn, string>> = {
  must: 'MUST failures',
  should: 'MUST failures and SHOULD warnings (--fail-on should)',
  none: 'nothing: the exit code is 0 whatever failed (--fail-on none); the result still says FAIL',
};

export function gateBullets(report: CiFacts): string[] {
  const lines = [`- fails on: ${FAILS_ON[report.failOn ?? 'must']}`];
  lines.push(setBullet(report.selection?.requirementSet));
  const s = report.selection;
  if (s !== undefined) {
    lines.push(
      `- selection: ${s.selected.length} requirement${s.selected.length === 1 ? '' : 's'} (only: ${s.only.join(', ') || 'all'}; skip: ${s.skip.join(', ') || 'none'}); the others are skipped as not selected`,
    );
  }
  return lines;
}

/** Which requirement set ran, and what the current set adds to a pinned one. */
export function setBullet(pinned: RequirementSet | undefined): string {
  const current = currentSet();
  if (pinned === undefined) {
    return `- requirement set: ${current.version}, the current one (pin it with --requirements ${current.version})`;
  }
  const added = addedSince(pinned);
  const adds =
    added.length === 0
      ? 'the current set adds none'
      : `the current set ${current.version} adds ${added.join(', ')}`;
  return `- requirement set: ${pinned.version} (--requirements), ${pinned.requirements.length} requirements; ${adds}`;
}

export function baselineSection(report: CiFacts, verdict: RunVerdict): string[] {
  const b = report.baseline;
  if (b === undefined) return [];
  return [
    '',
    `## Baseline: ${b.file}`,
    '',
    `sha256 \`${b.sha256}\`; ${verdict.counts.excusedRules} failing rule${verdict.counts.excusedRules === 1 ? '' : 's'} excused. A stale entry fails the run until it is removed.`,
    '',
    '| expected failure | status | reason | ticket | owner | expires |',
    '| --- | --- | --- | --- | --- | --- |',
    ...b.entries.map(
      (e) =>
        `| ${faultName(e)} | ${e.status === 'expired' ? '**expired: excuses nothing**' : e.status} | ${cell(e.reason)} | ${cell(e.ticket ?? '')} | ${cell(e.owner ?? '')} | ${e.expires ?? ''} |`,
    ),
    ...severitySection(b.severity ?? []),
  ];
}

/** The scoped severities: each rule, where it applies, the severity it counts at, and why. */
function severitySection(overrides: readonly SeverityOverride[]): string[] {
  if (overrides.length === 0) return [];
  return [
    '',
    "Scoped severity: these failures count at the severity below, not the RFC's; dispositions and findings keep the RFC's, and the run is not certified.",
    '',
    '| rule | requirements | counts as | reason | ticket | owner |',
    '| --- | --- | --- | --- | --- | --- |',
    ...overrides.map(
      (o) =>
        `| ${o.rule} | ${cell(o.requirements.join(', '))} | ${o.severity} | ${cell(o.reason)} | ${cell(o.ticket ?? '')} | ${cell(o.owner ?? '')} |`,
    ),
  ];
}

/** Under --repeat: every flaky row with the outcomes seen, and whether the baseline allows it. */
export function repeatSection(report: CiFacts): string[] {
  const r = report.repeat;
  if (r === undefined) return [];
  const flaky = r.rows.filter((row) => row.stability === 'flaky');
  return [
    '',
    `## Repeated ${r.count} times: ${flaky.length} flaky, ${r.rows.length - flaky.length} stable`,
    '',
    ...(flaky.length === 0
      ? ['Every requirement came to the same disposition every time.']
      : [
          'A flaky requirement is never certified; it fails the run unless a baseline entry lists its outcomes.',
          '',
          '| requirement | outcomes seen | allowed by the baseline |',
          '| --- | --- | --- |',
          ...flaky.map(
            (row) =>
              `| ${row.requirement} | ${row.outcomes.join(', ')} | ${row.allowed === true ? 'yes' : '**no: fails the run**'} |`,
          ),
        ]),
  ];
}

/**
 * Text made safe for one Markdown table cell: backslashes and pipes escaped, lines joined, markup
 * shown as text (GitHub renders a tag in Markdown), other control characters shown escaped.
 */
export function cell(text: string): string {
  return consoleText(
    text
      .replace(/\\/g, '\\\\')
      .replace(/\|/g, '\\|')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/[\r\n]+/g, ' '),
  );
}
