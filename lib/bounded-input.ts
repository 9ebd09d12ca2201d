// Every file a command reads that someone else wrote (a report, its pack's sidecar) is read here,
// within limits a reader can name and raise. A report's size is checked on the open file before a
// byte is read, and its nesting by one pass over the text before JSON.parse, since the code that
// walks a parsed report (schema, canonical form, replay) recurses and a deep enough document
// would exhaust the stack. A sidecar must be a regular file inside the report's folder (a pipe
// would block the read forever, a device would never end), and is inflated in a stream whose
// output and lines are counted as they arrive, so a small file that inflates to gigabytes, or one
// line of a gigabyte, is refused after the limit and never held.

import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { relative, isAbsolute } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Refusal } from './refusal.ts';

/** The limits on what a command reads; each has a flag of the commands that read reports. */
export interface InputLimits {
  /** The largest report file, in bytes. */
  readonly maxReportBytes: number;
  /** The deepest nesting of arrays and objects a report may have. */
  readonly maxDepth: number;
  /** The largest sidecar file, in compressed bytes. */
  readonly maxSidecarBytes: number;
  /** The most bytes a sidecar may inflate to. */
  readonly maxInflatedBytes: number;
  /** The longest line of an inflated sidecar, in bytes. */
  readonly maxLineBytes: number;
}

const MIB = 1024 * 1024;

/**
 * Reports are a few hundred kilobytes with a nesting of about ten; a 10,000-case pack's sidecar
 * is a few megabytes compressed and some tens inflated, with lines of a few kilobytes. Each
 * default leaves room for far larger honest input while keeping a command's memory bounded.
 */
export const DEFAULT_INPUT_LIMITS: InputLimits = {
  maxReportBytes: 64 * MIB,
  maxDepth: 256,
  maxSidecarBytes: 512 * MIB,
  maxInflatedBytes: 4096 * MIB,
  maxLineBytes: 16 * MIB,
};

/** The flag that raises each limit, named in every refusal that limit causes. */
export const INPUT_LIMIT_FLAGS: Readonly<Record<keyof InputLimits, string>> = {
  maxReportBytes: '--max-report-bytes',
  maxDepth: '--max-depth',
  maxSidecarBytes: '--max-sidecar-bytes',
  maxInflatedBytes: '--max-inflated-bytes',
  maxLineBytes: '--max-line-bytes',
};

/** What each limit bounds, for the docs' table and the help. */
export const INPUT_LIMIT_WORDS: Readonly<Record<keyof InputLimits, string>> = {
  maxReportBytes: 'size of a report file, checked before it is read',
  maxDepth: 'nesting of arrays and objects in a report, checked before it is parsed',
  maxSidecarBytes: "size of a pack's sidecar file (compressed)",
  maxInflatedBytes: 'bytes a sidecar inflates to, counted while inflating',
  maxLineBytes: 'length of one line of an inflated sidecar',
};

/** A file that cannot be read within the limits, or at all: one line, the user's input at fault. */
export class InputRefusal extends Refusal {
  override readonly name: string = 'InputRefusal';
}

/** `what` passed `limit`: which limit, its value, and the flag that raises it. */
function overLimit(what: string, limit: keyof InputLimits, limits: InputLimits): string {
  return `${what} is over the limit of ${limits[limit]} (${INPUT_LIMIT_WORDS[limit]}); ${INPUT_LIMIT_FLAGS[limit]} N raises it`;
}

/**
 * A report file's JSON. Refuses, with one line naming the path, a file that is missing, not a
 * regular file, larger than the limit, nested deeper than the limit, or not JSON.
 */
export async function readBoundedJson(
  path: string,
  what: string,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
): Promise<unknown> {
  let text: string;
  let handle;
  try {
    // Non-blocking, so that opening a named pipe with no writer returns at once.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new InputRefusal(`the ${what} ${path} could not be read (${codeOf(error)})`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new InputRefusal(`the ${what} ${path} is not a regular file`);
    if (stat.size > limits.maxReportBytes) {
      throw new InputRefusal(
        overLimit(`the ${what} ${path} (${stat.size} bytes)`, 'maxReportBytes', limits),
      );
    }
    // Exactly the size checked, so a file that grows meanwhile is not read past the limit.
    const buffer = Buffer.alloc(stat.size);
    const { bytesRead } = await handle.read(buffer, 0, stat.size, 0);
    text = buffer.toString('utf8', 0, bytesRead);
  } catch (error) {
    if (error instanceof InputRefusal) throw error;
    throw new InputRefusal(`the ${what} ${path} could not be read (${codeOf(error)})`);
  } finally {
    await handle.close();
  }
  if (nestingBeyond(text, limits.maxDepth)) {
    throw new InputRefusal(overLimit(`the ${what} ${path}'s nesting`, 'maxDepth', limits));
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InputRefusal(`the ${what} ${path} is not JSON`);
  }
}

