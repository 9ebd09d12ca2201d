// The host checks: discovery judged and the refusals provoked once per run. SHOULD findings that
// decide no requirement, each linked to the probe answer it was judged on.

import { HOST_PROBES } from '../../../host-probes.ts';
import type { HostChecks, ObservedProbe, ProbeName } from '../../../types.ts';
import { anchorId, esc, shown, tag } from './escape.ts';

export const HOST_CHECKS_ID = 'host-checks';

/**
 * The probe a rule's finding was judged on, for the rules only one probe judges; a rule several
 * probes judge (the bypass) names no one answer.
 */
const PROBE_OF_RULE: ReadonlyMap<string, ProbeName> = new Map(
  HOST_PROBES.flatMap((p) => p.checks.map((c) => [c.rule.id, p.name] as const)).filter(
    ([rule], _, all) => all.filter(([other]) => other === rule).length === 1,
  ),
);

export function probeAnchor(probe: string): string {
  return anchorId(HOST_CHECKS_ID, 'probe', probe);
}

export const DISCOVERY_ID = anchorId(HOST_CHECKS_ID, 'discovery');

function probeText(p: ObservedProbe): string {
  switch (p.outcome) {
    case 'answered':
      return `${esc(p.request)} answered ${p.status}: <code>${esc(shown(p.body, 300))}</code>`;
    case 'unobserved':
      return `${esc(p.request)} unobserved: ${esc(p.reason)}`;
    default:
      return `${esc(p.outcome)}: ${esc(p.reason)}`;
  }
}

export function hostChecksSection(checks: HostChecks | undefined, discovery: string): string {
  if (checks === undefined) {
    return `<section id="${HOST_CHECKS_ID}"><h2>Host checks</h2><p>The run made no host checks.</p></section>`;
  }
  const probes = new Set(checks.probes.map((p) => p.probe));
  const rows = [...checks.findings]
    .sort((a, b) => Number(a.ok) - Number(b.ok))
    .map((f) => {
      const probe = PROBE_OF_RULE.get(f.rule);
      const target =
        probe !== undefined && probes.has(probe)
          ? probeAnchor(probe)
          : f.rule === 'wire.discovery'
            ? DISCOVERY_ID
            : undefined;
      const link =
        target === undefined
          ? ''
          : `<a class="evidence-link" href="#${esc(target)}">${esc(probe ?? 'discovery')}</a>`;
      return tag(
        'tr',
        { class: `finding ${f.ok ? 'held' : 'warned'}` },
        `<td><code>${esc(f.rule)}</code></td><td>${f.ok ? 'held' : 'warning'}</td><td>${esc(f.ref)}</td><td>${esc(f.message)}</td><td>${link}</td>`,
      );
    });
  const probeItems = checks.probes.map((p) =>
    tag('li', { id: probeAnchor(p.probe) }, `<strong>${esc(p.probe)}</strong>: ${probeText(p)}`),
  );
  const gaps = [
    ...checks.unexercised.map(
      (u) => `<li><code>${esc(u.rule)}</code> not judged: ${esc(u.reason)}</li>`,
    ),
    ...checks.inapplicable.map(
      (u) => `<li><code>${esc(u.rule)}</code> inapplicable: ${esc(u.reason)}</li>`,
    ),
  ];
  return [
    `<section id="${HOST_CHECKS_ID}"><h2>Host checks</h2>`,
    '<p class="muted">SHOULD findings: they decide no requirement, and fail the run only under --fail-on should.</p>',
    `<table class="findings"><thead><tr><th>rule</th><th>outcome</th><th>ref</th><th>message</th><th>judged on</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    gaps.length === 0 ? '' : `<ul>${gaps.join('')}</ul>`,
    `<details><summary>Provoked requests and discovery</summary><ul>${probeItems.join('')}</ul>`,
    tag('div', { id: DISCOVERY_ID }, `<p>Discovery as read:</p><pre>${esc(discovery)}</pre>`),
    '</details></section>',
  ].join('\n');
}
