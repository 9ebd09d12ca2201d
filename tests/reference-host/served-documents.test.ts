// Issue 9, "Done when": a full conformance run against the reference host, on both variants,
// with every document the host served captured at the HTTP layer and held against the published
// v2 structures. The run also asks what the suite never asks (bad ids, an unlisted version, no
// key, a host without the capability), so every error body the host can give is held too.

import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { LEGS } from '../../lib/legs.ts';
import {
  startReferenceHost,
  type DefectName,
  type ReferenceHost,
} from '../../reference-host/index.ts';
import {
  checkServedDocuments,
  recordingFetch,
  type Exchange,
  SERVED_BY_EVERY_RUN,
} from '../support/served-documents.ts';
import { runEveryLeg } from '../support/run-every-leg.ts';
import { runRequest } from './harness.ts';

const hosts: ReferenceHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function host(options: Parameters<typeof startReferenceHost>[0]): Promise<ReferenceHost> {
  const h = await startReferenceHost(options);
  hosts.push(h);
  return h;
}

/** What the suite never sends: each answer is an error body the host must shape right. */
async function probeErrors(url: string, apiKey: string, exchanges: Exchange[]): Promise<void> {
  const send = recordingFetch(url, exchanges);
  const auth = { authorization: `Bearer ${apiKey}`, 'openwop-version': '2.0' };
  const post = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const run = runRequest('conformance-eval-trajectory-gate');
  await send('/runs/no-such-run', { headers: auth });
  await send('/runs/reference~zz', { headers: auth });
  await send('/runs/no-such-run/events/poll?afterSequence=-1', { headers: auth });
  await send('/runs', post({ mode: 'chat' }));
  await send('/runs', post({ ...run, evalSuiteRef: 'x.evals.y@1.0.0' }));
  await send('/runs', { ...post(run), body: '{not json' });
  await send('/runs/no-such-run', { headers: { 'openwop-version': '2.0' } });
  await send('/runs/no-such-run', { headers: { ...auth, 'openwop-version': '3.0' } });
}

describe('every document the reference host serves holds against the published v2 structures', () => {
  for (const variant of ['plain', 'varied'] as const) {
    it(`${variant}: a full conformance run, its error probes, and a host without the capability`, async () => {
      const apiKey = randomBytes(18).toString('base64url');
      const exchanges: Exchange[] = [];
      const h = await host({ apiKey, variant });
      const outcomes = await runEveryLeg(h.url, apiKey, 1, exchanges);
      expect(outcomes.map((o) => [o.requirement, o.disposition])).toEqual(
        LEGS.map((l) => [l.id, 'executed-pass']),
      );
      await probeErrors(h.url, apiKey, exchanges);
      const refusing = await host({ apiKey, variant, defect: 'withhold-eval-suite' });
      const send = recordingFetch(refusing.url, exchanges);
      await send('/.well-known/openwop', { headers: { 'openwop-version': '2.0' } });
      const refused = await send('/runs', {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(runRequest('conformance-eval-trajectory-gate')),
      });
      expect(refused.status).toBe(422);

      const check = checkServedDocuments(exchanges);
      expect(check.problems).toEqual([]);
      expect(check.unclassified).toEqual([]);
      expect(SERVED_BY_EVERY_RUN.filter((s) => (check.counts[s] ?? 0) === 0)).toEqual([]);
    });
  }

  // The checker itself must be able to fail: each wire defect is one document it must reject.
  const suiteGated = LEGS.filter((l) => l.fixtureId === 'conformance-eval-trajectory-gate');
  const caughtAs: readonly [DefectName, RegExp][] = [
    ['error-body-dialect', /eval-summary 409: error-envelope#/],
    ['event-id-short', /events\[0\]: run-event#\/eventId/],
    ['create-answer-no-events-url', /POST \/runs 201: create-run-answer#/],
    ['poll-page-extra-member', /poll 200: poll-response#/],
    ['version-header-missing', /OpenWOP-Version is undefined/],
  ];
  for (const [defect, problem] of caughtAs) {
    it(`rejects what the ${defect} host serves`, async () => {
      const apiKey = randomBytes(18).toString('base64url');
      const exchanges: Exchange[] = [];
      const h = await host({ apiKey, defect });
      await runEveryLeg(h.url, apiKey, 1, exchanges, suiteGated);
      const { problems } = checkServedDocuments(exchanges);
      expect(
        problems.some((p) => problem.test(p)),
        problems.join('\n'),
      ).toBe(true);
    });
  }
});
