// The host checks against the conformant reference host and each of its defects, on both
// variants, compared with host-checks-expected.ts: exactly the listed rules fail on each row, and
// none on any other. The checks run as the CLI runs them (lib/decide/host-checks.ts), after one
// run is created with a leg's request, so the unknown run is looked up in the tenant the host
// really minted. Only the create is sent: a defect that stalls a run must not stall this table.

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startReferenceHost } from '../../reference-host/index.ts';
import type { DefectName } from '../../reference-host/index.ts';
import { resolveConfig } from '../../lib/env.ts';
import { LEGS } from '../../lib/legs.ts';
import { HOST_PROBES, PROBE_RULES } from '../../lib/host-probes.ts';
import { RULES } from '../../lib/eval-gate-witness.ts';
import { checkHost } from '../../lib/decide/host-checks.ts';
import { runRequest } from '../../lib/decide/decide-leg.ts';
import { loadFixture } from '../../lib/fixtures.ts';
import { openTarget } from '../../lib/decide/target.ts';
import type { HostChecks } from '../../lib/types.ts';
import type { LegTarget } from '../../lib/decide/leg-target.ts';
import { HOST_CHECK_FAILURES, hostCheckFailures } from './host-checks-expected.ts';
import { ROW_NAMES, VARIANTS, type Variant } from './run-matrix.ts';
import type { RowName } from './expected.ts';

/** Ten minutes, for every request and every test: far past any answer of a host in process. */
const HANG_GUARD_MS = 600_000;

/** The fixture whose run is created: the one every host that seeds any fixture seeds. */
const CREATING_FIXTURE = LEGS.find((l) => l.id.endsWith('.suite-gated'))?.fixtureId;

/** The run id the host mints for one run of the creating fixture, if it mints one. */
async function createdRunId(target: LegTarget): Promise<string | undefined> {
  if (CREATING_FIXTURE === undefined) throw new Error('the suite-gated leg drives a fixture');
  const loaded = await loadFixture(CREATING_FIXTURE);
  if (!loaded.ok) throw new Error(loaded.reason);
  const body = { mode: 'eval', ...runRequest(loaded.fixture) };
  // A create lost in transport leaves no tenant to borrow, as it leaves none in a run.
  const answer = await target.client.post('/runs', body).catch(() => undefined);
  if (answer === undefined) return undefined;
  const runId = (answer.json as { runId?: unknown } | undefined)?.runId;
  return answer.status < 300 && typeof runId === 'string' && runId !== '' ? runId : undefined;
}

async function hostChecksOf(row: RowName, variant: Variant): Promise<HostChecks> {
  const apiKey = randomBytes(24).toString('base64url');
  const defect: DefectName | undefined = row === 'conformant' ? undefined : row;
  const host = await startReferenceHost({
    apiKey,
    variant,
    ...(defect === undefined ? {} : { defect }),
  });
  try {
    // Every probe's deadline only guards against a hang: a busy machine must not block a probe.
    const config = resolveConfig({
      OPENWOP_BASE_URL: host.url,
      OPENWOP_API_KEY: apiKey,
      OPENWOP_REQUEST_TIMEOUT_MS: String(HANG_GUARD_MS),
    });
    // As in run-matrix.ts: forgetting and fetching happen in one synchronous step.
    const target = await openTarget(config);
    if (target === undefined) throw new Error('no target for a configured base URL');
    try {
      const runId = await createdRunId(target);
      return await checkHost({
        client: target.client,
        discovery: target.discovery,
        keyConfigured: true,
        knownRunId: runId,
        timeoutMs: config.bounds.requestTimeoutMs,
      });
    } finally {
      await target.client.close();
    }
  } finally {
    await host.close();
  }
}

/** The rules only the host checks judge; wire.error-body is the drive's rule too. */
const HOST_CHECK_RULES: ReadonlySet<string> = new Set([
  'wire.discovery',
  ...PROBE_RULES.map((r) => r.id),
]);

/** The probes a host that advertises agents.evalSuite gives no grounds to ask: inapplicable. */
const UNADVERTISED = HOST_PROBES.filter((p) => p.request.send === 'unadvertised-summary');

const failedRules = (checks: HostChecks): string[] =>
  [...new Set(checks.findings.filter((f) => !f.ok).map((f) => f.rule))].sort();

function verdict(row: RowName): string {
  const want = hostCheckFailures(row);
  return want.length === 0 ? `${row}: no host check fails` : `${row}: ${want.join(', ')} fail`;
}

describe('the host checks of the falsifiability matrix', () => {
  for (const variant of VARIANTS) {
    describe.concurrent(`${variant} host`, () => {
      for (const row of ROW_NAMES) {
        it(verdict(row), { timeout: HANG_GUARD_MS }, async () => {
          const checks = await hostChecksOf(row, variant);
          expect(failedRules(checks), JSON.stringify(checks.findings)).toEqual(
            hostCheckFailures(row),
          );
          // Only an authentication bypass is a MUST among the host checks.
          expect(
            checks.findings
              .filter((f) => f.severity === 'MUST')
              .every((f) => f.rule === 'auth.no-bypass'),
          ).toBe(true);
        });
      }
    });
  }

  it(
    'the conformant host is judged on every host-check rule its advertisements leave open, on both variants',
    { timeout: HANG_GUARD_MS },
    async () => {
      for (const variant of VARIANTS) {
        const checks = await hostChecksOf('conformant', variant);
        expect(checks.unexercised, variant).toEqual([]);
        expect(checks.probes.map((p) => p.outcome)).toEqual(
          HOST_PROBES.map((p) => (UNADVERTISED.includes(p) ? 'inapplicable' : 'answered')),
        );
        // It advertises agents.evalSuite, so no gated operation is unadvertised: inapplicable.
        const inapplicable = UNADVERTISED.flatMap((p) => p.checks.map((c) => c.rule.id as string));
        expect(inapplicable.length).toBeGreaterThan(0);
        expect(checks.inapplicable.map((i) => i.rule)).toEqual(inapplicable);
        expect(checks.inapplicable[0]?.reason).toMatch(/advertises agents\.evalSuite/);
        expect(new Set(checks.findings.map((f) => f.rule))).toEqual(
          new Set(
            [...HOST_CHECK_RULES, 'wire.error-body'].filter((r) => !inapplicable.includes(r)),
          ),
        );
      }
    },
  );

  it('every host-check rule is shown failing by a defect that breaks exactly its clause', () => {
    const shown: ReadonlySet<string> = new Set(Object.values(HOST_CHECK_FAILURES).flat());
    const hostRules = RULES.map((r) => r.id as string).filter((id) => HOST_CHECK_RULES.has(id));
    expect(hostRules).toHaveLength(HOST_CHECK_RULES.size);
    expect(hostRules.filter((id) => !shown.has(id))).toEqual([]);
  });

  it(
    'a host that withholds agents.evalSuite and answers its summary 404 is judged on that rule and holds it',
    { timeout: HANG_GUARD_MS },
    async () => {
      for (const variant of VARIANTS) {
        const checks = await hostChecksOf('withhold-eval-suite', variant);
        expect(checks.inapplicable, variant).toEqual([]);
        const judged = checks.findings.filter(
          (f) => f.rule === 'wire.unadvertised-operation-not-found',
        );
        expect(
          judged.map((f) => f.ok),
          variant,
        ).toEqual([true]);
        expect(judged[0]?.message).toMatch(/was answered 404/);
      }
    },
  );
});
