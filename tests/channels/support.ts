// Row data for the verdict-channel tests: one row per leg, passing unless a case says otherwise,
// and a host key published in the report's discovery so a case can be signed as a host would.

import { generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';
import { GENERATED_REQUIREMENT, LEGS } from '../../lib/legs.ts';
import { currentSet } from '../../lib/requirement-sets.ts';
import type { EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import type { Finding } from '../../lib/types.ts';
import { reportOf } from '../cli/report-example.ts';

export const KEY_ID = 'host-key-1';

export const held = (rule: string, severity: Finding['severity'] = 'MUST'): Finding => ({
  rule,
  ok: true,
  severity,
  ref: 'RFC 0246 §B',
  message: `${rule} held`,
});

export const broken = (rule: string, severity: Finding['severity'] = 'MUST'): Finding => ({
  ...held(rule, severity),
  ok: false,
  message: `${rule}: expected 0, the host reported 1`,
});

/**
 * Every leg as a passing row (host legs with their fixture, the server-free leg without), and
 * the generated pack the requirement set names, driven and passing, as a strict run drives it.
 */
export function passingRows(): ReportRow[] {
  return [
    ...LEGS.map((leg): ReportRow => ({
      id: leg.id,
      disposition: 'executed-pass',
      assertions: 1,
      durationMs: 5,
      ...(leg.fixtureId === undefined ? {} : { fixtureId: leg.fixtureId }),
      findings: [held('task.passed')],
    })),
    passingPack(),
  ];
}

/** The requirement set's pack as a passing row; its cases carry no observation to re-judge. */
export function passingPack(): ReportRow {
  const { count, seed } = currentSet().pack;
  const cases = Array.from({ length: count }, (_, i) => {
    const fixtureId = `generated-s${seed}-n${String(i + 1).padStart(4, '0')}`;
    return { fixtureId, file: `${fixtureId}.json`, disposition: 'executed-pass' as const };
  });
  return {
    id: GENERATED_REQUIREMENT,
    disposition: 'executed-pass',
    assertions: count,
    durationMs: 5,
    findings: [held('task.passed')],
    generated: { seed, count, cases },
  };
}

export const HOST_LEGS = LEGS.filter((l) => l.fixtureId !== undefined);
export const TRIAL_LEGS = LEGS.filter((l) => l.gates.includes('agents.evalSuite.trials'));

export interface HostKey {
  readonly privateKey: KeyObject;
  /** The discovery text that publishes the public half under KEY_ID. */
  readonly discovery: string;
}

export function hostKey(): HostKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  const discovery = JSON.stringify({
    protocolVersion: '2.0.0',
    signingKeys: [{ keyId: KEY_ID, alg: 'ed25519', publicKey: jwk.x, use: 'certification-bundle' }],
  });
  return { privateKey, discovery };
}

/** A report around `rows` whose discovery publishes `key`, strict unless overridden. */
export function reportWith(
  rows: readonly ReportRow[],
  key: HostKey,
  overrides: Partial<EvalGateReport> = {},
): EvalGateReport {
  return reportOf(rows, { discovery: { ok: true, text: key.discovery }, ...overrides });
}

const XSD = readFileSync(new URL('junit.xsd', import.meta.url), 'utf8');

/** xmllint's complaints about `xml` against the JUnit XSD; empty when it validates. */
export async function junitProblems(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: 'eval-gate-junit.xml', contents: xml },
    schema: { fileName: 'junit.xsd', contents: XSD },
  });
  return result.errors.map((e) => e.rawMessage);
}

/**
 * junitProblems for many documents in one xmllint run, by the key each is given: every run starts
 * a thread and instantiates libxml2, which costs far more than validating a document. xmllint
 * names the file in each complaint and says `<file> validates` of each one that does. Should the
 * run fail outright (a document that is not XML), each document is validated on its own, so its
 * own complaint is the one it is given.
 */
export async function junitProblemsOfEach<K>(
  docs: ReadonlyMap<K, string>,
): Promise<ReadonlyMap<K, readonly string[]>> {
  const named = [...docs].map(([key, xml], i) => ({ key, fileName: `junit-${i}.xml`, xml }));
  let output: string;
  try {
    const result = await validateXML({
      xml: named.map((d) => ({ fileName: d.fileName, contents: d.xml })),
      schema: { fileName: 'junit.xsd', contents: XSD },
    });
    output = result.rawOutput;
  } catch {
    const each = await Promise.all(
      named.map(async (d) => [d.key, await junitProblems(d.xml)] as const),
    );
    return new Map(each);
  }
  const lines = output.split('\n');
  return new Map(
    named.map((d) => {
      if (lines.includes(`${d.fileName} validates`)) return [d.key, []];
      const own = lines.filter((l) => l.startsWith(`${d.fileName}:`));
      return [d.key, own.length > 0 ? own : [`${d.fileName} did not validate`]];
    }),
  );
}

/** Counts of the rendered test cases' outcomes, read back from the XML. */
export function junitCounts(xml: string): { failures: number; errors: number; skipped: number } {
  const count = (tag: string): number => (xml.match(new RegExp(`<${tag}[ >/]`, 'g')) ?? []).length;
  return { failures: count('failure'), errors: count('error'), skipped: count('skipped') };
}
