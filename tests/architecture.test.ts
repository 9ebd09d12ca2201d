// The walls of docs/architecture.md, checked on the source text: the suite and the reference host
// share no code, the witness does no I/O, the folders of lib/ depend only forwards along
// observe → judge → decide → report, lib/ has no import cycle, and only lib/env.ts reads the
// environment.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Every module specifier a file imports, statically or dynamically. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers: string[] = [];
  const pattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
  for (const match of text.matchAll(pattern)) if (match[1] !== undefined) specifiers.push(match[1]);
  return specifiers;
}

/** The specifiers a file imports or re-exports as values at load time: no type, no import(). */
function staticValueImportsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const pattern = /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+['"]([^'"]+)['"]/gms;
  return [...text.matchAll(pattern)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
}

function resolvesInto(file: string, specifier: string, folder: string): boolean {
  if (!specifier.startsWith('.')) return false;
  const target = relative(ROOT, join(ROOT, file, '..', specifier));
  return target === folder || target.startsWith(`${folder}/`);
}

const WITNESS_FILES = ['lib/eval-gate-witness.ts', ...sourceFiles('lib/witness')];

/**
 * The only modules the witness may reach: its own, the vocabulary, the schema validators and the
 * probe table, whose checks are the witness's and which runs nothing (held below).
 */
function witnessMayImport(file: string, specifier: string): boolean {
  if (!specifier.startsWith('.')) return false;
  const target = relative(ROOT, join(ROOT, file, '..', specifier));
  return (
    target.startsWith('lib/witness/') ||
    target === 'lib/types.ts' ||
    target === 'lib/schemas.ts' ||
    target === PROBE_TABLE
  );
}

/** The host checks' one table: the observer reads its requests, the witness its checks. */
const PROBE_TABLE = 'lib/host-probes.ts';

/** The stages of lib/, in the order the data flows; a stage may import only earlier ones. */
const STAGES = ['lib/observe', 'lib/witness', 'lib/decide', 'lib/report'] as const;

/** The stage a module belongs to; -1 for the shared ground (vocabulary, configuration, schemas). */
function stageOf(path: string): number {
  // The witness's entry point sits beside its folder because RFC 0246 names it by this path.
  if (path === 'lib/eval-gate-witness.ts') return STAGES.indexOf('lib/witness');
  return STAGES.findIndex((stage) => path.startsWith(`${stage}/`));
}

function resolved(file: string, specifier: string): string | undefined {
  return specifier.startsWith('.') ? relative(ROOT, join(ROOT, file, '..', specifier)) : undefined;
}

/** Whether an import from `from` to `to` points backwards along the flow of the stages. */
function pointsBackwards(from: string, to: string): boolean {
  return stageOf(from) >= 0 && stageOf(to) > stageOf(from);
}

/** Imports that point backwards along the flow, as `file -> target`. */
function backwardImports(files: readonly string[]): string[] {
  return files.flatMap((f) =>
    importsOf(f)
      .map((s) => resolved(f, s))
      .filter((t): t is string => t !== undefined && pointsBackwards(f, t))
      .map((t) => `${f} -> ${t}`),
  );
}

/** Each file's imports that resolve to another of `files`. */
function importEdges(files: readonly string[]): ReadonlyMap<string, readonly string[]> {
  return new Map(
    files.map((f) => [
      f,
      importsOf(f)
        .map((s) => resolved(f, s))
        .filter((t): t is string => t !== undefined && files.includes(t)),
    ]),
  );
}

/** One cycle of `edges`, as the modules on it, or undefined when there is none. */
function cycleIn(edges: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle !== undefined) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle !== undefined) return cycle;
  }
  return undefined;
}

