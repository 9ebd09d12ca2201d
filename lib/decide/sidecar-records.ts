// The one reader of a sidecar's records: every line of a pack's sidecar parsed as the case record
// it holds, or named as what it is instead. The replay walks every line; the page, `judge --case`
// and the recheck look up a few records by id through the same walk, so a line is read one way
// wherever a sidecar is read.

import type { GeneratedCaseRecord } from '../types.ts';
import type { SidecarRead } from './sidecar-opener.ts';

/** A sidecar line, 1-based, as the case record it holds or why it holds none. */
export type SidecarLine = { readonly number: number; readonly text: string } & (
  | { readonly ok: true; readonly record: GeneratedCaseRecord }
  | { readonly ok: false; readonly problem: string }
);

/** Each line of a sidecar being read, in order. Throws as the read does (lib/bounded-input.ts). */
export async function* sidecarLines(read: SidecarRead): AsyncGenerator<SidecarLine> {
  let number = 0;
  for await (const text of read.lines) {
    number += 1;
    yield { number, text, ...caseRecordOf(text) };
  }
}

/** A line as a case record, or why it is not one; the schema of a line is its replay. */
function caseRecordOf(
  text: string,
): { ok: true; record: GeneratedCaseRecord } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return { ok: true, record: value as GeneratedCaseRecord };
  }
  return { ok: false, problem: 'not a JSON object' };
}

/** A record found by id: the record and its line (1-based), which is its place in the pack. */
export interface FoundRecord {
  readonly line: number;
  readonly record: GeneratedCaseRecord;
}

/**
 * The first record of each id in `wanted`, read until every one is found, or with `wholeFile` to
 * the end, so that the read's digest covers every byte. Throws as the read does.
 */
export async function sidecarRecordsById(
  read: SidecarRead,
  wanted: ReadonlySet<string>,
  wholeFile = false,
): Promise<ReadonlyMap<string, FoundRecord>> {
  const found = new Map<string, FoundRecord>();
  for await (const line of sidecarLines(read)) {
    if (!line.ok || !wanted.has(line.record.fixtureId)) continue;
    if (!found.has(line.record.fixtureId)) {
      found.set(line.record.fixtureId, { line: line.number, record: line.record });
    }
    if (!wholeFile && found.size === wanted.size) break;
  }
  return found;
}
