// The page's view of a failing generated case is the decision it is handed (the run's, or the one
// verify's replay made again), shown as it is: the page decides no case and draws no fixture, so
// a finding no judge would make of the case still shows, word for word, where it was placed.

import { describe, expect, it } from 'vitest';
import { generatePack } from '../../lib/generate/pack.ts';
import { pageViewsFor } from '../../lib/report/page-inputs.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { alignFixture } from '../../lib/report/trajectory-alignment.ts';
import type { DecidedCase, Finding } from '../../lib/types.ts';
import { GENERATED_REQUIREMENT } from '../../lib/legs.ts';
import { failingReport, failingRow } from './html-example.ts';

/** No row drives a hand-written fixture, so the page's only views are the cases handed to it. */
const NO_ROWS = { requirements: [] } as unknown as EvalGateReport;

/** A finding no judge makes: only the decision handed in can put it on the page. */
const HANDED: Finding = {
  rule: 'handed.in',
  ok: false,
  severity: 'MUST',
  ref: 'RFC 0246 §B',
  message: 'decided by whoever handed it in',
};

describe('pageViewsFor', () => {
  it("shows each decided case at ROW#PLACE with the findings it was handed and its fixture's trials", async () => {
    const [fixture] = generatePack({ count: 1, seed: 7 });
    if (fixture === undefined) throw new Error('the pack drew no fixture');
    const handed: DecidedCase = { fixture, findings: [HANDED] };
    const views = await pageViewsFor(NO_ROWS, new Map([['r.pack', new Map([[4, handed]])]]));
    expect([...views.cases.keys()]).toEqual(['r.pack#4']);
    const view = views.cases.get('r.pack#4');
    expect(view?.findings).toBe(handed.findings);
    expect(view?.trials).toEqual(alignFixture(fixture));
    // Handed no sidecar reader, the page reads no sidecar records.
    expect(views.sidecarCases).toBeUndefined();
  });

  it('shows no view of a failing case it was not handed, though the report records the case', async () => {
    const [fixture] = generatePack({ count: 1, seed: 7 });
    if (fixture === undefined) throw new Error('the pack drew no fixture');
    const { observation } = failingRow();
    if (observation === undefined) throw new Error('the failing row recorded no run');
    const literal = failingReport();
    // A failing case with the run it judged, at the place the pack draws it: all the page would
    // need to judge it itself.
    const packRow = {
      ...failingRow(),
      id: GENERATED_REQUIREMENT,
      generated: {
        seed: 7,
        count: 1,
        cases: [
          {
            fixtureId: fixture.id,
            file: `${fixture.id}.json`,
            disposition: 'executed-fail' as const,
            observation,
          },
        ],
      },
    };
    const report = { ...literal, requirements: [...literal.requirements, packRow] };
    const views = await pageViewsFor(report, new Map(), () => {
      throw new Error('no sidecar is read for a report with no streamed pack');
    });
    expect(views.cases.size).toBe(0);
    expect(views.sidecarCases?.size).toBe(0);
  });
});
