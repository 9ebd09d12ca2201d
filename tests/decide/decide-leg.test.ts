// decideLeg on literal facts: the order in which a leg meets selection, the server-free judgement,
// the host, the gates, the fixture file and the drive; which fact it asks for next; and the
// disposition and reason each ending gives. No host and no file: milliseconds per case.

import { describe, expect, it } from 'vitest';
import { decideLeg, type LegFacts, type LegStep } from '../../lib/decide/decide-leg.ts';
import { NOT_SELECTED } from '../../lib/decide/decide.ts';
import { legById } from '../../lib/legs.ts';
import type { DriveResult } from '../../lib/types.ts';
import { asObservation, GATED, gatedObservation } from '../witness/build.ts';

const MEAN = legById('openwop.requirement.0246.mean-gated');
const SHAPE = legById('openwop.requirement.0246.gated-fields-shape');
const MEAN_FIXTURE = 'conformance-eval-trajectory-gate-mean';
const V2 = {
  protocolVersions: ['2.0'],
  preferredVersion: '2.0',
  agents: { evalSuite: { modes: ['golden'], trajectory: {}, trials: {} } },
  fixtures: [MEAN_FIXTURE],
};
const UNLISTED = { ...V2, fixtures: [] };
const DEFAULT = { requireBehavior: false, optedOut: [] };
const STRICT = { requireBehavior: true, optedOut: [] };

const facts = (parts: Partial<LegFacts> = {}): LegFacts => ({
  leg: MEAN,
  selected: true,
  settings: DEFAULT,
  discovery: { kind: 'read', document: V2 },
  ...parts,
});
const loaded = { fixture: { ok: true as const, fixture: GATED, path: 'p' } };

function decision(step: LegStep) {
  if (step.kind !== 'decided')
    throw new Error(`expected a decision, got a request for ${step.kind}`);
  return step.decision;
}

describe('decideLeg before any I/O', () => {
  it('skips an unselected leg as not selected, before it asks anything, host or not', () => {
    for (const discovery of [
      { kind: 'no-host', reason: 'none' },
      { kind: 'read', document: V2 },
    ] as const) {
      expect(decideLeg(facts({ selected: false, discovery }))).toEqual({
        kind: 'decided',
        decision: { disposition: 'skipped', assertions: 0, reason: NOT_SELECTED, findings: [] },
      });
    }
  });

  it('judges the server-free leg from the schema alone, without a host', () => {
    const shape = decision(
      decideLeg(facts({ leg: SHAPE, discovery: { kind: 'no-host', reason: 'x' } })),
    );
    expect(shape.disposition).toBe('executed-pass');
    expect(shape.assertions).toBeGreaterThan(0);
    expect(shape.findings.every((f) => f.ok)).toBe(true);
  });

  it('blocks a host leg with no host, and one whose discovery was unreadable, naming why', () => {
    expect(
      decision(decideLeg(facts({ discovery: { kind: 'no-host', reason: 'no base URL' } }))),
    ).toEqual({
      disposition: 'blocked',
      assertions: 0,
      reason: 'no base URL',
      findings: [],
    });
    expect(
      decision(decideLeg(facts({ discovery: { kind: 'unreadable', reason: 'answered 500' } })))
        .reason,
    ).toBe('discovery unreadable: answered 500');
  });

  it('decides a failing gate as a host fact by default and a failure in strict mode', () => {
    const gated = decision(decideLeg(facts({ discovery: { kind: 'read', document: UNLISTED } })));
    expect(gated).toMatchObject({ disposition: 'inapplicable', assertions: 0, findings: [] });
    expect(gated.reason).toBe(`host does not list fixture ${MEAN_FIXTURE} in discovery fixtures`);
    const strict = decision(
      decideLeg(facts({ settings: STRICT, discovery: { kind: 'read', document: UNLISTED } })),
    );
    expect(strict.disposition).toBe('executed-fail');
  });

  it('asks for the fixture once the gates hold, and reads no gate when discovery is unrecorded', () => {
    expect(decideLeg(facts())).toEqual({ kind: 'load-fixture', fixtureId: MEAN_FIXTURE });
    expect(decideLeg(facts({ discovery: { kind: 'unrecorded' }, settings: STRICT }))).toEqual({
      kind: 'load-fixture',
      fixtureId: MEAN_FIXTURE,
    });
  });

  it("blocks a fixture that fails to load as the suite's fact, without asking for a drive", () => {
    const step = decideLeg(facts({ fixture: { ok: false, reason: 'no such file' } }));
    expect(decision(step)).toEqual({
      disposition: 'blocked',
      assertions: 0,
      reason: "the suite's fixture failed to load: no such file",
      findings: [],
    });
  });

  it("asks for a drive with the fixture's suite reference and scripted agent", () => {
    expect(decideLeg(facts(loaded))).toEqual({
      kind: 'drive',
      fixture: GATED,
      request: {
        evalSuiteRef: `${GATED.suite.suiteId}@${GATED.suite.version}`,
        agentId: GATED.agentId,
      },
    });
  });
});

describe("decideLeg on the drive's ending", () => {
  const ended = (drive: DriveResult) => decision(decideLeg(facts({ ...loaded, drive })));

  it('blocks a run it could not observe, naming the stage: a lost answer is never a verdict', () => {
    expect(ended({ kind: 'unobserved', stage: 'events', reason: 'timed out' })).toEqual({
      fixtureId: GATED.id,
      disposition: 'blocked',
      assertions: 0,
      reason: 'could not observe the run (events): timed out',
      findings: [],
    });
  });

  it('fails a run the host refused to serve, with the one run.served finding', () => {
    const refused = ended({ kind: 'host-fault', stage: 'create', reason: 'answered 500' });
    expect(refused.disposition).toBe('executed-fail');
    expect(refused.fixtureId).toBe(GATED.id);
    expect(refused.findings.map((f) => [f.rule, f.ok])).toEqual([['run.served', false]]);
  });

  it('judges an observed run with the witness, and a summary it rejects fails the leg', () => {
    const observation = asObservation(gatedObservation());
    const held = ended({ kind: 'observed', observation });
    expect(held).toMatchObject({ disposition: 'executed-pass', fixtureId: GATED.id, observation });
    const broken = gatedObservation();
    (broken.summary as { passed: boolean }).passed = false;
    const failed = ended({ kind: 'observed', observation: asObservation(broken) });
    expect(failed.disposition).toBe('executed-fail');
    expect(failed.reason).toMatch(/^\d+ MUST findings? failed: /);
  });
});
