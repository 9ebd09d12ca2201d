// `--version`, `list`, the help and the README: the version comes from package.json on any
// command; `list` names every requirement and rule from the suite's own tables, and which
// requirements can record each rule, so a baseline entry naming an impossible pair is refused;
// the README names every command the CLI has.

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../cli/args.ts';
import { LEGS } from '../../lib/legs.ts';
import type { Catalogue } from '../../lib/report/catalogue.ts';
import { judgingDigestOf } from '../../lib/report/verify/referee.ts';
import { HOST_CHECK_RULES } from '../../lib/witness/host-checks.ts';
import { RULES } from '../../lib/witness/rules.ts';
import { judgeGatedFieldsShape } from '../../lib/witness/shape-leg.ts';
import { cli } from './support.ts';

const PACKAGE = JSON.parse(
  await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
) as {
  name: string;
  version: string;
};

describe('--version', () => {
  it.each([[['--version']], [['version']], [['run', '--version']], [['verify', 'x.json', '-V']]])(
    '%j prints the package name and version, then the judging digest a report records, and exits 0',
    async (argv) => {
      const run = await cli(argv);
      const digest = await judgingDigestOf(fileURLToPath(new URL('../..', import.meta.url)));
      expect(run).toEqual({
        code: 0,
        stdout: [`${PACKAGE.name} ${PACKAGE.version}`, `judging digest ${digest}`],
        stderr: [],
      });
    },
  );
});

describe('list', () => {
  async function listed(): Promise<Catalogue> {
    const run = await cli(['list', '--json']);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout.join('\n')) as Catalogue;
  }

  it('--json gives every requirement with its section, fixture and capabilities', async () => {
    const found = await listed();
    expect(found.requirements.map((r) => r.id)).toEqual(LEGS.map((l) => l.id));
    for (const leg of LEGS) {
      expect(found.requirements.find((r) => r.id === leg.id)).toMatchObject({
        ref: leg.ref,
        fixture: leg.fixtureId ?? null,
        capabilities: leg.gates,
      });
    }
  });

  it('--json gives every rule once with its severity and reference', async () => {
    const found = await listed();
    expect(found.rules.map((r) => [r.id, r.severity, r.ref])).toEqual(
      RULES.map((r) => [r.id, r.severity, r.ref]),
    );
  });

  it('a host-check rule is recorded by the host checks and by no requirement', async () => {
    const found = await listed();
    const probe = found.rules.find((r) => r.id === 'wire.unknown-run-not-found');
    expect(probe).toMatchObject({ hostCheck: true, recordedBy: [] });
    expect(found.rules.filter((r) => r.hostCheck).map((r) => r.id)).toEqual(
      RULES.map((r) => r.id).filter((id) => HOST_CHECK_RULES.has(id)),
    );
  });

  it('the server-free leg records only the rules its schema judgement produces', async () => {
    const found = await listed();
    const shapeLeg = LEGS.find((l) => l.fixtureId === undefined)?.id ?? '';
    const recordedThere = found.rules
      .filter((r) => r.recordedBy.includes(shapeLeg))
      .map((r) => r.id);
    expect(new Set(recordedThere)).toEqual(
      new Set(
        judgeGatedFieldsShape()
          .map((f) => f.rule)
          .filter((id) => RULES.some((r) => r.id === id)),
      ),
    );
  });

  it('prints one line per requirement and per rule without --json', async () => {
    const run = await cli(['list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toHaveLength(2 + LEGS.length + RULES.length);
    expect(run.stdout.find((l) => l.startsWith('  wire.discovery '))).toMatch(
      /recorded by the host checks, once per run$/,
    );
  });
});

describe('the help and the README', () => {
  it('the help lists list and --version', async () => {
    const help = (await cli(['--help'])).stdout.join('\n');
    expect(help).toContain('openwop-eval-gate list [--json]');
    expect(help).toContain('openwop-eval-gate --version');
  });

  it('the README names every command', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const missing = COMMANDS.filter((c) => !new RegExp(`\\| \`${c}[\` ]`).test(readme));
    expect(missing).toEqual([]);
  });
});
