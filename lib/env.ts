// The only reader of the environment. Every setting is validated here, once, and a bad one stops
// the suite with a one-line ConfigError saying what is wrong and what would be right (contract §10).

import { Refusal } from './refusal.ts';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { parse as parseDotenv } from 'dotenv';
import { holdsSecret, scrubText, unscrubbableSecret } from './secrets.ts';
import type { OptOutName } from './types.ts';
import { OPT_OUT_NAMES } from './types.ts';

/** Every deadline and limit the suite applies to a host. */
export interface Bounds {
  /** Deadline of one ordinary request, headers and body together. */
  readonly requestTimeoutMs: number;
  /** Deadline of one whole eval run: create, follow the log, read status and summary. */
  readonly runTimeoutMs: number;
  /** The long-poll `timeout` sent to the host, in seconds: the published `pollRunEvents` takes 1–60. */
  readonly pollTimeoutS: number;
  readonly maxBodyBytes: number;
  /** The longest Retry-After the suite will honour before asking again. */
  readonly retryAfterCapMs: number;
}

export const DEFAULT_BOUNDS: Bounds = {
  requestTimeoutMs: 10_000,
  runTimeoutMs: 120_000,
  pollTimeoutS: 10,
  maxBodyBytes: 16 * 1024 * 1024,
  retryAfterCapMs: 5_000,
};

export interface SuiteConfig {
  readonly baseUrl: string | undefined;
  readonly apiKey: string | undefined;
  readonly requireBehavior: boolean;
  readonly optedOut: readonly OptOutName[];
  readonly implementationName?: string;
  readonly implementationVersion?: string;
  readonly reportDir: string;
  readonly allowInsecureKey: boolean;
  readonly bounds: Bounds;
  /** The run budget: how long a whole run may take before what is unfinished is blocked. */
  readonly budgetMs: number;
}

/**
 * The default run budget. A strict run against a healthy host takes its hand legs' run time plus
 * the pack's; a pack of a thousand cases at five seconds a case, four at once, needs about 21
 * minutes. Thirty minutes bounds a host that finishes some runs and hangs others well inside a
 * CI job's limit; a larger pack is given `--budget` of its own.
 */
export const DEFAULT_BUDGET_MS = 30 * 60_000;

/** The largest budget accepted: a day, far below the largest delay a timer can hold. */
export const MAX_BUDGET_MS = 24 * 3_600_000;

export class ConfigError extends Refusal {
  override readonly name: string = 'ConfigError';
}

/** The variables the suite reads; a CLI may layer its flags over them under the same names. */
export const ENV_VARS = [
  'OPENWOP_BASE_URL',
  'OPENWOP_API_KEY',
  'OPENWOP_REQUIRE_BEHAVIOR',
  'OPENWOP_OPTED_OUT_PROFILES',
  'OPENWOP_IMPLEMENTATION_NAME',
  'OPENWOP_IMPLEMENTATION_VERSION',
  'OPENWOP_REPORT_DIR',
  'OPENWOP_ALLOW_INSECURE_KEY',
  'OPENWOP_REQUEST_TIMEOUT_MS',
  'OPENWOP_RUN_TIMEOUT_MS',
  'OPENWOP_POLL_TIMEOUT_S',
  'OPENWOP_MAX_BODY_BYTES',
  'OPENWOP_RETRY_AFTER_CAP_MS',
  'OPENWOP_BUDGET',
] as const;
export type EnvVar = (typeof ENV_VARS)[number];

/** Settings as strings, before validation. An empty or blank value counts as unset. */
export type RawSettings = Partial<Readonly<Record<EnvVar, string | undefined>>>;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads the environment and a `.env` file, then validates. Without `env`, the process environment
 * is read together with `./.env`; with an explicit `env`, no file is read unless `envFile` names
 * one, so a caller that passes its own variables gets exactly those.
 */
export function readConfig(env?: Env, options: { envFile?: string | false } = {}): SuiteConfig {
  return resolveConfig(readSettings(env, options));
}