describe('architecture walls', () => {
  it('each stage of lib/ imports only from the stages before it', () => {
    expect(backwardImports(sourceFiles('lib'))).toEqual([]);
  });

  it('cli/ and lib/ hold no cycle of static value imports', () => {
    // Test files share one module cache (isolate: false), so a cycle would leave a binding
    // undefined or not depending on which file imported first: a verdict racing load order.
    const files = [...sourceFiles('cli'), ...sourceFiles('lib')].filter(
      (f) => !f.startsWith('lib/generated/'),
    );
    const edges = new Map(
      files.map((f) => [
        f,
        staticValueImportsOf(f)
          .map((s) => resolved(f, s))
          .filter((t): t is string => t !== undefined && files.includes(t)),
      ]),
    );
    expect(cycleIn(edges)).toBe(undefined);
  });

  it('lib/ has no import cycle', () => {
    const files = sourceFiles('lib').filter((f) => !f.startsWith('lib/generated/'));
    expect(cycleIn(importEdges(files))).toBe(undefined);
  });

  it('the suite under lib/ imports nothing from reference-host/', () => {
    const crossings = sourceFiles('lib').flatMap((f) =>
      importsOf(f)
        .filter((s) => resolvesInto(f, s, 'reference-host'))
        .map((s) => `${f} -> ${s}`),
    );
    expect(crossings).toEqual([]);
  });

  it('the reference host imports nothing from lib/', () => {
    const crossings = sourceFiles('reference-host').flatMap((f) =>
      importsOf(f)
        .filter((s) => resolvesInto(f, s, 'lib'))
        .map((s) => `${f} -> ${s}`),
    );
    expect(crossings).toEqual([]);
  });

  it('the witness imports only its own modules, the vocabulary and the schemas', () => {
    const foreign = WITNESS_FILES.flatMap((f) =>
      importsOf(f)
        .filter((s) => !witnessMayImport(f, s))
        .map((s) => `${f} -> ${s}`),
    );
    expect(foreign).toEqual([]);
  });

  it('the suite reaches the witness through its one door, lib/eval-gate-witness.ts', () => {
    const around = ['lib', 'cli']
      .flatMap((d) => sourceFiles(d))
      .filter((f) => !WITNESS_FILES.includes(f))
      .flatMap((f) =>
        importsOf(f)
          .filter((s) => resolvesInto(f, s, 'lib/witness'))
          .map((s) => `${f} -> ${s}`),
      );
    expect(around).toEqual([]);
  });

  it('only lib/env.ts reads process.env', () => {
    const readers = ['lib', 'cli', 'tests']
      .flatMap((d) => sourceFiles(d))
      .filter((f) => f !== 'lib/env.ts' && f !== 'tests/architecture.test.ts')
      .filter((f) => /\bprocess\.env\b/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(readers).toEqual([]);
  });

  it('the probe table imports only types, so the witness reading it stays pure', () => {
    const text = readFileSync(join(ROOT, PROBE_TABLE), 'utf8');
    const imports = [...text.matchAll(/^import\b[^;]*;/gm)].map((m) => m[0]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((line) => !line.startsWith('import type '))).toEqual([]);
  });

  it("the observer sends the probe table's requests and never reads its checks", () => {
    const observe = sourceFiles('lib/observe').filter((f) =>
      importsOf(f).includes(`../host-probes.ts`),
    );
    expect(observe).toEqual(['lib/observe/probes.ts']);
    for (const f of observe) {
      expect(readFileSync(join(ROOT, f), 'utf8'), f).not.toMatch(/\.checks\b|\.holds\b/);
    }
  });

  it('the import scanner sees the imports it is meant to police', () => {
    // Guards the guard: if the pattern stopped matching, every wall above would pass vacuously.
    expect(importsOf('lib/decide/decide.ts')).toContain('../eval-gate-witness.ts');
    expect(
      importEdges(['lib/decide/run-leg.ts', 'lib/decide/decide-leg.ts']).get(
        'lib/decide/run-leg.ts',
      ),
    ).toContain('lib/decide/decide-leg.ts');
    expect(pointsBackwards('lib/observe/driver.ts', 'lib/report/report.ts')).toBe(true);
    expect(pointsBackwards('lib/report/report.ts', 'lib/observe/driver.ts')).toBe(false);
    expect(pointsBackwards('lib/types.ts', 'lib/decide/gates.ts')).toBe(false);
    expect(pointsBackwards('lib/observe/driver.ts', 'lib/eval-gate-witness.ts')).toBe(true);
    expect(
      cycleIn(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual(['a', 'b', 'c', 'a']);
    expect(
      cycleIn(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toBe(undefined);
    expect(WITNESS_FILES.length).toBeGreaterThan(1);
    expect(resolvesInto('lib/x.ts', '../reference-host/index.ts', 'reference-host')).toBe(true);
    expect(witnessMayImport('lib/eval-gate-witness.ts', './witness/rules.ts')).toBe(true);
    expect(witnessMayImport('lib/witness/tasks.ts', '../schemas.ts')).toBe(true);
    expect(witnessMayImport('lib/eval-gate-witness.ts', './host-client.ts')).toBe(false);
    expect(witnessMayImport('lib/witness/tasks.ts', '../env.ts')).toBe(false);
    expect(witnessMayImport('lib/witness/tasks.ts', 'node:http')).toBe(false);
  });
});

describe('one error type for a refused command', () => {
  it('every error class of the suite is a Refusal (exit 2), but the transport error that is never one', () => {
    const classes = [...sourceFiles('lib'), ...sourceFiles('cli')].flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/class (\w+) extends (\w+)/g)].map(
        (m) => `${m[1] ?? ''} extends ${m[2] ?? ''}`,
      ),
    );
    const errors = classes.filter((c) => /Error$|Refusal$/.test(c.split(' ')[0] ?? ''));
    expect(errors.filter((c) => !c.endsWith('extends Refusal')).sort()).toEqual([
      'Refusal extends Error',
      'TransportError extends Error',
    ]);
  });
});

/**
 * The rooms of lib/report/: verdict/ decides (the one verdict the report records), verify/ replays
 * and compares, render/ only renders. A room may not reach into the folders named here.
 */
const ROOM_WALLS: Readonly<Record<string, readonly string[]>> = {
  'lib/report/render': [
    'lib/report/verify',
    'lib/witness',
    'lib/eval-gate-witness.ts',
    'lib/decide',
  ],
  'lib/report/verdict': ['lib/report/render', 'lib/report/verify'],
  // What the page shows beyond the report is read, never decided: a generated case's findings
  // are the ones its run or verify's replay decided (DecidedCases), and no fixture is drawn.
  'lib/report/page-inputs.ts': [
    'lib/report/verify',
    'lib/decide/pack-replay.ts',
    'lib/decide/generated-leg.ts',
    'lib/decide/decide-leg.ts',
    'lib/decide/decide.ts',
    'lib/generate/pack.ts',
  ],
};

/** Each `file -> target` edge of `edges` that crosses a wall of ROOM_WALLS. */
function roomCrossings(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const inside = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);
  return [...edges].flatMap(([file, targets]) =>
    Object.entries(ROOM_WALLS)
      .filter(([room]) => inside(file, room))
      .flatMap(([, walls]) =>
        targets.filter((t) => walls.some((w) => inside(t, w))).map((t) => `${file} -> ${t}`),
      ),
  );
}

describe('the rooms of lib/report', () => {
  const edges = new Map(
    sourceFiles('lib/report').map((f) => [
      f,
      importsOf(f)
        .map((s) => resolved(f, s))
        .filter((t): t is string => t !== undefined),
    ]),
  );

  it("render/ and the page's inputs decide nothing, and verdict/ renders and replays nothing", () => {
    expect(roomCrossings(edges)).toEqual([]);
  });

  it('each room holds modules, and the wall check sees a crossing', () => {
    for (const room of ['verdict', 'verify', 'render']) {
      expect(sourceFiles(`lib/report/${room}`).length, room).toBeGreaterThan(1);
    }
    expect(
      roomCrossings(
        new Map([
          ['lib/report/render/badge.ts', ['lib/report/verify/replay.ts', 'lib/report/report.ts']],
          ['lib/report/verdict/lead.ts', ['lib/report/render/junit.ts']],
          ['lib/report/verify/replay.ts', ['lib/decide/decide.ts']],
          [
            'lib/report/page-inputs.ts',
            ['lib/decide/pack-replay.ts', 'lib/decide/sidecar-records.ts'],
          ],
        ]),
      ),
    ).toEqual([
      'lib/report/render/badge.ts -> lib/report/verify/replay.ts',
      'lib/report/verdict/lead.ts -> lib/report/render/junit.ts',
      'lib/report/page-inputs.ts -> lib/decide/pack-replay.ts',
    ]);
  });
});
