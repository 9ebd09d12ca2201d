// `run --generate N --seed S`: the generated pack as one more requirement, end to end through the
// CLI. A conformant host passes a pack of 200 in strict mode; a one-clause defect fails the row,
// which names the fixture, the seed and the file, and each failing rule's smallest case; verify
// recomputes the row from the sidecar its cases were streamed to and refuses an edited one; a
// host that does not list the pack fails it in strict mode.

import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePackFiles } from '../../cli/fixture-set.ts';
import { generatePack } from '../../lib/generate/pack.ts';
import { CURRENT_GENERATOR } from '../../lib/generate/versions.ts';
import { GENERATED_REQUIREMENT } from '../../lib/legs.ts';
import { PACKAGE_MANIFEST } from '../../lib/package-root.ts';
import { fixtureDigest } from '../../lib/report/canonical.ts';
import type { EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import { rowsDigest } from '../../lib/report/report.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import {
  cli,
  generatedRow,
  LEAKY_KEY,
  readReport,
  readSidecar,
  removeDir,
  scratchDir,
  streamedPack,
  verifyWritten,
  writeSidecar,
  dateless,
} from './support.ts';
import { caseReproduceCommand } from '../../lib/report/render/reproduce-case.ts';

/** A full run per test: the pack of 200 drives 200 runs on the embedded host. */
const FULL_RUN_MS = 300_000;

const NONE = { 'executed-pass': 0, 'executed-fail': 0, inapplicable: 0, skipped: 0, blocked: 0 };

/** The report pointing at `lines` written as a new sidecar, its digest recorded to match. */
async function resealed(
  report: EvalGateReport,
  dir: string,
  file: string,
  lines: readonly string[],
): Promise<EvalGateReport> {
  const sidecar = await writeSidecar(dir, file, lines);
  return edited(report, (r) => ({ ...r, generated: { ...streamedPack(r), sidecar } }));
}

/** The report with `edit` applied to the generated row, its rows digest made to match again. */
function edited(report: EvalGateReport, edit: (row: ReportRow) => ReportRow): EvalGateReport {
  const requirements = report.requirements.map((r) =>
    r.id === GENERATED_REQUIREMENT ? edit(r) : r,
  );
  return {
    ...report,
    requirements,
    digests: { ...report.digests, rows: rowsDigest(requirements) },
  };
}

describe('run --generate: a conformant host', () => {
  it(
    'the embedded reference host passes the pack of 200 at seed 1 in strict mode, and verify recomputes every case',
    async () => {
      const dir = await scratchDir();
      try {
        const run = await cli([
          'run',
          '--generate',
          '200',
          '--seed',
          '1',
          '--require-behavior',
          '--report-dir',
          dir,
        ]);
        const report = await readReport(dir);
        const row = generatedRow(report);

        expect(run.stderr).toEqual([]);
        expect(run.code).toBe(0);
        expect(row.disposition).toBe('executed-pass');
        const pack = streamedPack(row);
        expect(pack.seed).toBe(1);
        expect(pack.tally).toEqual({ ...NONE, 'executed-pass': 200 });
        const cases = await readSidecar(dir, pack.sidecar.file);
        expect(cases).toHaveLength(200);
        expect(cases.filter((c) => c.disposition !== 'executed-pass')).toEqual([]);
        expect(pack.sidecar.bytes).toBe((await stat(join(dir, pack.sidecar.file))).size);
        // The run names the sidecar among the files it wrote, so a job knows to keep it.
        expect(run.stdout).toContain(`wrote ${join(dir, pack.sidecar.file)}`);
        expect(row.assertions).toBeGreaterThan(200);
        expect(report.requirements.filter((r) => r.disposition !== 'executed-pass')).toEqual([]);

        const verified = await cli(['verify', join(dir, 'eval-gate-report.json')]);
        expect(verified.code).toBe(0);
        expect(verified.stdout.at(-1)).toMatch(
          / 0 checked for consistency only, every digest matches/,
        );
      } finally {
        await removeDir(dir);
      }
    },
    FULL_RUN_MS,
  );
});

