// The host checks against the oracle host, a conformant host that shares no code with the
// reference host or the suite: in every mode it holds every check, and nothing goes unjudged, so
// the rules carry no habit of the reference host.

import { describe, expect, it } from 'vitest';
import { checkHost } from '../../lib/decide/host-checks.ts';
import { readDiscovery } from '../../lib/observe/discovery.ts';
import { createHostClient } from '../../lib/observe/host-client.ts';
import { ORACLE_MODES, startOracleHost, type OracleMode } from '../support/oracle-host.ts';

const KEY = 'sk-oracle-host-checks-0001';

describe('host checks against the oracle host', () => {
  it.each([[[]], ...ORACLE_MODES.map((m) => [[m]]), [[...ORACLE_MODES]]] as OracleMode[][][])(
    'modes %j: every check holds, none unexercised',
    async (modes) => {
      const host = await startOracleHost({ apiKey: KEY, modes, throttleEvery: 0, jitterMs: 0 });
      const client = createHostClient({
        baseUrl: host.url,
        apiKey: KEY,
        requestTimeoutMs: 2_000,
        maxBodyBytes: 1024 * 1024,
      });
      try {
        const discovery = await readDiscovery(client);
        const checks = await checkHost({
          client,
          discovery,
          keyConfigured: true,
          knownRunId: `${host.tenant}/5f0c7d1e-2a43-4b8e-9c61-0d2f3e4a5b6c`,
          timeoutMs: 2_000,
        });
        expect(checks.findings.filter((f) => !f.ok)).toEqual([]);
        expect(checks.findings.length).toBeGreaterThanOrEqual(7);
        expect(checks.unexercised).toEqual([]);
      } finally {
        await client.close();
        await host.close();
      }
    },
  );
});