/**
 * Whether `text`, read as JSON, opens more than `max` arrays and objects inside one another,
 * measured with a counter in constant stack. Native searches jump from one quote or bracket to the
 * next and over each string to its closing quote, many times faster over a report than a loop over
 * every character; a string left open runs to the end. Text that is not JSON is left for
 * JSON.parse to refuse.
 */
export function nestingBeyond(text: string, max: number): boolean {
  const next = /["[\]{}]/g;
  let depth = 0;
  // test, not exec: each match is one character, found at lastIndex - 1, so no match array is
  // built for each of a report's many thousand quotes and brackets.
  while (next.test(text)) {
    const at = next.lastIndex - 1;
    const c = text.charCodeAt(at);
    if (c === 0x22) next.lastIndex = afterString(text, at + 1);
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else depth -= 1;
  }
  return false;
}

/**
 * Where the string whose content starts at `from` ends: past its closing quote, the first quote
 * after an even run of backslashes (each backslash escapes the character after it), or the end.
 */
function afterString(text: string, from: number): number {
  for (let at = text.indexOf('"', from); at !== -1; at = text.indexOf('"', at + 1)) {
    let slashes = 0;
    while (at - slashes - 1 >= from && text.charCodeAt(at - slashes - 1) === 0x5c) slashes += 1;
    if (slashes % 2 === 0) return at + 1;
  }
  return text.length;
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'read error';
}

/**
 * The lines of the gzip file `path`, which must be a regular file whose real path lies inside
 * `dir`. Each compressed chunk is handed to `seen` as it is read (for a digest). The iterator
 * throws an InputRefusal at the first limit passed, and an error for a file that is not gzip or
 * ends inside a member; memory held is one chunk and at most one line.
 */
export async function* boundedGzipLines(
  path: string,
  dir: string,
  seen: (chunk: Buffer) => void,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
): AsyncGenerator<string> {
  const [real, folder] = await Promise.all([realpath(path), realpath(dir)]);
  const rel = relative(folder, real);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new InputRefusal("the file leads out of the report's folder");
  }
  const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  let stat;
  try {
    stat = await handle.stat();
  } catch (error) {
    await handle.close();
    throw error;
  }
  if (!stat.isFile()) {
    await handle.close();
    throw new InputRefusal('not a regular file');
  }
  if (stat.size > limits.maxSidecarBytes) {
    await handle.close();
    throw new InputRefusal(overLimit(`${stat.size} bytes`, 'maxSidecarBytes', limits));
  }
  // The stream owns the handle from here and closes it when it ends or is destroyed.
  const raw = handle.createReadStream();
  let compressed = 0;
  raw.on('data', (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    compressed += bytes.length;
    seen(bytes);
    // A file that grows while it is read is held to the same limit.
    if (compressed > limits.maxSidecarBytes) {
      raw.destroy(new InputRefusal(overLimit('the file', 'maxSidecarBytes', limits)));
    }
  });
  const gunzip = createGunzip();
  const counted = inflatedLimit(limits);
  raw.on('error', (error) => gunzip.destroy(error));
  gunzip.on('error', (error) => counted.destroy(error));
  raw.pipe(gunzip).pipe(counted);
  try {
    yield* splitLines(counted, limits);
  } finally {
    raw.destroy();
    gunzip.destroy();
    counted.destroy();
  }
}

/** A pass-through that fails once more than the inflated limit has passed. */
function inflatedLimit(limits: InputLimits): Transform {
  let inflated = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      inflated += chunk.length;
      if (inflated > limits.maxInflatedBytes) {
        callback(new InputRefusal(overLimit('the inflated content', 'maxInflatedBytes', limits)));
      } else callback(null, chunk);
    },
  });
}

/** Lines of a byte stream, cut at `\n` (a trailing `\r` dropped), none longer than the limit. */
async function* splitLines(
  input: AsyncIterable<Buffer>,
  limits: InputLimits,
): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  const tooLong = (): InputRefusal =>
    new InputRefusal(overLimit(`line ${lineNumber + 1}`, 'maxLineBytes', limits));
  const finish = (tail: Buffer): string => {
    const line = Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    lineNumber += 1;
    const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
    return line.toString('utf8', 0, end);
  };
  for await (const chunk of input) {
    let start = 0;
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, start)) {
      if (pendingBytes + at - start > limits.maxLineBytes) throw tooLong();
      yield finish(chunk.subarray(start, at));
      start = at + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      pendingBytes += rest.length;
      if (pendingBytes > limits.maxLineBytes) throw tooLong();
      // Copied: the stream may reuse its buffer for the next chunk.
      pending.push(Buffer.from(rest));
    }
  }
  if (pendingBytes > 0) yield finish(Buffer.alloc(0));
}
