// `openwop-eval-gate run`, called in-process: every exit code of contract §10 is produced here,
// and the closing line agrees with it each time. Each conformance run takes about a second.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { tally } from '../../lib/report/verdict/verdict.ts';
import { runVerdict } from '../../lib/report/verdict/run-verdict.ts';
import { LEGS } from '../../lib/legs.ts';
import { runLeg } from '../../lib/decide/run-leg.ts';
import { validate } from '../../lib/schemas.ts';
import { openTarget } from '../../lib/decide/target.ts';
import { readConfig } from '../../lib/env.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { resetMidBody, startHostileHost } from '../support/hostile-host.ts';
import type { CliRun } from './support.ts';
import {
  cli,
  closing,
  filesIn,
  LEAKY_KEY,
  readReport,
  removeDir,
  scratchDir,
  withoutVerdict,
} from './support.ts';

/** Counts from the leg table, so a new leg does not silently change what these tests mean. */
const ALL = LEGS.length;
const TRIAL_LEGS = LEGS.filter((l) => l.gates.includes('agents.evalSuite.trials')).length;

/** The closing line and the exit code both follow from the report's dispositions. */
function expectAgreement(run: CliRun, report: EvalGateReport): void {
  const dispositions = report.requirements.map((r) => r.disposition);
  expect(closing(run)).toEqual(tally(dispositions));
  expect(run.code).toBe(runVerdict(report).exitCode);
}

describe('run: exit 0', () => {
  it('the embedded host passes every leg, exits 0 and writes a schema-valid report, JUnit and Markdown', async () => {
    const dir = await scratchDir();
    try {
      const stepSummary = join(dir, 'step-summary.md');
      await writeFile(stepSummary, 'an earlier step\n');
      const run = await cli(['run', '--report-dir', dir], { GITHUB_STEP_SUMMARY: stepSummary });
      const report = await readReport(dir);

      expect(run.code).toBe(0);
      expect(withoutVerdict(run.stdout.at(-1))).toBe(
        `${ALL} passed, 0 failed, 0 blocked, 0 skipped`,
      );
      expectAgreement(run, report);
      expect(validate('eval-gate-report', report)).toEqual([]);
      expect(report.target.embedded).toBe(true);
      expect(report.requirements.map((r) => r.id)).toEqual(LEGS.map((l) => l.id));
      expect(report.totals['executed-pass']).toBe(ALL);

      const files = await filesIn(dir);
      const junit = files.get('eval-gate-junit.xml') ?? '';
      expect(junit.match(/<testcase /g)).toHaveLength(ALL);
      expect(junit).not.toMatch(/<failure|<error|<skipped/);
      const markdown = files.get('eval-gate-summary.md') ?? '';
      expect(markdown).toContain('| forbidden-in-every-trial | 1 | 0 | 1 ✗ · 2 ✗ | false |');
      expect(files.get('step-summary.md')).toBe(`an earlier step\n${markdown}\n`);
    } finally {
      await removeDir(dir);
    }
  });
});