describe('run --generate: a host with one defect', () => {
  it(
    'score-zeroed fails the generated row, naming the fixture, the seed and its file; verify recomputes it and refuses an edited case',
    async () => {
      const dir = await scratchDir();
      const packDir = join(dir, 'pack');
      await mkdir(packDir);
      const drawn = generatePack({ count: 3, seed: 7 });
      await writePackFiles(packDir, drawn);
      const host = await startReferenceHost({
        apiKey: LEAKY_KEY,
        defect: 'score-zeroed',
        extraFixturesDirs: [packDir],
      });
      try {
        const reportDir = join(dir, 'reports');
        const argv = ['--base-url', host.url, '--report-dir', reportDir, '--require-behavior'];
        const run = await cli([...argv, '--generate', '3', '--seed', '7'], {
          OPENWOP_API_KEY: LEAKY_KEY,
        });
        const report = await readReport(reportDir);
        const row = generatedRow(report);

        expect(run.code).toBe(1);
        expect(row.disposition).toBe('executed-fail');
        const pack = streamedPack(row);
        const cases = await readSidecar(reportDir, pack.sidecar.file);
        const failing = cases.find((c) => c.disposition === 'executed-fail');
        expect(failing).toBeDefined();
        const id = failing?.fixtureId ?? '';
        expect(id).toMatch(/^generated-s7-n000[1-3]$/);
        expect(failing?.file).toBe(`${id}.json`);
        const named = `${id} (seed 7, ${id}.json): `;
        expect(row.reason).toContain(named);
        // The failing rule is the clause the defect breaks: scores are not the gate's to change.
        expect(row.reason).toMatch(/score-unchanged|aggregate-unchanged|mean-score/);
        const line = run.stdout.find((l) => l.includes(GENERATED_REQUIREMENT));
        expect(line).toContain(named);
        // The row reaches the CI's test view and the summary like any other row.
        const junit = await readFile(join(reportDir, 'eval-gate-junit.xml'), 'utf8');
        const summary = await readFile(join(reportDir, 'eval-gate-summary.md'), 'utf8');
        expect(junit).toContain(named);
        expect(summary).toContain(named);

        // Each failing MUST rule names its smallest case and the command that drives it alone.
        expect(pack.smallest.length).toBeGreaterThan(0);
        for (const s of pack.smallest) {
          expect(s.command).toBe(
            `openwop-eval-gate run --generate 3 --seed 7 --case ${s.fixtureId}`,
          );
          const smallestPart = row.reason?.split('Smallest failing case per rule: ')[1] ?? '';
          expect(smallestPart).toMatch(
            new RegExp(`${s.rule.replace(/\./g, '\\.')}[a-z.,\\s-]*: ${s.fixtureId} \\(`),
          );
        }
        // The summary prints it with this run's target and flags, so pasted it drives this host.
        const first = pack.smallest[0];
        const pasteable = caseReproduceCommand(report, row, first?.fixtureId ?? '');
        expect(pasteable).toContain(`--base-url ${host.url} --require-behavior`);
        expect(pasteable).toMatch(/ --generate 3 --seed 7 --case generated-s7-n\d{4}$/);
        expect(summary).toContain(pasteable);

        const verified = await verifyWritten(reportDir, report);
        expect(verified.lines.map(dateless)).toEqual([
          'anchor: unsigned: nobody vouches for the report',
          `referee: this suite (${PACKAGE_MANIFEST.name} ${PACKAGE_MANIFEST.version}) judged it`,
          expect.stringMatching(/^certification: not certified: /),
          expect.stringMatching(
            /^unsigned: integrity only, nobody vouches for it: .*every digest matches/,
          ),
        ]);
        expect(verified.code).toBe(0);

        // The pack names the generator that drew it, and each case the fixture it drove.
        expect(pack.generator).toBe(CURRENT_GENERATOR);
        expect(cases.map((c) => c.fixtureDigest)).toEqual(drawn.map(fixtureDigest));

        // Another fixture recorded for a case, or a generator this verifier lacks: in a report
        // this suite wrote, an edit; in an earlier suite's, another referee's draw.
        const redrawnLines = cases.map((c) =>
          JSON.stringify(c.fixtureId === id ? { ...c, fixtureDigest: '0'.repeat(64) } : c),
        );
        const redrawn = await resealed(report, reportDir, 'redrawn.jsonl.gz', redrawnLines);
        const redrawnChecked = await verifyWritten(reportDir, redrawn);
        expect(redrawnChecked.code).toBe(1);
        expect(redrawnChecked.lines.join('\n')).toContain(
          `generated: 1 case(s) recorded another fixture than generator v${CURRENT_GENERATOR} draws, so another referee drew them: redrawn.jsonl.gz line ${cases.findIndex((c) => c.fixtureId === id) + 1} (${id}): records fixture digest 000000000000…`,
        );
        const unknown = edited(report, (r) => ({
          ...r,
          generated: { ...streamedPack(r), generator: CURRENT_GENERATOR + 1 },
        }));
        const unknownChecked = await verifyWritten(reportDir, unknown);
        expect(unknownChecked.code).toBe(1);
        expect(unknownChecked.lines.join('\n')).toContain(
          `generated: drawn by generator v${CURRENT_GENERATOR + 1}, which this verifier does not have`,
        );

        // A sidecar edited and its digest recorded again: the line no longer decides as written.
        const relabelledLines = cases.map((c) =>
          JSON.stringify(c.fixtureId === id ? { ...c, disposition: 'executed-pass' } : c),
        );
        const relabelled = await resealed(
          report,
          reportDir,
          'relabelled.jsonl.gz',
          relabelledLines,
        );
        const refused = await verifyWritten(reportDir, relabelled);
        expect(refused.code).toBe(1);
        const place = cases.findIndex((c) => c.fixtureId === id) + 1;
        expect(refused.lines.join('\n')).toContain(
          `relabelled.jsonl.gz line ${place} (${id}): the line is not the record its case decides to again`,
        );

        // A case whose observation lost its events no longer decides as recorded.
        const emptiedLines = cases.map((c) =>
          JSON.stringify(
            c.observation === undefined
              ? c
              : { ...c, observation: { ...c.observation, events: [] } },
          ),
        );
        const emptied = await resealed(report, reportDir, 'emptied.jsonl.gz', emptiedLines);
        const refusedAgain = await verifyWritten(reportDir, emptied);
        expect(refusedAgain.code).toBe(1);
        expect(refusedAgain.lines.join('\n')).toContain(
          `emptied.jsonl.gz line 1 (generated-s7-n0001): the line is not the record its case decides to again`,
        );

        // The sidecar as written, but not the file the report's digest names.
        const other = await writeSidecar(
          reportDir,
          'other.jsonl.gz',
          cases.slice(0, 2).map((c) => JSON.stringify(c)),
        );
        const unsealed = edited(report, (r) => ({
          ...r,
          generated: { ...pack, sidecar: { ...pack.sidecar, file: other.file } },
        }));
        const refusedDigest = await verifyWritten(reportDir, unsealed);
        expect(refusedDigest.code).toBe(1);
        expect(refusedDigest.lines.join('\n')).toContain(
          `other.jsonl.gz: recorded sha256 ${pack.sidecar.sha256} (${pack.sidecar.bytes} bytes), read ${other.sha256} (${other.bytes} bytes)`,
        );
      } finally {
        await host.close();
        await removeDir(dir);
      }
    },
    FULL_RUN_MS,
  );

  it(
    'a host that does not list the pack fails the row in strict mode, like any unlisted fixture, and leaves it inapplicable otherwise',
    async () => {
      const dir = await scratchDir();
      const host = await startReferenceHost({ apiKey: LEAKY_KEY });
      try {
        const argv = ['--base-url', host.url, '--report-dir', dir, '--generate', '2'];
        const strict = await cli([...argv, '--require-behavior'], { OPENWOP_API_KEY: LEAKY_KEY });
        const strictRow = generatedRow(await readReport(dir));
        expect(strict.code).toBe(1);
        expect(strictRow.disposition).toBe('executed-fail');
        expect(strictRow.reason).toContain(
          'generated-s1-n0001 (seed 1, generated-s1-n0001.json): host does not list fixture generated-s1-n0001',
        );

        const lenient = await cli(argv, { OPENWOP_API_KEY: LEAKY_KEY });
        const lenientRow = generatedRow(await readReport(dir));
        expect(lenient.code).toBe(0);
        expect(lenientRow.disposition).toBe('inapplicable');
      } finally {
        await host.close();
        await removeDir(dir);
      }
    },
    FULL_RUN_MS,
  );
});

