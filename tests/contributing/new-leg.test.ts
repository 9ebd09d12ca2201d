// The contributing guide's lists of the files a new leg and a new host check touch, held by doing
// it: in a copy of the repository (its files, with node_modules linked), a leg is added to `LEGS`
// and the compiler must ask for its column in the matrix and nothing else; then its fixture and
// its column are written, a probe object is added to the probe table, `npm run docs:generate`
// runs, and `tsc` and the unit lane must pass with exactly the files the guide lists changed.

import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../cli/support.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GUIDE = 'docs/contributing.md';

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

/** Every file under `dir` but the linked node_modules, by its path relative to `dir`. */
function filesUnder(dir: string, at = dir): string[] {
  return readdirSync(at, { withFileTypes: true }).flatMap((entry) => {
    const path = join(at, entry.name);
    if (entry.name === 'node_modules') return [];
    return entry.isDirectory() ? filesUnder(dir, path) : [relative(dir, path)];
  });
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
let before: ReadonlyMap<string, string> = new Map();

function run(command: string, args: readonly string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, args.length === 0 ? [command] : [command, ...args], {
    cwd: copy,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...isolatedEnv(), FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const tsc = (): { status: number | null; output: string } =>
  run('node_modules/typescript/bin/tsc', [
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    join(copy, '..', 'tsbuildinfo'),
  ]);
const docsGenerate = () => run('node_modules/tsx/dist/cli.mjs', ['tests/docs/write-tables.ts']);

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
  edit('tests/matrix/expected.ts', (text) =>
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
  const contents = new Map<string, string>();
  for (const file of repositoryFiles()) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(copy, file));
    contents.set(file, readFileSync(join(ROOT, file), 'latin1'));
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
  before = contents;
});

afterAll(() => {
  if (copy !== '') rmSync(join(copy, '..'), { recursive: true, force: true });
});

describe('adding a leg and a host check, as the contributing guide lists them', () => {
  it('asks, then needs, exactly the files the guide lists', { timeout: 600_000 }, () => {
    const declared = [
      ...listedUnder('the files a new leg is written in'),
      ...listedUnder('the files npm run docs:generate rewrites for a new leg'),
      ...listedUnder('the files a new host check is written in'),
      ...listedUnder('the files npm run docs:generate rewrites for a new host check'),
    ];
    expect(declared).toContain('lib/legs.ts');
    expect(declared).toContain('lib/host-probes.ts');

    // The entry alone: the compiler asks for the leg's column in the matrix, and for nothing else.
    addLeg();
    const asked = tsc();
    expect(asked.status, asked.output).not.toBe(0);
    expect(erring(asked.output), asked.output).toEqual(['tests/matrix/expected.ts']);

    addFixture();
    addColumn();
    addProbe();
    const generated = docsGenerate();
    expect(generated.status, generated.output).toBe(0);

    const built = tsc();
    expect(built.status, built.output).toBe(0);
    // Left out: the legacy reports, which verify (cli/verify.ts) refuses once LEGS holds a leg
    // they have no row for; a report written before a leg existed is its to judge, not a file
    // a new leg should edit.
    const unit = run('node_modules/vitest/vitest.mjs', [
      'run',
      '--project',
      'unit',
      '--exclude',
      'tests/report/legacy.test.ts',
    ]);
    const failed = unit.output.split('\n').filter((l) => /^\s*(FAIL|×)/.test(l));
    expect(unit.status, [...failed, unit.output.slice(-3000)].join('\n')).toBe(0);

    const changed = filesUnder(copy)
      .filter((f) => !f.startsWith('.git/'))
      .filter((f) => readFileSync(join(copy, f), 'latin1') !== before.get(f))
      .sort();
    expect(changed).toEqual([...new Set(declared)].sort());
  });
});
