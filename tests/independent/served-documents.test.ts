// Every document the independent host served in a full conformance run holds against the
// published structures the suite holds (discovery, each 201, every poll page, every event
// envelope, every eval.* and agent.* payload, every summary, every error body), in each
// upstream-optional mode and with the refusals the suite never provokes asked for on purpose:
// the double teaches published v2, not a dialect.

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LEGS, type LegDefinition } from '../../lib/legs.ts';
import type { Json } from '../../lib/types.ts';
import {
  checkServedDocuments,
  recordingFetch,
  SERVED_BY_EVERY_RUN,
} from '../support/served-documents.ts';
import type { Exchange } from '../support/served-documents.ts';
import { ORACLE_MODES, startOracleHost } from '../support/oracle-host.ts';
import type { OracleHostOptions, OracleMode } from '../support/oracle-host.ts';
import { HANG_GUARD_MS, runEveryLeg } from '../support/run-every-leg.ts';

const MEAN_REF = 'conformance.evals.trajectory-gate-mean@1.0.0';
const AGENT = 'core.conformance.eval-scripted-agent';

/** Requests the suite never sends, each answered with an error body the host must shape right. */
async function probeRefusals(url: string, apiKey: string, exchanges: Exchange[]): Promise<void> {
  const send = recordingFetch(url, exchanges);
  const auth = { authorization: `Bearer ${apiKey}`, 'openwop-version': '2.0' };
  const create = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await send('/runs', create({ mode: 'eval', evalSuiteRef: 'x.evals.y@1.0.0', agentId: AGENT }));
  await send('/runs', create({ evalSuiteRef: MEAN_REF }));
  await send('/runs', { method: 'POST', headers: { 'openwop-version': '2.0' }, body: '{}' });
  await send('/.well-known/openwop', { headers: { 'openwop-version': '9.0' } });
  await send('/runs/nobody~2Fno-such-run-at-all', { headers: auth });
  await send('/runs/nobody~zzno-such-run-at-all', { headers: auth });
  // A fresh run asked for its summary at once is still running: 409 run_state_conflict.
  for (let i = 0; i < 3; i += 1) {
    const made = await send(
      '/runs',
      create({ mode: 'eval', evalSuiteRef: MEAN_REF, agentId: AGENT }),
    );
    if (made.status !== 201) continue;
    const runId = (JSON.parse(made.text) as { runId: string }).runId;
    await send(`/runs/${encodeURIComponent(runId)}/eval-summary`, { headers: auth });
    break;
  }
}

async function serve(
  options: Omit<OracleHostOptions, 'apiKey'>,
  legs: readonly LegDefinition[] = LEGS,
) {
  const apiKey = randomBytes(18).toString('base64url');
  const host = await startOracleHost({ apiKey, ...options });
  const exchanges: Exchange[] = [];
  try {
    const outcomes = await runEveryLeg(host.url, apiKey, 2, exchanges, legs);
    await probeRefusals(host.url, apiKey, exchanges);
    return { outcomes, exchanges };
  } finally {
    await host.close();
  }
}

const MODE_SETS: readonly (readonly [string, readonly OracleMode[]])[] = [
  ['no optional choice', []],
  ...ORACLE_MODES.map((mode) => [mode, [mode]] as const),
  ['every mode at once', [...ORACLE_MODES]],
];

describe.concurrent('what the independent host serves is published v2', () => {
  it.each(MODE_SETS)(
    'every document served holds (%s)',
    { timeout: HANG_GUARD_MS },
    async (_, modes) => {
      const { outcomes, exchanges } = await serve({ seed: 0x9d0c + modes.length, modes });
      expect(outcomes.map((o) => o.disposition)).toEqual(outcomes.map(() => 'executed-pass'));
      const check = checkServedDocuments(exchanges);
      expect(check.problems).toEqual([]);
      expect(SERVED_BY_EVERY_RUN.filter((name) => (check.counts[name] ?? 0) === 0)).toEqual([]);
      // The one event the suite holds no payload structure for is the host's vendor type.
      expect(check.unclassified.filter((u) => !/type acme\.usage\.metered$/.test(u))).toEqual([]);
      const codes = exchanges
        .filter((x) => x.status >= 400)
        .map((x) => `${x.status} ${(JSON.parse(x.text) as { error: Json }).error as string}`);
      expect(new Set(codes)).toEqual(
        new Set([
          '429 rate_limited',
          '404 not_found',
          '400 validation_error',
          '401 unauthenticated',
          '406 protocol_version_unsupported',
          '409 run_state_conflict',
        ]),
      );
    },
  );

  it(
    'a payload the host breaks is named with its structure and the member at fault',
    { timeout: HANG_GUARD_MS },
    async () => {
      // What is asked is that the checker names the broken member, not that every leg serves
      // it: the suite-gated fixture's legs serve agent.decided, and more legs add only more of it.
      const agentLegs = LEGS.filter((leg) => leg.fixtureId === 'conformance-eval-trajectory-gate');
      expect(agentLegs).not.toEqual([]);
      const { exchanges } = await serve(
        {
          seed: 7,
          mutateEvents: (events) =>
            events.map((e) =>
              e.type !== 'agent.decided'
                ? e
                : {
                    ...e,
                    payload: Object.fromEntries(
                      Object.entries(e.payload).filter(([k]) => k !== 'agentId'),
                    ),
                  },
            ),
        },
        agentLegs,
      );
      const { problems } = checkServedDocuments(exchanges);
      expect(problems.length).toBeGreaterThan(0);
      for (const line of problems) {
        expect(line).toMatch(/events\[\d+\]\.payload: agent-decided# required: .*agentId/);
      }
    },
  );
});
