// A diff as Markdown, for a pull-request comment: a heading that is the verdict, a lost
// certification first, what differs between the two runs' settings, a table of the requirements
// that moved (every compared one with `all`), then the rules and numbers that moved. An unchanged
// diff says so in one line.

import type { ReportDiff } from '../diff.ts';
import { shortId } from '../diff-scope.ts';
import { cell } from './markdown-ci.ts';

export function renderDiffMarkdown(diff: ReportDiff, all: boolean): string {
  const moved = diff.requirements.filter((r) => r.move !== 'unchanged');
  const shown = all ? diff.requirements : moved;
  const n = diff.scope.compared.length;
  const lines = [`## RFC 0246 eval gate: ${headingOf(diff)}`, ''];
  if (diff.certification.regressed) {
    lines.push(
      `**Certification lost:** the base was certified and this run is not: ${diff.certification.reasons.map(cell).join('; ')}`,
      '',
    );
  }
  if (diff.certification.notCompared !== undefined) {
    lines.push(`> **Notice:** ${cell(diff.certification.notCompared)}`, '');
  }
  if (diff.scope.warnings.length > 0) {
    lines.push(...diff.scope.warnings.map((w) => `> **Note:** ${cell(w)}`), '');
  }
  if (moved.length === 0 && diff.rules.length === 0 && diff.numbers.length === 0) {
    lines.push(
      `Nothing changed: the ${n} requirement${n === 1 ? '' : 's'} compared kept ${n === 1 ? 'its' : 'their'} dispositions, rules and numbers.`,
      '',
    );
  }
  if (shown.length > 0) {
    lines.push(
      '| requirement | before | after | change |',
      '| --- | --- | --- | --- |',
      ...shown.map(
        (r) =>
          `| \`${shortId(r.id)}\` | ${r.before} | ${r.after} | ${r.move === 'unchanged' ? 'unchanged' : `**${r.move}**`} |`,
      ),
      '',
    );
  }
  if (diff.rules.length > 0) {
    lines.push(
      '### Rules',
      '',
      '| requirement | rule | severity | change | before |',
      '| --- | --- | --- | --- | --- |',
      ...diff.rules.map(
        (r) =>
          `| \`${shortId(r.requirement)}\` | \`${r.rule}\` | ${r.severity} | ${r.regressed ? `**${r.change}** (REGRESSED)` : r.change} | ${r.before} |`,
      ),
      '',
    );
  }
  if (diff.numbers.length > 0) {
    lines.push(
      '### Numbers',
      '',
      '| requirement | subject | field | before | after | a correct host reports |',
      '| --- | --- | --- | --- | --- | --- |',
      ...diff.numbers.map(
        (x) =>
          `| \`${shortId(x.requirement)}\` | ${cell(x.subject)} | ${x.field} | ${cell(x.before)} | ${cell(x.after)} | ${cell(x.expected)} |`,
      ),
      '',
    );
  }
  lines.push(
    ...diff.provenance.map((p) => `- ${cell(p.what)}: ${cell(p.before)} → ${cell(p.after)}`),
  );
  return `${lines.join('\n').trimEnd()}\n`;
}

/** `1 requirement regressed, 2 MUST rules newly fail`, or `no regression, 2 improved`. */
function headingOf(diff: ReportDiff): string {
  const requirements = diff.requirements.filter((x) => x.regressed).length;
  const rules = diff.rules.filter((x) => x.regressed).length;
  const parts = [
    ...(diff.certification.regressed ? ['certification lost'] : []),
    ...(requirements === 0
      ? []
      : [`${requirements} requirement${requirements === 1 ? '' : 's'} regressed`]),
    ...(rules === 0 ? [] : [`${rules} MUST rule${rules === 1 ? ' newly fails' : 's newly fail'}`]),
  ];
  if (parts.length > 0) return parts.join(', ');
  const improved = diff.requirements.filter((x) => x.move === 'IMPROVED').length;
  const verdict = improved === 0 ? 'no regression' : `no regression, ${improved} improved`;
  // The heading is the action's annotation too: a comparison that left certification out says so.
  return diff.certification.notCompared === undefined
    ? verdict
    : `${verdict} (certification not compared: no signing key)`;
}
