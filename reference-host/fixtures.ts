// Seeding: read every fixture file in a directory and keep the ones whose shape the host can run.
// The host's own reading of contract §3, written independently of the suite's types.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type JsonValue =
  null | boolean | number | string | readonly JsonValue[] | { readonly [k: string]: JsonValue };
export type JsonObject = { readonly [k: string]: JsonValue };

export interface HostCall {
  readonly tool: string;
  readonly args?: JsonValue;
}

export interface HostTrajectory {
  readonly match: string;
  readonly calls: readonly HostCall[];
  readonly forbidden: readonly string[];
}

export interface HostTask {
  readonly taskId: string;
  readonly match: string;
  readonly value: JsonValue;
  readonly trajectory?: HostTrajectory;
  /** Canned answers by tool name; absent when the task records none (nothing can miss). */
  readonly toolResponses?: JsonObject;
}

export interface HostSuite {
  readonly suiteId: string;
  readonly version: string;
  readonly modes: readonly string[];
  readonly passScore: number;
  readonly maxCostUsd?: number;
  readonly maxP95LatencyMs?: number;
  readonly trials?: { readonly count: number; readonly passRule: string };
  readonly tasks: readonly HostTask[];
}

export interface HostScriptEntry {
  readonly calls: readonly HostCall[];
  readonly output: JsonValue;
  /** The trial's cost and latency as the script states them; the host reports these. */
  readonly costUsd?: number;
  readonly latencyMs?: number;
}

export interface SeededFixture {
  readonly id: string;
  readonly agentId: string;
  readonly suite: HostSuite;
  readonly script: { readonly [taskId: string]: readonly HostScriptEntry[] };
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown, where: string): string {
  if (typeof v !== 'string' || v === '') throw new Error(`${where} must be a non-empty string`);
  return v;
}

function obj(v: unknown, where: string): JsonObject {
  if (!isObject(v)) throw new Error(`${where} must be an object`);
  return v;
}

function arr(v: unknown, where: string): readonly JsonValue[] {
  if (!Array.isArray(v)) throw new Error(`${where} must be an array`);
  return v as readonly JsonValue[];
}

function readCall(v: unknown, where: string): HostCall {
  const o = obj(v, where);
  const tool = str(o['tool'], `${where}.tool`);
  return o['args'] === undefined ? { tool } : { tool, args: o['args'] };
}

function readTrajectory(v: unknown, where: string): HostTrajectory {
  const o = obj(v, where);
  return {
    match: str(o['match'], `${where}.match`),
    calls: arr(o['calls'], `${where}.calls`).map((c, i) => readCall(c, `${where}.calls[${i}]`)),
    forbidden: arr(o['forbidden'] ?? [], `${where}.forbidden`).map((f, i) =>
      str(f, `${where}.forbidden[${i}]`),
    ),
  };
}

/**
 * The recorded answers as the host keeps them, keyed by tool. In the file they are a list
 * (contract §3): the first entry for a tool answers it, and one without `response` answers null.
 */
function readToolResponses(v: unknown, where: string): JsonObject {
  const byTool = new Map<string, JsonValue>();
  arr(v, where).forEach((e, i) => {
    const entry = obj(e, `${where}[${i}]`);
    const tool = str(entry['tool'], `${where}[${i}].tool`);
    if (!byTool.has(tool)) byTool.set(tool, entry['response'] ?? null);
  });
  // fromEntries defines own properties, so a tool named like a prototype member stays a key.
  return Object.fromEntries(byTool);
}

function readTask(v: unknown, where: string): HostTask {
  const o = obj(v, where);
  const expected = obj(o['expected'], `${where}.expected`);
  // The scripted agent's runs are graded by golden match; a task without one cannot be run.
  if (expected['kind'] !== 'golden') throw new Error(`${where}.expected.kind must be "golden"`);
  const golden = obj(expected['match'], `${where}.expected.match`);
  const base = {
    taskId: str(o['taskId'], `${where}.taskId`),
    match: str(golden['strategy'], `${where}.expected.match.strategy`),
    value: golden['value'] ?? null,
  };
  const t = expected['trajectory'];
  const trajectory = t === undefined ? undefined : readTrajectory(t, `${where}.trajectory`);
  const f = o['fixtures'];
  const recorded = f === undefined ? undefined : obj(f, `${where}.fixtures`)['toolResponses'];
  // Only a task that records tool answers can miss one (RFC 0244 §D as contract §4 reads it).
  const toolResponses =
    recorded === undefined
      ? undefined
      : readToolResponses(recorded, `${where}.fixtures.toolResponses`);
  return {
    ...base,
    ...(trajectory === undefined ? {} : { trajectory }),
    ...(toolResponses === undefined ? {} : { toolResponses }),
  };
}

