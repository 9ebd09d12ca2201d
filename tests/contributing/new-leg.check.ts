// The contributing guide's lists of the files a new leg and a new host check touch, held by doing
// it: in a copy of the repository (its files, with node_modules linked), a leg and a probe are
// added to `LEGS` and `HOST_PROBES` and the compiler must ask for the leg's column in the matrix and
// nothing else; then its fixture and its column are written, `npm run docs:generate` runs, the
// column compiles, and the tests the guide names pass, in both lanes, with exactly the files the
// guide lists changed. It is `npm run test:contributing`, outside `npm test` for its cost (about a
// minute and a half); tests/docs/contributing-lists.test.ts holds the lists cheaply there. The rest
// of the suite derives from the same two tables and runs in `npm test`; this check runs only what
// the guide tells a contributor to run, on one worker.

import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../cli/support.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GUIDE = 'docs/contributing.md';
/** The leg's column, the one file the compiler asks for. */
const COLUMN = 'tests/matrix/expected.ts';

const SLUG = 'added-later';
const FIXTURE_ID = `conformance-eval-trajectory-${SLUG}`;
/** The leg the dummy copies: its fixture, gates and needs, and so its verdict in every row. */
const TEMPLATE_FIXTURE = 'conformance-eval-trajectory-gate-control';

/** The files of the repository a contributor has: tracked or new, not ignored, still present. */
function repositoryFiles(): string[] {
  const listed = spawnSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  return listed.stdout.split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f)));
}

/** The files listed under a marker comment of the guide: `1. \`path\`` or `- \`path\``. */
function listedUnder(marker: string): string[] {
  const lines = readFileSync(join(ROOT, GUIDE), 'utf8').split('\n');
  const start = lines.indexOf(`<!-- ${marker} -->`);
  if (start === -1) throw new Error(`${GUIDE} has no "<!-- ${marker} -->"`);
  const files: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' && files.length === 0) continue;
    const item = /^(?:\d+\.|-) `([^`]+)`/.exec(line);
    if (item?.[1] === undefined) break;
    files.push(item[1].replace('<fixture id>', FIXTURE_ID));
  }
  return files;
}

let copy = '';

function run(command: string, args: readonly string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, args.length === 0 ? [command] : [command, ...args], {
    cwd: copy,
    encoding: 'utf8',
    // A bound, not a pace: a cold compile of the whole copy took 229 s beside six other test runs.
    timeout: 600_000,
    env: { ...isolatedEnv(), FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const tsc = (): { status: number | null; output: string } =>
  run('node_modules/typescript/bin/tsc', ['--noEmit']);
const docsGenerate = () => run('node_modules/tsx/dist/cli.mjs', ['tests/docs/write-tables.ts']);

/**
 * The column alone compiled: tsc has already passed every other file with the new entries, and the
 * column adds keys to values whose types are annotated, so no importer of it can change.
 */
function columnCompiles(): { status: number | null; output: string } {
  const config = join(copy, '.tsconfig.column.json');
  writeFileSync(
    config,
    JSON.stringify({ extends: './tsconfig.json', include: [], files: [COLUMN] }),
  );
  try {
    return run('node_modules/typescript/bin/tsc', ['-p', config]);
  } finally {
    rmSync(config);
  }
}

/** The files changed in the copy since it was made: modified or new, and not ignored (dist/). */
function changedFiles(): string[] {
  const git = (...args: string[]): string[] => {
    const listed = spawnSync('git', [...args, '-z'], { cwd: copy, encoding: 'utf8' });
    if (listed.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${listed.stderr}`);
    return listed.stdout.split('\0').filter((f) => f !== '');
  };
  return [
    ...git('diff', '--name-only'),
    ...git('ls-files', '--others', '--exclude-standard'),
  ].sort();
}

/** The files a `tsc` output names an error in. */
const erring = (output: string): string[] =>
  [...new Set([...output.matchAll(/^(\S+?)\(\d+,\d+\): error/gm)].map((m) => m[1] ?? ''))].sort();

function edit(path: string, change: (text: string) => string): void {
  const text = readFileSync(join(copy, path), 'utf8');
  const changed = change(text);
  if (changed === text) throw new Error(`the edit of ${path} found nothing to change`);
  writeFileSync(join(copy, path), changed);
}

/** `text` with `insert` put before the one occurrence of `anchor`. */
function before1(text: string, anchor: string, insert: string): string {
  const at = text.indexOf(anchor);
  if (at === -1 || text.indexOf(anchor, at + 1) !== -1) {
    throw new Error(`the anchor ${JSON.stringify(anchor)} is not found exactly once`);
  }
  return `${text.slice(0, at)}${insert}${text.slice(at)}`;
}

