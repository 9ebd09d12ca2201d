// The bearer tokens the near-miss probes send: each is the configured key changed in one way a
// careless comparison overlooks (its last character, a suffix, its letters' case, its end cut
// off). They are derived here and used only by the host client, which owns the key, so neither
// the key nor a token this close to it is ever handed to code that records or prints what it holds.

export type NearMissKind = 'last-character' | 'extended' | 'case-flipped' | 'truncated';

export const NEAR_MISS_KINDS: readonly NearMissKind[] = [
  'last-character',
  'extended',
  'case-flipped',
  'truncated',
];

/** How each token differs from the key, for a finding to say what was sent without showing it. */
export const NEAR_MISS_WORDS: Readonly<Record<NearMissKind, string>> = {
  'last-character': 'the key with its last character changed',
  extended: 'the key with one character appended',
  'case-flipped': 'the key with the case of every letter flipped',
  truncated: 'the key with its last character removed',
};

/** Why a kind has no token for this key, or undefined when it has one. */
export function nearMissUnavailable(kind: NearMissKind, key: string): string | undefined {
  if (kind === 'case-flipped' && flipCase(key) === key) {
    return 'the key holds no letter, so no token differs from it in case alone';
  }
  // Removing the only character leaves an empty token, which a bearer header cannot carry.
  if (kind === 'truncated' && key.length < 2) {
    return 'the key is a single character, so removing its last leaves no token to send';
  }
  return undefined;
}

/** A kind of token this key has none of: a fact of the configured key, so the probe is not made. */
export class NoNearMissToken extends Error {
  override readonly name = 'NoNearMissToken';
}

/**
 * The token of one kind; it differs from the key and stays visible ASCII, as a bearer token must.
 * Throws NoNearMissToken for a kind nearMissUnavailable rules out.
 */
export function nearMissKey(kind: NearMissKind, key: string): string {
  const why = nearMissUnavailable(kind, key);
  if (why !== undefined) throw new NoNearMissToken(why);
  switch (kind) {
    case 'last-character': {
      const last = key.slice(-1);
      return `${key.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
    }
    case 'extended':
      return `${key}A`;
    case 'case-flipped':
      return flipCase(key);
    case 'truncated':
      return key.slice(0, -1);
  }
}

function flipCase(text: string): string {
  return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}
