// The report file's layout: indented for a reader, one line when it carries a generated pack,
// whose recorded observations would double in size with indentation. Either way it reads back as
// the same report, so the digests and the signature, which cover the canonical JSON, still hold.

import { describe, expect, it } from 'vitest';
import { GENERATED_REQUIREMENT } from '../../lib/legs.ts';
import type { EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import { reportText } from '../../lib/report/report-text.ts';
import { validReport } from '../cli/report-example.ts';

const base = validReport() as unknown as EvalGateReport;

const packRow: ReportRow = {
  id: GENERATED_REQUIREMENT,
  disposition: 'executed-pass',
  assertions: 4,
  durationMs: 7,
  findings: [],
  generated: {
    seed: 1,
    count: 1,
    cases: [
      {
        fixtureId: 'generated-s1-n0001',
        file: 'generated-s1-n0001.json',
        disposition: 'executed-pass',
      },
    ],
  },
};

describe('the report file', () => {
  it('is indented when it holds no generated pack', () => {
    const text = reportText(base);
    expect(text).toBe(`${JSON.stringify(base, null, 2)}\n`);
    expect(text.split('\n').length).toBeGreaterThan(10);
  });

  it('is one line when it holds a generated pack, and reads back as the same report', () => {
    const withPack: EvalGateReport = { ...base, requirements: [...base.requirements, packRow] };
    const text = reportText(withPack);
    expect(text.indexOf('\n')).toBe(text.length - 1);
    expect(JSON.parse(text)).toEqual(withPack);
  });
});
