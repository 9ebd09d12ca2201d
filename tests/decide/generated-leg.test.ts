// The generated row decided again from its records, on records no observation backs: a host
// fault, a blocked case, a gate, and the records that contradict the pack or themselves. The
// recomputation from observations is shown end to end in tests/cli/run-generated.test.ts.

import { describe, expect, it } from 'vitest';
import { hostFaultFinding } from '../../lib/decide/decide.ts';
import { recomputeGeneratedRow, runGeneratedLeg } from '../../lib/decide/generated-leg.ts';
import { GENERATED_REQUIREMENT } from '../../lib/legs.ts';
import type { GeneratedCaseRecord, InlineGeneratedRecord } from '../../lib/types.ts';
import { startReferenceHost } from '../../reference-host/index.ts';

const LENIENT = { strict: false, optedOut: [] } as const;
const STRICT = { strict: true, optedOut: [] } as const;
const UNREAD = { ok: false } as const;

const FIRST = 'generated-s1-n0001';
const SECOND = 'generated-s1-n0002';

function record(...cases: GeneratedCaseRecord[]): InlineGeneratedRecord {
  return { seed: 1, count: 2, cases };
}

const blockedCase = (fixtureId: string): GeneratedCaseRecord => ({
  fixtureId,
  file: `${fixtureId}.json`,
  disposition: 'blocked',
  reason: 'could not observe the run (create): connection reset',
});

describe('recomputeGeneratedRow without observations', () => {
  it('a host fault recorded as its one failing run.served fails the row and names the case', async () => {
    const fault = hostFaultFinding('create', 'HTTP 500');
    const again = await recomputeGeneratedRow(
      record(
        {
          fixtureId: FIRST,
          file: `${FIRST}.json`,
          disposition: 'executed-fail',
          reason: 'served nothing',
          findings: [fault],
        },
        blockedCase(SECOND),
      ),
      UNREAD,
      LENIENT,
    );
    expect(again.problems).toEqual([]);
    expect(again.decision.disposition).toBe('executed-fail');
    expect(again.decision.reason).toMatch(
      /^1 of 2 generated fixtures failed: generated-s1-n0001 \(seed 1, generated-s1-n0001\.json\): run\.served: /,
    );
  });

  it('blocked cases block the row, quoting why', async () => {
    const again = await recomputeGeneratedRow(
      record(blockedCase(FIRST), blockedCase(SECOND)),
      UNREAD,
      LENIENT,
    );
    expect(again.problems).toEqual([]);
    expect(again.decision.disposition).toBe('blocked');
    expect(again.decision.reason).toContain('connection reset');
  });

  it('findings other than a host fault, without an observation, are refused', async () => {
    const held = { ...hostFaultFinding('create', 'x'), rule: 'task.passed', ok: true };
    const again = await recomputeGeneratedRow(
      record(
        {
          fixtureId: FIRST,
          file: `${FIRST}.json`,
          disposition: 'executed-pass',
          findings: [held],
        },
        blockedCase(SECOND),
      ),
      UNREAD,
      LENIENT,
    );
    expect(again.problems).toEqual([
      `generated case 1 (${FIRST}): findings without an observation; only a host fault (one failing run.served) is recorded so`,
    ]);
  });

  it('a pass with nothing behind it is refused', async () => {
    const again = await recomputeGeneratedRow(
      record({ fixtureId: FIRST, file: `${FIRST}.json`, disposition: 'executed-pass' }),
      UNREAD,
      LENIENT,
    );
    expect(again.problems).toEqual([
      'generated: 1 cases recorded, the pack of 2 at seed 1 has 2',
      `generated case 1 (${FIRST}): disposition executed-pass with no observation, finding or gate that explains it`,
    ]);
  });

  it('a case recorded in another place than the pack puts it is refused', async () => {
    const again = await recomputeGeneratedRow(
      record(blockedCase(SECOND), blockedCase(FIRST)),
      UNREAD,
      LENIENT,
    );
    expect(again.problems).toEqual([
      `generated case 1 (${SECOND}): recorded as ${SECOND}.json, the pack places ${FIRST} there`,
      `generated case 2 (${FIRST}): recorded as ${FIRST}.json, the pack places ${SECOND} there`,
    ]);
  });
});

describe('recomputeGeneratedRow gates each case against the recorded discovery', () => {
  /** The reference host's own discovery, with no fixture listed. */
  async function unlistingDiscovery(): Promise<{ ok: true; document: unknown }> {
    const host = await startReferenceHost();
    try {
      const served = (await (await fetch(`${host.url}/.well-known/openwop`)).json()) as object;
      return { ok: true, document: { ...served, fixtures: [] } };
    } finally {
      await host.close();
    }
  }

  it('a fixture the host does not list is inapplicable by default and fails in strict mode', async () => {
    const unlisting = await unlistingDiscovery();
    const cases = record(blockedCase(FIRST), blockedCase(SECOND));
    const lenient = await recomputeGeneratedRow(cases, unlisting, LENIENT);
    const strict = await recomputeGeneratedRow(cases, unlisting, STRICT);
    expect(lenient.decision.disposition).toBe('inapplicable');
    expect(strict.decision.disposition).toBe('executed-fail');
    expect(strict.decision.reason).toContain(`host does not list fixture ${FIRST}`);
    // The recorded cases said blocked; the gate decides them otherwise, and the rebuilt record
    // says so, for verify to set beside the recorded one.
    expect(strict.problems).toEqual([]);
    expect(strict.record.cases.map((c) => c.disposition)).toEqual([
      'executed-fail',
      'executed-fail',
    ]);
  });
});

describe('runGeneratedLeg', () => {
  it('with no host to drive, the row is blocked and records no pack', async () => {
    const outcome = await runGeneratedLeg({ count: 2, seed: 1 }, undefined);
    expect(outcome.requirement).toBe(GENERATED_REQUIREMENT);
    expect(outcome.disposition).toBe('blocked');
    expect(outcome.assertions).toBe(0);
    expect(outcome.generated).toBeUndefined();
  });
});