describe('run --generate with --only', () => {
  it(
    'the closing line counts the selected leg and the generated row as the rows that ran, as the certification does',
    async () => {
      const dir = await scratchDir();
      try {
        const argv = ['run', '--only', 'mean-gated', '--generate', '2', '--require-behavior'];
        const run = await cli([...argv, '--report-dir', dir]);
        const report = await readReport(dir);
        const ran = report.requirements.filter((r) => r.reason !== 'not selected');
        expect(ran.map((r) => r.id)).toEqual([
          'openwop.requirement.0246.mean-gated',
          GENERATED_REQUIREMENT,
        ]);
        const total = report.requirements.length;
        expect(run.stdout.at(-1)).toContain(`; partial: 2 of ${total} selected;`);
        expect(run.stdout.at(-1)).toContain(`partial 2 of ${total}`);
      } finally {
        await removeDir(dir);
      }
    },
    FULL_RUN_MS,
  );
});

describe('run --generate: flags that cannot run', () => {
  it.each([
    [['--seed', '1'], '--seed needs --generate N'],
    [['--generate', '0'], '--generate takes a pack size from 1 to 10000'],
    [['--generate', '10001'], '--generate takes a pack size from 1 to 10000'],
    [['--generate', 'many'], '--generate takes a pack size from 1 to 10000'],
    [['--generate', '5', '--seed', '-3'], '--seed takes an integer from 0 to 2147483647'],
    [['--generate', '5', '--seed', '2147483648'], '--seed takes an integer from 0 to 2147483647'],
    [['--generate', '5', '--generate', '6'], '--generate was given twice; give it once'],
  ])('run %j exits 2 with one line', async (flags, message) => {
    const run = await cli(['run', ...flags]);
    expect(run.code).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]).toContain(message);
  });
});
