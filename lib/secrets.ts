// The one rule for keeping the API key out of everything the suite reads, prints or writes.
//
// Text from the host is scrubbed once, where it enters (lib/observe/host-client.ts), and every line the CLI
// prints is scrubbed once, where it leaves (cli/cli.ts, cli/conformance.ts). Nothing in between
// scrubs: the report is built from text that is already clean, and is refused if it is not.
//
// Every occurrence of the key is replaced, wherever it stands, so no way of echoing it (glued to
// other text, inside a URL) gets it out. That is safe for output only when the key is not also
// ordinary text: a one-letter key occurs in most words ("loopback" holds a "k"), while a key of
// eight or more characters, as every issued key is (upstream's examples use 12, generated keys
// 16 or more), does not occur in what the suite prints. Shorter keys are refused before anything
// runs (lib/env.ts), and so are keys an Authorization header cannot carry.

export const REDACTED = '[redacted]';

/** The shortest key the suite accepts: below it a key matches ordinary words of the output. */
export const MIN_SECRET_LENGTH = 8;

/** Visible ASCII only: what an HTTP bearer token can be made of, and what JSON writes verbatim. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** Why `secret` cannot be used as a key, or undefined when it can. Never quotes the secret. */
export function unscrubbableSecret(secret: string): string | undefined {
  if (!HEADER_SAFE.test(secret)) {
    return (
      'OPENWOP_API_KEY holds a space, a control character or a non-ASCII character; ' +
      'an Authorization header cannot carry it, and the suite could not find it again to keep it out of its output'
    );
  }
  if (secret.length >= MIN_SECRET_LENGTH) return undefined;
  return (
    `OPENWOP_API_KEY is ${secret.length} character${secret.length === 1 ? '' : 's'} long; ` +
    `the suite needs at least ${MIN_SECRET_LENGTH}, because a shorter key matches ordinary words ` +
    'and could not be kept out of the output without garbling it'
  );
}

/**
 * `text` with every occurrence of `secret` replaced by REDACTED. A secret that configuration
 * refuses (unscrubbableSecret) is not replaced: replacing a short string would corrupt the text
 * around it, and such a key never reaches a run.
 */
export function scrubText(text: string, secret: string | undefined): string {
  if (secret === undefined || unscrubbableSecret(secret) !== undefined) return text;
  return text.split(secret).join(REDACTED);
}

/**
 * `text` with the key and a bearer token sent in its place both replaced, the longer first, so
 * neither leaves a fragment of the other (a near-miss token may be the key with a character
 * appended or removed). Beside an accepted key the token is replaced whatever its length: made
 * from the key, it is no more ordinary text than the key is, and the key's truncation is one
 * character shorter than the shortest accepted key when the key is that short.
 */
export function scrubKeyAndToken(
  text: string,
  key: string | undefined,
  token: string | undefined,
): string {
  if (key === undefined || unscrubbableSecret(key) !== undefined) return scrubText(text, token);
  const secrets = token === undefined || token === '' ? [key] : [key, token];
  return secrets
    .sort((a, b) => b.length - a.length)
    .reduce((clean, secret) => clean.split(secret).join(REDACTED), text);
}

/** Whether `text` still holds `secret`, for the last check before anything is written. */
export function holdsSecret(text: string, secret: string | undefined): boolean {
  return secret !== undefined && secret.length > 0 && text.includes(secret);
}
