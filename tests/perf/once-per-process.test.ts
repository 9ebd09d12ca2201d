// Work a process must do only once, however many legs ask for it: reading discovery and
// compiling the JSON Schemas.

import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DISCOVERY_PATH, forgetDiscoveries } from '../../lib/discovery.ts';
import { readConfig } from '../../lib/env.ts';
import { SCHEMA_NAMES, validate } from '../../lib/schemas.ts';
import { openTarget } from '../../lib/target.ts';
import { sendJson, startScriptedServer } from '../support/scripted-server.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('once per process', () => {
  it('discovery is fetched once however many legs open the target', async () => {
    forgetDiscoveries();
    const server = await startScriptedServer((_req, res) =>
      sendJson(res, 200, { agents: { evalSuite: { modes: ['golden'] } }, fixtures: [] }),
    );
    try {
      const config = readConfig({ OPENWOP_BASE_URL: server.url }, { envFile: false });
      const targets = await Promise.all(Array.from({ length: 6 }, () => openTarget(config)));
      const again = await openTarget(config);
      for (const t of [...targets, again]) await t?.client.close();
      expect(targets.every((t) => t?.discovery.ok === true)).toBe(true);
      expect(server.requests.filter((r) => r.path === DISCOVERY_PATH)).toHaveLength(1);
    } finally {
      await server.close();
      forgetDiscoveries();
    }
  });

  it('once every schema has been used, validating again compiles and registers nothing', () => {
    const getSchema = vi.spyOn(Ajv2020.prototype, 'getSchema');
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    const addSchema = vi.spyOn(Ajv2020.prototype, 'addSchema');
    for (const name of SCHEMA_NAMES) validate(name, {});
    const firstPass = getSchema.mock.calls.length;
    expect(firstPass).toBeGreaterThan(0);

    getSchema.mockClear();
    compile.mockClear();
    addSchema.mockClear();
    for (let i = 0; i < 20; i += 1) for (const name of SCHEMA_NAMES) validate(name, { i });
    expect(getSchema).not.toHaveBeenCalled();
    expect(compile).not.toHaveBeenCalled();
    expect(addSchema).not.toHaveBeenCalled();
  });
});