function readSuite(v: unknown): HostSuite {
  const o = obj(v, 'suite');
  const thresholds = obj(o['thresholds'], 'suite.thresholds');
  const passScore = thresholds['passScore'];
  if (typeof passScore !== 'number') throw new Error('suite.thresholds.passScore must be a number');
  const maxCost = thresholds['maxCostUsd'];
  const maxP95 = thresholds['maxP95LatencyMs'];
  const tr = o['trials'];
  let trials: HostSuite['trials'];
  if (tr !== undefined) {
    const t = obj(tr, 'suite.trials');
    const count = t['count'];
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 100) {
      throw new Error('suite.trials.count must be an integer in 1..100');
    }
    trials = { count, passRule: str(t['passRule'], 'suite.trials.passRule') };
  }
  return {
    suiteId: str(o['suiteId'], 'suite.suiteId'),
    version: str(o['version'], 'suite.version'),
    modes: arr(o['modes'] ?? ['golden'], 'suite.modes').map((m, i) => str(m, `modes[${i}]`)),
    passScore,
    ...(typeof maxCost === 'number' ? { maxCostUsd: maxCost } : {}),
    ...(typeof maxP95 === 'number' ? { maxP95LatencyMs: maxP95 } : {}),
    ...(trials === undefined ? {} : { trials }),
    tasks: arr(o['tasks'], 'suite.tasks').map((t, i) => readTask(t, `suite.tasks[${i}]`)),
  };
}

/** Reads one parsed fixture document; throws with the offending path when it cannot be run. */
export function readFixture(doc: unknown): SeededFixture {
  const o = obj(doc, 'fixture');
  const scriptDoc = obj(o['script'], 'script');
  const script: Record<string, readonly HostScriptEntry[]> = {};
  for (const [taskId, entries] of Object.entries(scriptDoc)) {
    script[taskId] = arr(entries, `script.${taskId}`).map((e, i) => {
      const entry = obj(e, `script.${taskId}[${i}]`);
      const cost = entry['costUsd'];
      const latency = entry['latencyMs'];
      return {
        calls: arr(entry['calls'] ?? [], `script.${taskId}[${i}].calls`).map((c, j) =>
          readCall(c, `script.${taskId}[${i}].calls[${j}]`),
        ),
        output: entry['output'] ?? null,
        ...(typeof cost === 'number' ? { costUsd: cost } : {}),
        ...(typeof latency === 'number' ? { latencyMs: latency } : {}),
      };
    });
  }
  return {
    id: str(o['id'], 'id'),
    agentId: str(o['agentId'], 'agentId'),
    suite: readSuite(o['suite']),
    script,
  };
}

/** The manifest `fixtures --out` writes beside the fixtures: a list of them, not one. */
const MANIFEST = 'fixtures.manifest.json';

/**
 * Seeds every `*.json` file in `dir` but the manifest. A file that cannot be read, parsed or run
 * is skipped with one warning, so one bad fixture never keeps the host from serving the others.
 */
export function seedFixtures(dir: string, warn: (line: string) => void): SeededFixture[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && n !== MANIFEST);
  } catch (err) {
    warn(`reference host: cannot read fixtures directory ${dir}: ${(err as Error).message}`);
    return [];
  }
  const seeded: SeededFixture[] = [];
  for (const name of names.sort()) {
    try {
      seeded.push(readFixture(JSON.parse(readFileSync(join(dir, name), 'utf8'))));
    } catch (err) {
      warn(`reference host: skipped fixture ${name}: ${(err as Error).message}`);
    }
  }
  return seeded;
}
