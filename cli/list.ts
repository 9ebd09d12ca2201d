// `openwop-eval-gate list [--json]`: the requirements and rules a run checks, so a baseline or an
// --only can be written without copying ids out of failure output.

import { catalogue } from '../lib/report/catalogue.ts';
import type { Catalogue } from '../lib/report/catalogue.ts';
import { REQUIREMENT_PREFIX } from '../lib/legs.ts';
import { EXIT } from '../lib/report/verdict/verdict.ts';

export function listCommand(json: boolean, out: (line: string) => void): number {
  const found = catalogue();
  if (json) out(JSON.stringify(found, null, 2));
  else for (const line of listLines(found)) out(line);
  return EXIT.ok;
}

const short = (id: string): string =>
  id.startsWith(REQUIREMENT_PREFIX) ? id.slice(REQUIREMENT_PREFIX.length) : id;

export function listLines(found: Catalogue): string[] {
  const lines = [`Requirements (${found.requirements.length}; ids start ${REQUIREMENT_PREFIX})`];
  for (const r of found.requirements) {
    const needs = r.capabilities.length === 0 ? 'no capability' : r.capabilities.join(', ');
    lines.push(
      `  ${short(r.id)}  ${r.ref}  fixture ${r.fixture ?? 'none (server-free)'}  needs ${needs}  sets ${r.sets.join(', ') || 'none'}`,
    );
  }
  const driving = found.requirements.filter((r) => r.fixture !== null).length;
  lines.push(`Rules (${found.rules.length})`);
  for (const rule of found.rules) {
    const all = rule.recordedBy.length === driving;
    const by = [
      ...(rule.hostCheck ? ['the host checks, once per run'] : []),
      ...(rule.recordedBy.length === 0
        ? []
        : [all ? 'every requirement that drives the host' : rule.recordedBy.map(short).join(', ')]),
    ].join('; ');
    lines.push(`  ${rule.id}  ${rule.severity}  ${rule.ref}  recorded by ${by}`);
  }
  return lines;
}