function addLeg(): void {
  edit('lib/legs.ts', (text) =>
    before1(
      text,
      '\n] as const satisfies readonly LegDefinition[];',
      `
  {
    id: \`\${REQUIREMENT_PREFIX}${SLUG}\`,
    title: 'a leg another branch adds passes as the control does',
    fixtureId: '${FIXTURE_ID}',
    needs: { taskCount: 2, trialCount: 1, matchModes: [] },
    gates: ['agents.evalSuite'],
    ref: 'RFC 0246 §D',
  },`,
    ),
  );
}

function addFixture(): void {
  const template = JSON.parse(
    readFileSync(join(copy, 'fixtures', `${TEMPLATE_FIXTURE}.json`), 'utf8'),
  ) as { id: string; requirement: string; suite: { suiteId: string } };
  template.id = FIXTURE_ID;
  template.requirement = `openwop.requirement.0246.${SLUG}`;
  template.suite.suiteId = `conformance.evals.${SLUG}`;
  writeFileSync(
    join(copy, 'fixtures', `${FIXTURE_ID}.json`),
    `${JSON.stringify(template, null, 2)}\n`,
  );
}

/**
 * The leg's column: the control's verdict wherever the compiler asks, which is `leg` in
 * `everyHostLeg` and PASS in each row written out leg by leg, each at the control's own key.
 */
function addColumn(): void {
  edit(COLUMN, (text) =>
    text
      .replace(
        "  'no-trajectory-ungated': leg,\n",
        `  'no-trajectory-ungated': leg,\n  '${SLUG}': leg,\n`,
      )
      .replaceAll(
        "    'no-trajectory-ungated': PASS,\n    'mean-partial-inclusive'",
        `    'no-trajectory-ungated': PASS,\n    '${SLUG}': PASS,\n    'mean-partial-inclusive'`,
      ),
  );
}

function addProbe(): void {
  edit('lib/host-probes.ts', (text) =>
    before1(
      text,
      '\n] as const satisfies readonly HostProbe[];',
      `
  {
    name: 'added-later',
    request: { send: 'create', credential: { send: 'key' } },
    checks: [
      {
        rule: rule(
          'wire.added-later',
          'SHOULD',
          'contract §6',
          'a create naming an eval suite the host does not have is not served',
        ),
        what: 'a create naming an eval suite the host does not have',
        expected: 'a 4xx',
        holds: (status: number) => status >= 400 && status <= 499,
      },
    ],
  },`,
    ),
  );
}

beforeAll(() => {
  copy = join(mkdtempSync(join(tmpdir(), 'openwop-new-leg-')), 'repo');
  for (const file of repositoryFiles()) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  // The docs tests read the tracked files from git's index; `git add` runs no hook. The linked
  // node_modules is no folder to git, so its ignore rule is stated for the link.
  const git = (...args: string[]): void => {
    const result = spawnSync('git', args, { cwd: copy, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  };
  git('init', '-q');
  writeFileSync(join(copy, '.git', 'info', 'exclude'), '/node_modules\n');
  git('add', '-A');
});

afterAll(() => {
  if (copy !== '') rmSync(join(copy, '..'), { recursive: true, force: true });
});

describe('adding a leg and a host check, as the contributing guide lists them', () => {
  it('asks, then needs, exactly the files the guide lists', { timeout: 1_500_000 }, () => {
    const declared = [
      ...listedUnder('the files a new leg is written in'),
      ...listedUnder('the files npm run docs:generate rewrites for a new leg'),
      ...listedUnder('the files a new host check is written in'),
      ...listedUnder('the files npm run docs:generate rewrites for a new host check'),
    ];
    expect(declared).toContain('lib/legs.ts');
    expect(declared).toContain('lib/host-probes.ts');
    const tests = listedUnder('the tests that hold a new leg and a new host check');
    expect(tests.filter((t) => !existsSync(join(ROOT, t)))).toEqual([]);

    // The entries alone: the compiler asks for the leg's column in the matrix, and for nothing else.
    addLeg();
    addProbe();
    const asked = tsc();
    expect(asked.status, asked.output).not.toBe(0);
    expect(erring(asked.output), asked.output).toEqual([COLUMN]);

    addFixture();
    addColumn();
    const generated = docsGenerate();
    expect(generated.status, generated.output).toBe(0);
    const compiled = columnCompiles();
    expect(compiled.status, compiled.output).toBe(0);

    const lanes = run('node_modules/vitest/vitest.mjs', [
      'run',
      '--project',
      'unit',
      '--project',
      'e2e',
      '--maxWorkers',
      '1',
      ...tests,
    ]);
    const failed = lanes.output.split('\n').filter((l) => /^\s*(FAIL|×)/.test(l));
    expect(lanes.status, [...failed, lanes.output.slice(-3000)].join('\n')).toBe(0);
    // Both lanes ran, and every test the guide names: the guide's tests are no single lane's.
    for (const lane of ['unit', 'e2e'])
      expect(lanes.output).toMatch(new RegExp(`[\\s|]${lane}[\\s|]`));
    expect(tests.filter((t) => !lanes.output.includes(t))).toEqual([]);

    expect(changedFiles()).toEqual([...new Set(declared)].sort());
  });
});