/** The raw settings: `.env` first, then the real environment, which wins for any variable it sets. */
export function readSettings(env?: Env, options: { envFile?: string | false } = {}): RawSettings {
  const source: Env = env ?? process.env;
  const envFile = options.envFile ?? (env === undefined ? '.env' : false);
  const fromFile = envFile === false ? {} : readEnvFile(envFile);
  const out: Partial<Record<EnvVar, string>> = {};
  for (const name of ENV_VARS) {
    const value = source[name] ?? fromFile[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function readEnvFile(path: string): Readonly<Record<string, string>> {
  const full = resolve(path);
  if (!existsSync(full)) return {};
  // Required, and only when there is a file to parse: an ES import of this CommonJS package has
  // Node scan its source for exports on every start, a cost of every command, .env or not.
  const { parse } = createRequire(import.meta.url)('dotenv') as { parse: typeof parseDotenv };
  return parse(readFileSync(full));
}

/** Validates raw settings into a SuiteConfig. Pure: reads nothing but its argument. */
export function resolveConfig(raw: RawSettings): SuiteConfig {
  const apiKey = present(raw.OPENWOP_API_KEY);
  // No message below quotes the key on purpose; the redaction catches a key pasted into another
  // variable (a URL, a profile list), which would otherwise be echoed back.
  const fail = (message: string): never => {
    throw new ConfigError(scrubText(message, apiKey));
  };
  if (apiKey !== undefined) {
    const short = unscrubbableSecret(apiKey);
    if (short !== undefined) fail(short);
    // The key pasted into another setting would be sent or written where the key must not go.
    for (const [name, value] of Object.entries(raw)) {
      if (name !== 'OPENWOP_API_KEY' && value !== undefined && holdsSecret(value, apiKey)) {
        // `fail` scrubs the key out of the quoted value.
        fail(`${name} holds the API key (${value}); give the key only in OPENWOP_API_KEY`);
      }
    }
  }

  // A base URL given but empty is most often an unset CI variable; treating it as absent would
  // turn the run into one against the suite's own host, which is evidence about nothing.
  if (raw.OPENWOP_BASE_URL !== undefined && present(raw.OPENWOP_BASE_URL) === undefined) {
    fail(
      'OPENWOP_BASE_URL is set but empty (an unset CI variable?); give the host URL, or leave it out entirely to run the embedded reference host',
    );
  }
  const baseUrl = parseBaseUrl(present(raw.OPENWOP_BASE_URL), fail);
  const allowInsecureKey = parseBoolean(
    'OPENWOP_ALLOW_INSECURE_KEY',
    raw.OPENWOP_ALLOW_INSECURE_KEY,
    false,
    fail,
  );
  if (baseUrl !== undefined && apiKey !== undefined && !allowInsecureKey) {
    const url = new URL(baseUrl);
    if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
      fail(
        `OPENWOP_API_KEY would travel unencrypted to ${baseUrl}; use https, a loopback host, ` +
          'or set OPENWOP_ALLOW_INSECURE_KEY=true',
      );
    }
  }

  const implementationName = present(raw.OPENWOP_IMPLEMENTATION_NAME);
  const implementationVersion = present(raw.OPENWOP_IMPLEMENTATION_VERSION);
  return {
    baseUrl,
    apiKey,
    requireBehavior: parseBoolean(
      'OPENWOP_REQUIRE_BEHAVIOR',
      raw.OPENWOP_REQUIRE_BEHAVIOR,
      false,
      fail,
    ),
    optedOut: parseOptedOut(present(raw.OPENWOP_OPTED_OUT_PROFILES), fail),
    ...(implementationName === undefined ? {} : { implementationName }),
    ...(implementationVersion === undefined ? {} : { implementationVersion }),
    reportDir: present(raw.OPENWOP_REPORT_DIR) ?? 'reports',
    allowInsecureKey,
    bounds: {
      requestTimeoutMs: parseInteger(raw, 'OPENWOP_REQUEST_TIMEOUT_MS', 1, MAX_TIMER_MS, fail),
      runTimeoutMs: parseInteger(raw, 'OPENWOP_RUN_TIMEOUT_MS', 1, MAX_TIMER_MS, fail),
      pollTimeoutS: parseInteger(raw, 'OPENWOP_POLL_TIMEOUT_S', 1, 60, fail),
      maxBodyBytes: parseInteger(raw, 'OPENWOP_MAX_BODY_BYTES', 1, MAX_TIMER_MS, fail),
      retryAfterCapMs: parseInteger(raw, 'OPENWOP_RETRY_AFTER_CAP_MS', 1, MAX_TIMER_MS, fail),
    },
    budgetMs: parseBudget(present(raw.OPENWOP_BUDGET), fail),
  };
}

/**
 * A duration written as hours, minutes and seconds, each at most once and in that order: `90s`,
 * `5m`, `1h30m`. Nothing else is read as one (no bare number, no fraction, no spaces), so a typo
 * is refused rather than read as some other length of time.
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(?:(\d{1,5})h)?(?:(\d{1,5})m)?(?:(\d{1,7})s)?$/.exec(text);
  if (match === null || text === '') return undefined;
  const [, h = '0', m = '0', s = '0'] = match;
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1_000;
}

/** A duration as the fewest units that write it: `30m`, `1h30m`, `45s`, `0s`. */
export function formatDuration(ms: number): string {
  let left = Math.round(ms / 1000);
  let out = '';
  for (const [unit, size] of [
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(left / size);
    left -= n * size;
    if (n > 0) out += `${n}${unit}`;
  }
  return out === '' ? '0s' : out;
}

function parseBudget(value: string | undefined, fail: Fail): number {
  if (value === undefined) return DEFAULT_BUDGET_MS;
  const ms = parseDuration(value);
  if (ms === undefined || ms < 1_000 || ms > MAX_BUDGET_MS) {
    return fail(
      `OPENWOP_BUDGET must be a duration from 1s to 24h written as hours, minutes and seconds, such as 90s, 10m or 1h30m; got "${value}"`,
    );
  }
  return ms;
}

type Fail = (message: string) => never;

/**
 * The largest bound accepted. setTimeout fires at once for a delay above 2^31-1 ms, which would
 * silently turn a deadline into none.
 */
const MAX_TIMER_MS = 2_147_483_647;

const BOUND_DEFAULTS: Readonly<Record<string, number>> = {
  OPENWOP_REQUEST_TIMEOUT_MS: DEFAULT_BOUNDS.requestTimeoutMs,
  OPENWOP_RUN_TIMEOUT_MS: DEFAULT_BOUNDS.runTimeoutMs,
  OPENWOP_POLL_TIMEOUT_S: DEFAULT_BOUNDS.pollTimeoutS,
  OPENWOP_MAX_BODY_BYTES: DEFAULT_BOUNDS.maxBodyBytes,
  OPENWOP_RETRY_AFTER_CAP_MS: DEFAULT_BOUNDS.retryAfterCapMs,
};

function present(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function parseBaseUrl(value: string | undefined, fail: Fail): string | undefined {
  if (value === undefined) return undefined;
  const example = 'such as http://127.0.0.1:8080';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(`OPENWOP_BASE_URL must be an absolute http(s) URL ${example}; got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return fail(`OPENWOP_BASE_URL must be an absolute http(s) URL ${example}; got "${value}"`);
  }
  // The value is not quoted from here on: user info or a query may hold a secret.
  if (url.username !== '' || url.password !== '') {
    return fail('OPENWOP_BASE_URL must not carry credentials; put the key in OPENWOP_API_KEY');
  }
  if (value.includes('?') || value.includes('#')) {
    return fail(`OPENWOP_BASE_URL must have no query or fragment, ${example}`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function parseBoolean(
  name: EnvVar,
  raw: string | undefined,
  fallback: boolean,
  fail: Fail,
): boolean {
  const value = present(raw);
  if (value === undefined) return fallback;
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  return fail(`${name} must be true, false, 1 or 0; got "${value}"`);
}

function parseOptedOut(value: string | undefined, fail: Fail): readonly OptOutName[] {
  if (value === undefined) return [];
  const out: OptOutName[] = [];
  for (const entry of value.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const gate = OPT_OUT_NAMES.find((g) => g === entry);
    if (gate === undefined) {
      return fail(
        `OPENWOP_OPTED_OUT_PROFILES lists unknown name "${entry}"; valid names are ` +
          OPT_OUT_NAMES.join(', '),
      );
    }
    if (!out.includes(gate)) out.push(gate);
  }
  return out;
}

function parseInteger(
  raw: RawSettings,
  name: EnvVar,
  min: number,
  max: number,
  fail: Fail,
): number {
  const fallback = BOUND_DEFAULTS[name] ?? min;
  const value = present(raw[name]);
  if (value === undefined) return fallback;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    return fail(
      `${name} must be an integer from ${min} to ${max}, such as ${fallback}; got "${value}"`,
    );
  }
  return n;
}

/** The file a CI runner (GitHub Actions) asks a step summary to be appended to, when it names one. */
export function readStepSummaryPath(env?: Env): string | undefined {
  return present((env ?? process.env).GITHUB_STEP_SUMMARY);
}

/** Whether the run is a GitHub Actions step, which reads `::error` lines on stdout as annotations. */
export function readGithubActions(env?: Env): boolean {
  return (env ?? process.env).GITHUB_ACTIONS === 'true';
}

/** The file a CI runner (GitHub Actions) reads a step's outputs from, when it names one. */
export function readStepOutputPath(env?: Env): string | undefined {
  return present((env ?? process.env).GITHUB_OUTPUT);
}
