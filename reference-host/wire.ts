// The published v2 wire grammar the host speaks (contract §1, §6): identifiers and how they
// travel in a path, the error envelope and its registered statuses, and protocol-version
// negotiation. Pure; the serving code asks here and never spells a shape itself.

import type { HasDefect } from './defects.ts';
import type { JsonValue } from './fixtures.ts';

/** The protocol minor this host speaks, on every response header and in discovery. */
export const PROTOCOL_VERSION = '2.0';
/** What the `protocol-v1-only` defect advertises instead: a host with no major 2. */
const V1_ONLY_VERSION = '1.11';

/**
 * The registry row of `capability_not_provided` is 422; RFC 0081 and the openapi say 501.
 * The host follows the registry, and the suite accepts either (contract §6).
 */
export const CAPABILITY_NOT_PROVIDED_STATUS = 422;

/** Registered codes the host answers with, each at its registry status (openwop/openwop spec/v2/errors.json). */
const REGISTERED_STATUS = {
  validation_error: 400,
  unauthenticated: 401,
  not_found: 404,
  protocol_version_unsupported: 406,
  run_state_conflict: 409,
  payload_too_large: 413,
  capability_not_provided: CAPABILITY_NOT_PROVIDED_STATUS,
  rate_limited: 429,
  internal_error: 500,
} as const;
export type ErrorCode = keyof typeof REGISTERED_STATUS;

export class HttpError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: { readonly [k: string]: JsonValue },
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = REGISTERED_STATUS[code];
  }
}

/** The v2 envelope `{error, message, details?}`; `error-body-dialect` nests the code instead. */
export function errorBody(e: HttpError, has: HasDefect): JsonValue {
  if (has('error-body-dialect')) return { error: { code: e.code, message: e.message } };
  return {
    error: e.code,
    message: e.message,
    ...(e.details === undefined ? {} : { details: e.details }),
  };
}

/** The one version the host speaks, so also the one it prefers. */
export function preferredVersion(has: HasDefect): string {
  return has('protocol-v1-only') ? V1_ONLY_VERSION : PROTOCOL_VERSION;
}

export function protocolVersions(has: HasDefect): readonly string[] {
  return [preferredVersion(has)];
}

/**
 * The version a response speaks: the one the request names, or the preferred one when it names
 * none. Undefined when the request names a version the host does not list (406).
 */
export function negotiatedVersion(
  requested: string | undefined,
  has: HasDefect,
): string | undefined {
  if (requested === undefined || requested.trim() === '') return preferredVersion(has);
  return protocolVersions(has).includes(requested.trim()) ? requested.trim() : undefined;
}

// ids.schema.json (newer): tenant `(anon:)?[A-Za-z0-9._~-]{1,128}`, opaque 16-128 of the same
// alphabet. The host never mints a `~`, so a projected id always decodes back unambiguously.
const OPAQUE_DIGITS = 12;

/** `<tenant>/run-<12 digits>`: the opaque part is exactly 16 characters. */
export function mintRunId(tenant: string, counter: number, has: HasDefect): string {
  const opaque = `run-${String(counter).padStart(OPAQUE_DIGITS, '0')}`;
  return has('run-id-untenanted') ? opaque : `${tenant}/${opaque}`;
}

/** Unique within the host: the run's opaque part plus the sequence, 23+ characters. */
export function mintEventId(runId: string, sequence: number, has: HasDefect): string {
  if (has('event-id-short')) return `e${sequence}`;
  const opaque = runId.slice(runId.indexOf('/') + 1);
  return `${opaque}.${String(sequence).padStart(6, '0')}`;
}

/**
 * A run id as one path segment in the RFC 0184 projection: every byte outside `[A-Za-z0-9._-]`
 * becomes `~` and two uppercase hex digits (`/` → `~2F`, `:` → `~3A`).
 */
export function projectSegment(id: string): string {
  return [...Buffer.from(id, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9._-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `~${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/**
 * Decodes a path segment sent either way, `%2F` or `~2F` (a host must accept both). A `~` not
 * followed by two hex digits is a malformed projection, 400 validation_error.
 */
export function decodeSegment(segment: string): string {
  if (/~(?![0-9A-Fa-f]{2})/.test(segment)) {
    throw new HttpError(
      'validation_error',
      'a "~" in a path segment must be followed by two hex digits',
    );
  }
  try {
    return decodeURIComponent(segment.replace(/~([0-9A-Fa-f]{2})/g, '%$1'));
  } catch {
    throw new HttpError('validation_error', 'the run id is not a valid encoded path segment');
  }
}