describe('run: strict mode with an opt-out', () => {
  it('a host without trials, opted out under strict mode, skips the trial legs, exits 0, and the report verifies', async () => {
    const dir = await scratchDir();
    const host = await startReferenceHost({ apiKey: LEAKY_KEY, defect: 'withhold-trials' });
    try {
      // The host seeds no generated pack, which is not what this run is about.
      const argv = [
        ...['--base-url', host.url, '--report-dir', dir, '--require-behavior'],
        ...['--opt-out', 'generated-pack'],
      ];
      const run = await cli([...argv, '--opt-out', 'agents.evalSuite.trials'], {
        OPENWOP_API_KEY: LEAKY_KEY,
      });
      const report = await readReport(dir);

      expect(run.code).toBe(0);
      expect(withoutVerdict(run.stdout.at(-1))).toBe(
        `${ALL - TRIAL_LEGS} passed, 0 failed, 0 blocked, ${TRIAL_LEGS} skipped`,
      );
      expectAgreement(run, report);
      expect(report.strict).toBe(true);
      expect(report.optedOut).toEqual(['generated-pack', 'agents.evalSuite.trials']);
      const skipped = report.requirements.filter((r) => r.disposition === 'skipped');
      for (const row of skipped)
        expect(row.reason).toMatch(/agents\.evalSuite\.trials is opted out/);

      const verified = await cli(['verify', join(dir, 'eval-gate-report.json')]);
      expect(verified.code).toBe(0);

      const withoutOptOut = await cli([...argv], { OPENWOP_API_KEY: LEAKY_KEY });
      expect(withoutOptOut.code).toBe(1);
      expect(withoutVerdict(withoutOptOut.stdout.at(-1))).toBe(
        `${ALL - TRIAL_LEGS} passed, ${TRIAL_LEGS} failed, 0 blocked, 0 skipped`,
      );
    } finally {
      await host.close();
      await removeDir(dir);
    }
  });
});

describe('run: SHOULD warnings', () => {
  it('a host whose error bodies are a dialect passes every leg, and each line says which rule warned', async () => {
    const dir = await scratchDir();
    const host = await startReferenceHost({ apiKey: LEAKY_KEY, defect: 'error-body-dialect' });
    try {
      const run = await cli(['--base-url', host.url, '--report-dir', dir], {
        OPENWOP_API_KEY: LEAKY_KEY,
      });
      expect(run.code).toBe(0);
      expect(withoutVerdict(run.stdout.at(-1))).toBe(
        `${ALL} passed, 0 failed, 0 blocked, 0 skipped`,
      );
      const driven = run.stdout.filter(
        (l) => l.startsWith('executed-pass') && !l.includes('shape'),
      );
      expect(driven).toHaveLength(ALL - 1);
      for (const line of driven) {
        expect(line).toMatch(/ \(1 SHOULD warning: wire\.error-body; see eval-gate-summary\.md\)$/);
      }
      const markdown = await readFile(join(dir, 'eval-gate-summary.md'), 'utf8');
      expect(markdown).toContain('- `wire.error-body` (');
    } finally {
      await host.close();
      await removeDir(dir);
    }
  });
});

describe('run: exit 1', () => {
  it('an RFC 0244 host fails the gated legs, its rows are what the legs decide, and the key is never written or printed', async () => {
    const dir = await scratchDir();
    const host = await startReferenceHost({ apiKey: LEAKY_KEY, defect: 'unmigrated-0244' });
    try {
      const env = { OPENWOP_API_KEY: LEAKY_KEY };
      const run = await cli(['run', '--base-url', host.url, '--report-dir', dir], env);
      const report = await readReport(dir);

      expect(run.code).toBe(1);
      expectAgreement(run, report);
      expect(validate('eval-gate-report', report)).toEqual([]);
      const byId = new Map(report.requirements.map((r) => [r.id, r.disposition]));
      expect(byId.get('openwop.requirement.0246.mean-gated')).toBe('executed-fail');
      expect(byId.get('openwop.requirement.0246.suite-gated')).toBe('executed-fail');

      // The same legs, run here without vitest, decide the same rows.
      const target = await openTarget(readConfig({ OPENWOP_BASE_URL: host.url, ...env }));
      try {
        const direct = await Promise.all(LEGS.map((leg) => runLeg(leg, target)));
        expect(report.requirements.map((r) => [r.id, r.disposition, r.assertions])).toEqual(
          direct.map((o) => [o.requirement, o.disposition, o.assertions]),
        );
      } finally {
        await target?.client.close();
      }

      for (const [name, text] of await filesIn(dir)) {
        expect(text.includes(LEAKY_KEY), `${name} holds the key`).toBe(false);
      }
      expect([...run.stdout, ...run.stderr].filter((line) => line.includes(LEAKY_KEY))).toEqual([]);
    } finally {
      await host.close();
      await removeDir(dir);
    }
  });
});

