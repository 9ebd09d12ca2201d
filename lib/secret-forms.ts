// The key and every near-miss token made from it, in each form a host can echo them in. A host
// that returns what it received as a JSON string writes `\u0073k-…` or `\"`; one that echoes a
// URL writes `%73k-…`; one that echoes the Authorization header base64-encodes `Bearer sk-…`.
// JSON.parse turns the escaped forms back into the secret, so scrubbing only the raw text of an
// answer would let the secret through into the report. One pattern per set of secrets matches
// each character written as itself, `\uXXXX` (either case of hex), `%XX`, or its JSON escape, in
// any mix, and the base64 of the secret at each of the three byte alignments.

import { NEAR_MISS_KINDS, nearMissKey, nearMissUnavailable } from './observe/near-miss-keys.ts';
import { REDACTED, unscrubbableSecret } from './secrets.ts';

/** The key and every near-miss token a probe may send in its place. */
export function keyAndTokens(key: string | undefined): string[] {
  if (key === undefined || key === '') return [];
  const tokens = NEAR_MISS_KINDS.filter((kind) => nearMissUnavailable(kind, key) === undefined).map(
    (kind) => nearMissKey(kind, key),
  );
  return [key, ...tokens];
}

const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\\\"',
  '\\': '\\\\\\\\',
  '/': '\\\\/',
};

function regexLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** A hex byte in either case: `2f` matches `2F`. */
function hexEitherCase(code: number, width: number): string {
  return [...code.toString(16).padStart(width, '0')]
    .map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d))
    .join('');
}

/** One character of a secret in any of the forms it can be echoed in. */
function characterForms(c: string): string {
  const code = c.charCodeAt(0);
  const forms = [regexLiteral(c), `\\\\u${hexEitherCase(code, 4)}`, `%${hexEitherCase(code, 2)}`];
  const json = JSON_ESCAPES[c];
  if (json !== undefined) forms.push(json);
  return `(?:${forms.join('|')})`;
}

/**
 * The base64 characters that depend on `secret` alone when it is encoded after 0, 1 or 2 other
 * bytes (`Bearer ` is 7), so the secret is found inside any encoded header or credential.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const skip = [0, 2, 3][offset] ?? 0;
    const whole = Math.floor((offset + bytes.length) / 3) * 4;
    return encoded.slice(skip, whole);
  });
}

/** The pattern of every form of every secret, longest secret first; undefined for none. */
export function secretFormsPattern(secrets: readonly string[]): RegExp | undefined {
  // A secret configuration would refuse is left out, as scrubText leaves it: it is ordinary text.
  const usable = secrets.filter(
    (s) => s.length > 0 && unscrubbableSecret(s.padEnd(8, '#')) === undefined,
  );
  if (usable.length === 0) return undefined;
  const sorted = [...new Set(usable)].sort((a, b) => b.length - a.length);
  const alternatives = [
    ...sorted.map((s) => [...s].map(characterForms).join('')),
    ...sorted
      .flatMap(base64Cores)
      .filter((core) => core.length >= 8)
      .map(regexLiteral),
  ];
  return new RegExp(alternatives.join('|'), 'g');
}

/** `text` with every form of every secret replaced by REDACTED. */
export function scrubSecretForms(text: string, secrets: readonly string[]): string {
  return secretScrubber(secrets)(text);
}

/** A scrubber of every form of `secrets`, its pattern built once for every text it is handed. */
export function secretScrubber(secrets: readonly string[]): (text: string) => string {
  const pattern = secretFormsPattern(secrets);
  if (pattern === undefined) return (text) => text;
  const mayHold = quickTest(secrets);
  return (text) => (mayHold(text) ? text.replace(pattern, REDACTED) : text);
}

/**
 * Whether `text` may hold a form of a secret, far faster than the pattern. Every form but the raw
 * secret and its base64 writes at least one of the secret's characters escaped: as `%XX` or
 * `\uXXXX` of that very character, or, for `"`, `\` and `/`, as its JSON escape. A text holding
 * none of those escapes and neither literal cannot match, and most texts hold none: a JSON answer's
 * `\"` and `\n` and a URL's `%2F` escape characters a generated key does not hold.
 */
function quickTest(secrets: readonly string[]): (text: string) => boolean {
  const literals = [...secrets, ...secrets.flatMap(base64Cores).filter((c) => c.length >= 8)];
  const characters = new Set(secrets.join(''));
  const jsonEscaped = [...characters].some((c) => JSON_ESCAPES[c] !== undefined);
  const percent = escapesOf(characters, '%', 2);
  const unicode = escapesOf(characters, '\\u', 4);
  return (text) =>
    (jsonEscaped && text.includes('\\')) ||
    holdsEscape(text, percent) ||
    holdsEscape(text, unicode) ||
    literals.some((l) => text.includes(l));
}

interface Escapes {
  readonly lead: string;
  /** Each escape as it follows the lead, its hex in lower case. */
  readonly forms: ReadonlySet<string>;
  readonly widths: readonly number[];
}

/** The escapes of `characters` written as `lead` and their hex code, at least `width` digits. */
function escapesOf(characters: ReadonlySet<string>, lead: string, width: number): Escapes {
  const forms = new Set(
    [...characters].map((c) => c.charCodeAt(0).toString(16).padStart(width, '0')),
  );
  return { lead, forms, widths: [...new Set([...forms].map((f) => f.length))] };
}

/** Whether `text` holds one of `escapes`, in either case of hex. */
function holdsEscape(text: string, escapes: Escapes): boolean {
  const { lead, forms, widths } = escapes;
  for (let at = text.indexOf(lead); at !== -1; at = text.indexOf(lead, at + 1)) {
    const start = at + lead.length;
    if (widths.some((w) => forms.has(text.slice(start, start + w).toLowerCase()))) return true;
  }
  return false;
}

/** Whether `text` holds any form of any secret: the last check before anything is written. */
export function holdsSecretForm(text: string, secrets: readonly string[]): boolean {
  return secretDetector(secrets)(text);
}

/** holdsSecretForm for many texts, its pattern built once. */
export function secretDetector(secrets: readonly string[]): (text: string) => boolean {
  const pattern = secretFormsPattern(secrets);
  if (pattern === undefined) return () => false;
  const mayHold = quickTest(secrets);
  return (text) => {
    if (!mayHold(text)) return false;
    pattern.lastIndex = 0;
    return pattern.test(text);
  };
}
