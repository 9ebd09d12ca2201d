// The one named failure of the host client: the suite asked and got no usable answer. It is never
// a verdict on the host (contract §1, §9); the driver turns it into an `unobserved` drive.

export const TRANSPORT_ERROR_CODES = [
  'timeout',
  'connection-refused',
  'connection-reset',
  'dns',
  'body-too-large',
  'aborted',
  'tls-mismatch',
  'tls-refused',
  'not-http',
  'other',
] as const;
export type TransportErrorCode = (typeof TRANSPORT_ERROR_CODES)[number];

/**
 * `message` reads `GET /runs/abc/events/poll: timed out after 10000 ms`. It carries the method and
 * the path without its query string, and never a credential: the caller builds it from those
 * parts only, never from a lower layer's message, which may quote a URL.
 */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly code: TransportErrorCode;
  readonly method: string;
  readonly path: string;

  constructor(code: TransportErrorCode, method: string, path: string, detail: string) {
    super(`${method} ${stripQuery(path)}: ${detail}`);
    this.code = code;
    this.method = method;
    this.path = stripQuery(path);
  }
}

function stripQuery(path: string): string {
  const cut = path.search(/[?#]/);
  return cut === -1 ? path : path.slice(0, cut);
}

const SYSTEM_CODES: Readonly<Record<string, TransportErrorCode>> = {
  ECONNREFUSED: 'connection-refused',
  ECONNRESET: 'connection-reset',
  EPIPE: 'connection-reset',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  ETIMEDOUT: 'timeout',
  ABORT_ERR: 'aborted',
  ERR_SSL_WRONG_VERSION_NUMBER: 'tls-mismatch',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'tls-refused',
  SELF_SIGNED_CERT_IN_CHAIN: 'tls-refused',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'tls-refused',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'tls-refused',
  CERT_HAS_EXPIRED: 'tls-refused',
  CERT_NOT_YET_VALID: 'tls-refused',
  ERR_TLS_CERT_ALTNAME_INVALID: 'tls-refused',
};

function messageOf(error: object): string {
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' ? message : '';
}

/**
 * Maps a lower-layer failure to a stable code. A lower layer may wrap the socket's error in
 * `cause`, so the chain is walked; the first recognised code wins.
 */
export function transportCodeOf(error: unknown): TransportErrorCode {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      const mapped = SYSTEM_CODES[code];
      if (mapped !== undefined) return mapped;
      // OpenSSL's "wrong version number": the port answered, but not in TLS. Any other protocol
      // error of the handshake is a TLS port the client and the host cannot agree with.
      if (code === 'EPROTO')
        return /wrong version number/i.test(messageOf(current)) ? 'tls-mismatch' : 'tls-refused';
      if (code.startsWith('ERR_SSL_')) return 'tls-refused';
      // llhttp's parse errors: bytes came back, but not an HTTP answer.
      if (code.startsWith('HPE_')) return 'not-http';
    }
    if ((current as { name?: unknown }).name === 'AbortError') return 'aborted';
    current = (current as { cause?: unknown }).cause;
  }
  return 'other';
}

/**
 * The human half of a TransportError message for a lower-layer failure: the code's phrase, and
 * for a refused handshake the reason Node gave as its fixed code (CERT_HAS_EXPIRED, EPROTO, …).
 */
export function describeTransportFailure(error: unknown, code: TransportErrorCode): string {
  const phrase = describeTransportCode(code);
  if (code !== 'tls-refused') return phrase;
  const raw = (error as { code?: unknown } | undefined)?.code;
  return typeof raw === 'string' && /^[A-Z0-9_]+$/.test(raw) ? `${phrase} (${raw})` : phrase;
}

/** The human half of a TransportError message for each code. */
export function describeTransportCode(code: TransportErrorCode): string {
  switch (code) {
    case 'timeout':
      return 'timed out';
    case 'connection-refused':
      return 'connection refused';
    case 'connection-reset':
      return 'connection reset before the answer was complete';
    case 'dns':
      return 'host name did not resolve';
    case 'body-too-large':
      return 'answer body too large';
    case 'aborted':
      return 'request aborted';
    case 'tls-mismatch':
      return 'TLS mismatch: the port answered without TLS';
    case 'tls-refused':
      return 'TLS handshake refused';
    case 'not-http':
      return 'protocol mismatch: the answer is not HTTP';
    case 'other':
      return 'transport failed';
  }
}

/**
 * A line about anything thrown. String() itself throws on an object with no primitive conversion
 * (a null prototype, a throwing toString), and this runs when something has already gone wrong.
 */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return 'an error that cannot be described';
  }
}
