// The generated pack's sidecar: one case record a line, gzip-compressed, in the report's folder.
// The run writes a line as each case finishes (redacted as the report is, and refused if it holds
// the key), so no pack is ever held whole or built as one string; `verify` reads it back the same
// way, hashing the compressed bytes as they stream past.

import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { boundedGzipLines, DEFAULT_INPUT_LIMITS, type InputLimits } from '../bounded-input.ts';
import type { CaseSink } from '../decide/generated-leg.ts';
import {
  unreadableSidecars,
  type SidecarOpener,
  type SidecarRead,
} from '../decide/sidecar-opener.ts';
import { makeDirectory } from '../make-directory.ts';
import { holdsSecret } from '../secrets.ts';
import { keyAndTokens, secretDetector } from '../secret-forms.ts';
import type { GeneratedCaseRecord } from '../types.ts';
import { redactContent } from './canonical.ts';
import type { EvalGateReport } from './report.ts';

/** The first run's sidecar; a later run under --repeat writes `eval-gate-generated-K.jsonl.gz`. */
export const SIDECAR_FILE = 'eval-gate-generated.jsonl.gz';

/** The name of the `k`-th pack a job writes (1-based), so repetitions never share a file. */
export function sidecarName(k: number): string {
  return k === 1 ? SIDECAR_FILE : SIDECAR_FILE.replace('.jsonl.gz', `-${k}.jsonl.gz`);
}

/** The sidecar files the report's streamed packs name, its repetitions' included. */
export function sidecarFilesOf(report: EvalGateReport): string[] {
  const rows = report.requirements.flatMap((r) => [r, ...(r.repetitions ?? [])]);
  return rows.flatMap((r) =>
    r.generated !== undefined && 'sidecar' in r.generated ? [r.generated.sidecar.file] : [],
  );
}

/** Every name sidecarName gives, and no other file. */
const SIDECAR_NAME = /^eval-gate-generated(?:-\d+)?\.jsonl\.gz$/;

/**
 * Removes the sidecars an earlier run left in `dir`: a run that drives fewer packs (no --repeat,
 * or none at all) would leave them beside its report, where a job's upload of the folder would
 * carry them as if they were this run's. Only files named as sidecars are touched.
 */
export async function removeEarlierSidecars(dir: string): Promise<readonly string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const stale = names.filter((name) => SIDECAR_NAME.test(name));
  await Promise.all(stale.map((name) => rm(join(dir, name), { force: true })));
  return stale;
}

/** Opens a new sidecar in `dir` for each pack a job drives, each under its own name. */
export function sidecarSinks(dir: string, apiKey: string | undefined): () => Promise<CaseSink> {
  let opened = 0;
  return async () => {
    opened += 1;
    await makeDirectory(dir);
    return openSidecar(dir, sidecarName(opened), apiKey);
  };
}

function openSidecar(dir: string, file: string, apiKey: string | undefined): CaseSink {
  const gzip = createGzip();
  const out = createWriteStream(join(dir, file));
  const hash = createHash('sha256');
  let bytes = 0;
  // Each line is checked as written, so the inflated sidecar is checked whole.
  const leaks = secretDetector(keyAndTokens(apiKey));
  gzip.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    bytes += chunk.length;
  });
  gzip.pipe(out);
  const done = finished(out);
  // Held until close, so a write error is reported there rather than as an unhandled rejection.
  done.catch(() => undefined);
  return {
    async write(record: GeneratedCaseRecord): Promise<void> {
      const line = JSON.stringify(redactContent(record));
      if (holdsSecret(line, apiKey) || leaks(line)) {
        throw new Error(`${record.fixtureId}'s record still holds the API key after scrubbing`);
      }
      if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
    },
    async close() {
      gzip.end();
      await done;
      return { file, sha256: hash.digest('hex'), bytes };
    },
  };
}

/** Reads the sidecars beside a report in `dir`; without a folder, every read fails and says why. */
export function sidecarReader(
  dir: string | undefined,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
  progress?: SidecarProgress,
): SidecarOpener {
  if (dir === undefined) return unreadableSidecars("the report's folder is not known here");
  return (file) => readSidecar(join(dir, file), dir, limits, progress);
}

/** Told how far a sidecar has been read, every PROGRESS_EVERY lines, for a live line. */
export type SidecarProgress = (file: string, lines: number, compressedBytes: number) => void;

const PROGRESS_EVERY = 500;

/** Read within the input limits (lib/bounded-input.ts), hashing the compressed bytes read. */
function readSidecar(
  path: string,
  dir: string,
  limits: InputLimits,
  progress: SidecarProgress | undefined,
): SidecarRead {
  const hash = createHash('sha256');
  let bytes = 0;
  const seen = (chunk: Buffer): void => {
    hash.update(chunk);
    bytes += chunk.length;
  };
  async function* lines(): AsyncGenerator<string> {
    let count = 0;
    for await (const line of boundedGzipLines(path, dir, seen, limits)) {
      count += 1;
      if (progress !== undefined && count % PROGRESS_EVERY === 0) {
        progress(basename(path), count, bytes);
      }
      yield line;
    }
  }
  return {
    lines: { [Symbol.asyncIterator]: lines },
    digest: () => ({ sha256: hash.copy().digest('hex'), bytes }),
  };
}
