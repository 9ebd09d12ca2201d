// Work a process must do at most once, however many legs ask for it: reading discovery once (the
// pre-flight's read, handed to every leg), and compiling the JSON Schemas never (they are compiled
// ahead of time).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DISCOVERY_PATH } from '../../lib/observe/discovery.ts';
import { readConfig } from '../../lib/env.ts';
import { SCHEMA_NAMES, validate } from '../../lib/schemas.ts';
import { openTarget } from '../../lib/decide/target.ts';
import { sendJson, startScriptedServer } from '../support/scripted-server.ts';
import { MEAN_LEG, startHostileHost } from '../support/hostile-host.ts';
import { runConformance } from '../../cli/conformance.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('once per process', () => {
  it('a target opened with the discovery the pre-flight read asks the host nothing more', async () => {
    const server = await startScriptedServer((_req, res) =>
      sendJson(res, 200, { agents: { evalSuite: { modes: ['golden'] } }, fixtures: [] }),
    );
    try {
      const config = readConfig({ OPENWOP_BASE_URL: server.url }, { envFile: false });
      const first = await openTarget(config);
      const handed = await openTarget(config, first?.discovery);
      for (const t of [first, handed]) await t?.client.close();
      expect(handed?.discovery).toBe(first?.discovery);
      expect(server.requests.filter((r) => r.path === DISCOVERY_PATH)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('a whole conformance run reads discovery once, and the legs decide from that very read', async () => {
    const host = await startHostileHost();
    const reportDir = await mkdtemp(join(tmpdir(), 'once-'));
    try {
      const config = readConfig(
        {
          OPENWOP_BASE_URL: host.url,
          OPENWOP_API_KEY: 'once-per-run-key',
          OPENWOP_REPORT_DIR: reportDir,
        },
        { envFile: false },
      );
      const result = await runConformance(config, { log: () => undefined });
      const mean = result.report?.requirements.find((r) => r.id === MEAN_LEG.id);
      expect(mean?.disposition).toBe('executed-pass');
      expect(host.calls('discovery')).toBe(1);
    } finally {
      await host.close();
      await rm(reportDir, { recursive: true, force: true });
    }
  });

  it('validating any schema, any number of times, compiles and registers nothing', () => {
    // The validators are compiled ahead of time (lib/generated/), so a run never builds Ajv.
    const getSchema = vi.spyOn(Ajv2020.prototype, 'getSchema');
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    const addSchema = vi.spyOn(Ajv2020.prototype, 'addSchema');
    let rejected = 0;
    for (let i = 0; i < 20; i += 1) {
      for (const name of SCHEMA_NAMES) rejected += validate(name, { i }).length > 0 ? 1 : 0;
    }
    expect(rejected).toBe(20 * SCHEMA_NAMES.length);
    expect(getSchema).not.toHaveBeenCalled();
    expect(compile).not.toHaveBeenCalled();
    expect(addSchema).not.toHaveBeenCalled();
  });
});
