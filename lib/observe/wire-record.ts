// What the driver keeps of the wire for the witness's SHOULD rules (contract §1, §6): every error
// answer and every `OpenWOP-Version` header, per call. It judges nothing. Both tallies are
// bounded whatever the host does: a host cycling through statuses or header values, or sending
// error bodies at the body limit, grows a count, not the suite's memory.

import type { HostResponse } from './host-client.ts';
import type {
  JsonType,
  ObservedBody,
  ObservedCall,
  ObservedErrorKind,
  ObservedVersion,
  Tally,
} from '../types.ts';

/** Bodies kept whole per (call, status); the rest of that kind are only counted. */
export const ERROR_SAMPLES = 3;
/** Distinct (call, status) kinds kept; answers of further kinds are counted as omitted. */
export const ERROR_KINDS = 16;
/** An error body longer than this is recorded by its size alone. */
export const ERROR_BODY_LIMIT = 8 * 1024;
/** Distinct (call, header value) kinds kept. */
export const VERSION_KINDS = 16;
/** A header value is cut to this many characters; no valid `2.<minor>` comes near it. */
export const VERSION_VALUE_LIMIT = 64;

const VERSION_HEADER = 'openwop-version';

interface ErrorKind {
  readonly call: ObservedCall;
  readonly status: number;
  count: number;
  readonly samples: ObservedBody[];
}

interface VersionKind {
  readonly call: ObservedCall;
  readonly value: string | null;
  count: number;
}

export class WireRecord {
  private readonly errorKinds: ErrorKind[] = [];
  private errorsOmitted = 0;
  private readonly versionKinds: VersionKind[] = [];
  private versionsOmitted = 0;

  /** Records one response of `call`: its version header, and its body when it is an error. */
  answer(call: ObservedCall, response: HostResponse): void {
    this.version(call, response.headers[VERSION_HEADER]);
    if (response.status >= 400) this.error(call, response);
  }

  version(call: ObservedCall, raw: string | undefined): void {
    const value =
      raw === undefined
        ? null
        : raw.length > VERSION_VALUE_LIMIT
          ? `${raw.slice(0, VERSION_VALUE_LIMIT)}…`
          : raw;
    const kind = this.versionKinds.find((k) => k.call === call && k.value === value);
    if (kind !== undefined) kind.count += 1;
    else if (this.versionKinds.length < VERSION_KINDS)
      this.versionKinds.push({ call, value, count: 1 });
    else this.versionsOmitted += 1;
  }

  private error(call: ObservedCall, response: HostResponse): void {
    let kind = this.errorKinds.find((k) => k.call === call && k.status === response.status);
    if (kind === undefined) {
      if (this.errorKinds.length >= ERROR_KINDS) {
        this.errorsOmitted += 1;
        return;
      }
      kind = { call, status: response.status, count: 0, samples: [] };
      this.errorKinds.push(kind);
    }
    kind.count += 1;
    if (kind.samples.length < ERROR_SAMPLES) kind.samples.push(bodyOf(response));
  }

  errors(): Tally<ObservedErrorKind> {
    return {
      kinds: this.errorKinds.map((k) => ({ ...k, samples: [...k.samples] })),
      omitted: this.errorsOmitted,
    };
  }

  versions(): Tally<ObservedVersion> {
    return { kinds: this.versionKinds.map((k) => ({ ...k })), omitted: this.versionsOmitted };
  }
}

/** An answer's body as the suite keeps an error body: its JSON, why it is not JSON, or its size. */
export function bodyOf(response: HostResponse): ObservedBody {
  const bytes = Buffer.byteLength(response.text);
  if (bytes > ERROR_BODY_LIMIT) return { bytes };
  if (response.jsonError !== undefined) return { notJson: response.jsonError };
  return { json: response.json };
}

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      // Parsed JSON holds nothing else; undefined only reaches here from a literal observation.
      return 'null';
  }
}
