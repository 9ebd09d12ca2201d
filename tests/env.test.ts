// Configuration: every variable read, every bad value refused with its exact message, the key
// never echoed, `.env` layered under the real environment.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_BOUNDS,
  formatDuration,
  readConfig,
  resolveConfig,
} from '../lib/env.ts';

const KEY = 'sk-test-7f3a9c-do-not-echo';

function configError(settings: Readonly<Record<string, string>>): ConfigError {
  try {
    readConfig(settings, { envFile: false });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('readConfig', () => {
  it('with nothing set gives the defaults and no target', () => {
    const config = readConfig({}, { envFile: false });
    expect(config).toEqual({
      baseUrl: undefined,
      apiKey: undefined,
      requireBehavior: false,
      optedOut: [],
      reportDir: 'reports',
      allowInsecureKey: false,
      bounds: DEFAULT_BOUNDS,
      budgetMs: 30 * 60_000,
    });
    expect(DEFAULT_BOUNDS).toEqual({
      requestTimeoutMs: 10_000,
      runTimeoutMs: 120_000,
      pollTimeoutS: 10,
      maxBodyBytes: 16 * 1024 * 1024,
      retryAfterCapMs: 5_000,
    });
  });

  it('reads every variable', () => {
    const config = readConfig(
      {
        OPENWOP_BASE_URL: 'https://host.example.test/api//',
        OPENWOP_API_KEY: KEY,
        OPENWOP_REQUIRE_BEHAVIOR: '1',
        OPENWOP_OPTED_OUT_PROFILES:
          ' agents.evalSuite.trials , agents.evalSuite.trajectory,agents.evalSuite.trials',
        OPENWOP_IMPLEMENTATION_NAME: 'acme-host',
        OPENWOP_IMPLEMENTATION_VERSION: '3.2.0',
        OPENWOP_REPORT_DIR: 'out/reports',
        OPENWOP_ALLOW_INSECURE_KEY: 'false',
        OPENWOP_REQUEST_TIMEOUT_MS: '2500',
        OPENWOP_RUN_TIMEOUT_MS: '60000',
        OPENWOP_POLL_TIMEOUT_S: '60',
        OPENWOP_MAX_BODY_BYTES: '1024',
        OPENWOP_RETRY_AFTER_CAP_MS: '750',
        OPENWOP_BUDGET: '1h2m3s',
      },
      { envFile: false },
    );
    expect(config).toEqual({
      baseUrl: 'https://host.example.test/api',
      apiKey: KEY,
      requireBehavior: true,
      optedOut: ['agents.evalSuite.trials', 'agents.evalSuite.trajectory'],
      implementationName: 'acme-host',
      implementationVersion: '3.2.0',
      reportDir: 'out/reports',
      allowInsecureKey: false,
      bounds: {
        requestTimeoutMs: 2500,
        runTimeoutMs: 60_000,
        pollTimeoutS: 60,
        maxBodyBytes: 1024,
        retryAfterCapMs: 750,
      },
      budgetMs: 3_723_000,
    });
  });

  it('accepts true, false, 1 and 0 in any case for the booleans', () => {
    const read = (v: string): boolean =>
      readConfig({ OPENWOP_REQUIRE_BEHAVIOR: v }, { envFile: false }).requireBehavior;
    expect(['true', 'TRUE', '1', 'false', 'False', '0'].map(read)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('treats an empty value as unset', () => {
    const config = readConfig(
      { OPENWOP_REPORT_DIR: '  ', OPENWOP_RUN_TIMEOUT_MS: '' },
      { envFile: false },
    );
    expect(config.baseUrl).toBeUndefined();
    expect(config.reportDir).toBe('reports');
    expect(config.bounds.runTimeoutMs).toBe(120_000);
  });

  it.each([
    [
      'OPENWOP_BASE_URL',
      'foo',
      'OPENWOP_BASE_URL must be an absolute http(s) URL such as http://127.0.0.1:8080; got "foo"',
    ],
    [
      'OPENWOP_BASE_URL',
      'ftp://host.test',
      'OPENWOP_BASE_URL must be an absolute http(s) URL such as http://127.0.0.1:8080; got "ftp://host.test"',
    ],
    [
      'OPENWOP_BASE_URL',
      'http://host.test/?tenant=1',
      'OPENWOP_BASE_URL must have no query or fragment, such as http://127.0.0.1:8080',
    ],
    [
      'OPENWOP_BASE_URL',
      'http://host.test/#top',
      'OPENWOP_BASE_URL must have no query or fragment, such as http://127.0.0.1:8080',
    ],
    [
      'OPENWOP_BASE_URL',
      'https://user:hunter2@host.test',
      'OPENWOP_BASE_URL must not carry credentials; put the key in OPENWOP_API_KEY',
    ],
    [
      'OPENWOP_REQUIRE_BEHAVIOR',
      'yes',
      'OPENWOP_REQUIRE_BEHAVIOR must be true, false, 1 or 0; got "yes"',
    ],
    [
      'OPENWOP_ALLOW_INSECURE_KEY',
      'on',
      'OPENWOP_ALLOW_INSECURE_KEY must be true, false, 1 or 0; got "on"',
    ],
    [
      'OPENWOP_OPTED_OUT_PROFILES',
      'agents.evalSuite,trials',
      'OPENWOP_OPTED_OUT_PROFILES lists unknown name "trials"; valid names are agents.evalSuite, agents.evalSuite.trajectory, agents.evalSuite.trials, generated-pack',
    ],
    [
      'OPENWOP_REQUEST_TIMEOUT_MS',
      'abc',
      'OPENWOP_REQUEST_TIMEOUT_MS must be an integer from 1 to 2147483647, such as 10000; got "abc"',
    ],
    [
      'OPENWOP_RUN_TIMEOUT_MS',
      '0',
      'OPENWOP_RUN_TIMEOUT_MS must be an integer from 1 to 2147483647, such as 120000; got "0"',
    ],
    [
      'OPENWOP_POLL_TIMEOUT_S',
      '61',
      'OPENWOP_POLL_TIMEOUT_S must be an integer from 1 to 60, such as 10; got "61"',
    ],
    [
      'OPENWOP_POLL_TIMEOUT_S',
      '0',
      'OPENWOP_POLL_TIMEOUT_S must be an integer from 1 to 60, such as 10; got "0"',
    ],
    [
      'OPENWOP_MAX_BODY_BYTES',
      '1.5',
      'OPENWOP_MAX_BODY_BYTES must be an integer from 1 to 2147483647, such as 16777216; got "1.5"',
    ],
    [
      'OPENWOP_RETRY_AFTER_CAP_MS',
      '-5',
      'OPENWOP_RETRY_AFTER_CAP_MS must be an integer from 1 to 2147483647, such as 5000; got "-5"',
    ],
    [
      'OPENWOP_REQUEST_TIMEOUT_MS',
      '2147483648',
      'OPENWOP_REQUEST_TIMEOUT_MS must be an integer from 1 to 2147483647, such as 10000; got "2147483648"',
    ],
    ...['90', '1.5m', '5 m', '30s1m', '1m1m', '0s', '500ms', '25h', '-1m', 'PT5M'].map(
      (value): [string, string, string] => [
        'OPENWOP_BUDGET',
        value,
        `OPENWOP_BUDGET must be a duration from 1s to 24h written as hours, minutes and seconds, such as 90s, 10m or 1h30m; got "${value}"`,
      ],
    ),
  ])('%s=%j is refused with a one-line message', (name, value, message) => {
    const error = configError({ [name]: value, OPENWOP_API_KEY: KEY });
    expect(error.message).toBe(message);
    expect(error.message).not.toContain('\n');
  });

  it('never echoes the key, even when it was pasted into another variable', () => {
    const error = configError({ OPENWOP_API_KEY: KEY, OPENWOP_BASE_URL: KEY });
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain('[redacted]');
    const profiles = configError({ OPENWOP_API_KEY: KEY, OPENWOP_OPTED_OUT_PROFILES: KEY });
    expect(profiles.message).not.toContain(KEY);
  });
});

describe('the run budget', () => {
  it('reads hours, minutes and seconds in that order, and writes them back the same way', () => {
    const budget = (value: string): number =>
      readConfig({ OPENWOP_BUDGET: value }, { envFile: false }).budgetMs;
    expect(['1s', '90s', '5m', '1h30m', '2h5s', '24h'].map(budget)).toEqual([
      1_000, 90_000, 300_000, 5_400_000, 7_205_000, 86_400_000,
    ]);
    expect([1_000, 90_000, 300_000, 5_400_000, 7_205_000, 0].map(formatDuration)).toEqual([
      '1s',
      '1m30s',
      '5m',
      '1h30m',
      '2h5s',
      '0s',
    ]);
  });
});

describe('the key itself', () => {
  it('accepts a 12-character key, as upstream example hosts use, trimmed of surrounding space', () => {
    const config = resolveConfig({ OPENWOP_API_KEY: '  sample-token\n' });
    expect(config.apiKey).toBe('sample-token');
  });

  it.each([
    ['seven77', /^OPENWOP_API_KEY is 7 characters long; the suite needs at least 8, /],
    [
      'has space!',
      /^OPENWOP_API_KEY holds a space, a control character or a non-ASCII character; /,
    ],
    ['has\u007fdelete', /^OPENWOP_API_KEY holds a space, a control character /],
  ])('refuses %j in one line that does not quote it', (key, message) => {
    const error = configError({ OPENWOP_API_KEY: key });
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('\n');
    expect(error.message).not.toContain(key);
  });

  it('treats a key of only whitespace as no key', () => {
    expect(resolveConfig({ OPENWOP_API_KEY: ' \t ' }).apiKey).toBeUndefined();
  });
});

describe('the key over plain http', () => {
  it('is refused for a host that is not loopback', () => {
    const error = configError({ OPENWOP_BASE_URL: 'http://example.test', OPENWOP_API_KEY: KEY });
    expect(error.message).toBe(
      'OPENWOP_API_KEY would travel unencrypted to http://example.test; use https, a loopback host, or set OPENWOP_ALLOW_INSECURE_KEY=true',
    );
  });

  it.each([
    'http://127.0.0.1:8080',
    'http://[::1]:8080',
    'http://localhost:3000',
    'https://example.test',
  ])('is allowed for %s', (baseUrl) => {
    const config = readConfig(
      { OPENWOP_BASE_URL: baseUrl, OPENWOP_API_KEY: KEY },
      { envFile: false },
    );
    expect(config.baseUrl).toBe(baseUrl);
    expect(config.apiKey).toBe(KEY);
  });

  it('is allowed to a remote http host when OPENWOP_ALLOW_INSECURE_KEY is true', () => {
    const config = resolveConfig({
      OPENWOP_BASE_URL: 'http://example.test',
      OPENWOP_API_KEY: KEY,
      OPENWOP_ALLOW_INSECURE_KEY: 'true',
    });
    expect(config.allowInsecureKey).toBe(true);
    expect(config.baseUrl).toBe('http://example.test');
  });

  it('is not a concern without a key', () => {
    expect(resolveConfig({ OPENWOP_BASE_URL: 'http://example.test' }).baseUrl).toBe(
      'http://example.test',
    );
  });
});

describe('.env layering', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function envFile(text: string): string {
    dir = mkdtempSync(join(tmpdir(), 'openwop-env-'));
    const path = join(dir, '.env');
    writeFileSync(path, text);
    return path;
  }

  it('fills what the environment leaves unset and loses to what it sets', () => {
    const path = envFile(
      'OPENWOP_BASE_URL=http://127.0.0.1:9000\nOPENWOP_REPORT_DIR=from-file\nOPENWOP_POLL_TIMEOUT_S=3\n',
    );
    const config = readConfig({ OPENWOP_REPORT_DIR: 'from-env' }, { envFile: path });
    expect(config.baseUrl).toBe('http://127.0.0.1:9000');
    expect(config.reportDir).toBe('from-env');
    expect(config.bounds.pollTimeoutS).toBe(3);
  });

  it('an environment variable set to empty overrides the file and means unset', () => {
    const path = envFile('OPENWOP_REPORT_DIR=from-file\n');
    expect(readConfig({ OPENWOP_REPORT_DIR: '' }, { envFile: path }).reportDir).toBe('reports');
  });

  it.each(['', '   '])(
    'a base URL set but empty (%j) is refused, never read as the embedded host',
    (value) => {
      expect(() => readConfig({ OPENWOP_BASE_URL: value }, { envFile: false })).toThrow(
        /^OPENWOP_BASE_URL is set but empty \(an unset CI variable\?\); give the host URL/,
      );
    },
  );

  it('a missing file is no error', () => {
    dir = mkdtempSync(join(tmpdir(), 'openwop-env-'));
    expect(readConfig({}, { envFile: join(dir, 'absent.env') }).baseUrl).toBeUndefined();
  });

  it('a bad value in the file is refused like one in the environment', () => {
    const path = envFile('OPENWOP_RUN_TIMEOUT_MS=soon\n');
    expect(() => readConfig({}, { envFile: path })).toThrow(
      'OPENWOP_RUN_TIMEOUT_MS must be an integer from 1 to 2147483647, such as 120000; got "soon"',
    );
  });
});
