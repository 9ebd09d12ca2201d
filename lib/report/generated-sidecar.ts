// The generated pack's sidecar: one case record a line, gzip-compressed, in the report's folder.
// The run writes a line as each case finishes (redacted as the report is, and refused if it holds
// the key), so no pack is ever held whole or built as one string; `verify` reads it back the same
// way, hashing the compressed bytes as they stream past.

import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { CaseSink } from '../decide/generated-leg.ts';
import {
  unreadableSidecars,
  type SidecarOpener,
  type SidecarRead,
} from '../decide/sidecar-opener.ts';
import { makeDirectory } from '../make-directory.ts';
import { holdsSecret } from '../secrets.ts';
import type { GeneratedCaseRecord } from '../types.ts';
import { redactContent } from './canonical.ts';

/** The first run's sidecar; a later run under --repeat writes `eval-gate-generated-K.jsonl.gz`. */
export const SIDECAR_FILE = 'eval-gate-generated.jsonl.gz';

/** The name of the `k`-th pack a job writes (1-based), so repetitions never share a file. */
export function sidecarName(k: number): string {
  return k === 1 ? SIDECAR_FILE : SIDECAR_FILE.replace('.jsonl.gz', `-${k}.jsonl.gz`);
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
      if (holdsSecret(line, apiKey)) {
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
export function sidecarReader(dir: string | undefined): SidecarOpener {
  if (dir === undefined) return unreadableSidecars("the report's folder is not known here");
  return (file) => readSidecar(join(dir, file));
}

function readSidecar(path: string): SidecarRead {
  const hash = createHash('sha256');
  let bytes = 0;
  const raw = createReadStream(path);
  raw.on('data', (chunk: Buffer | string) => {
    hash.update(chunk);
    bytes += chunk.length;
  });
  const gunzip = createGunzip();
  // A read error (a missing file) ends the lines with it instead of leaving them waiting.
  raw.on('error', (error) => gunzip.destroy(error));
  raw.pipe(gunzip);
  const lines = createInterface({ input: gunzip, crlfDelay: Infinity });
  return {
    lines: {
      async *[Symbol.asyncIterator]() {
        for await (const line of lines) yield line;
        // readline ends quietly on a stream error; a truncated or missing file is named here.
        if (gunzip.errored !== null) throw gunzip.errored;
      },
    },
    digest: () => ({ sha256: hash.copy().digest('hex'), bytes }),
  };
}