describe('run: exit 2', () => {
  const cases: readonly (readonly [string, readonly string[], RegExp])[] = [
    [
      'an unknown flag',
      ['run', '--colour'],
      /unknown flag --colour for "run"; its flags are --base-url/,
    ],
    [
      'a malformed base URL',
      ['--base-url', 'not a url'],
      /--base-url must be an absolute http\(s\) URL such as/,
    ],
    [
      'an opt-out that is no gate',
      ['--opt-out', 'agents.nope'],
      /--opt-out lists unknown name "agents.nope"; valid names are agents.evalSuite/,
    ],
    [
      'the key over http to a remote host',
      ['--base-url', 'http://eval.example.com'],
      /would travel unencrypted to http:\/\/eval.example.com; use https/,
    ],
    [
      'a key given as a flag',
      ['run', `--api-key=${LEAKY_KEY}`],
      /--api-key is not accepted: the API key is read only from OPENWOP_API_KEY/,
    ],
    [
      'an unknown command',
      ['certify'],
      /unknown command "certify"; the commands are run, verify, judge, fixtures, expect, diff, badge, list, report, matrix, help and version/,
    ],
    [
      '--sign without --key-id, which no published key could be matched to',
      ['--sign', '/nonexistent/key.pem'],
      /^openwop-eval-gate: --sign needs --key-id ID, the id under which your discovery signingKeys publishes its public half; without it the report can never be certified$/,
    ],
    [
      'a signing key file that does not exist',
      ['--sign', '/nonexistent/key.pem', '--key-id', 'host-1'],
      /key file \/nonexistent\/key.pem could not be read \(ENOENT\); give a PEM ed25519 private key/,
    ],
  ];

  it.each(cases)(
    '%s exits 2 with one line saying what is wrong and what would be right, and no closing line',
    async (_name, argv, message) => {
      const run = await cli(argv, { OPENWOP_API_KEY: LEAKY_KEY });
      expect(run.code).toBe(2);
      expect(run.stdout).toEqual([]);
      expect(run.stderr).toHaveLength(1);
      expect(run.stderr[0]).toMatch(message);
      expect(run.stderr[0]).not.toContain(LEAKY_KEY);
    },
  );
});

describe('run: exit 3', () => {
  it('a host that answers discovery and the key, then resets every create, blocks those legs: counted blocked, JUnit errors, exit 3', async () => {
    const dir = await scratchDir();
    const host = await startHostileHost({
      routes: { create: ({ response }) => resetMidBody(response, '{"runId":') },
    });
    try {
      const run = await cli(['run', '--base-url', host.url, '--report-dir', dir], {
        OPENWOP_API_KEY: LEAKY_KEY,
        OPENWOP_REQUEST_TIMEOUT_MS: '2000',
        OPENWOP_RUN_TIMEOUT_MS: '3000',
      });
      const report = await readReport(dir);
      expect(run.code).toBe(3);
      const blocked = report.requirements.filter((r) => r.disposition === 'blocked');
      expect(blocked.length).toBeGreaterThan(0);
      for (const row of blocked) expect(row.reason).toMatch(/connection reset/);
      expect(closing(run).blocked).toBe(blocked.length);
      expect(closing(run).failed).toBe(0);
      expectAgreement(run, report);
      const junit = (await filesIn(dir)).get('eval-gate-junit.xml') ?? '';
      expect(junit.match(/<error type="blocked"/g)).toHaveLength(blocked.length);
      expect(junit).not.toContain('<failure');
      const summary = (await filesIn(dir)).get('eval-gate-summary.md') ?? '';
      expect(summary.split('\n')[0]).toMatch(/^Result: BLOCKED \(exit 3\): \d+ of \d+ blocked /);
    } finally {
      await host.close();
      await removeDir(dir);
    }
  });
});
