// The one rule for keeping the API key out of everything the suite reads, prints or writes.
//
// Text from the host is scrubbed once, where it enters (lib/observe/host-client.ts), and every line the CLI
// prints is scrubbed once, where it leaves (cli/cli.ts, cli/conformance.ts). Nothing in between
// scrubs: the report is built from text that is already clean, and is refused if it is not.
//
// A scrubber can only replace what it can recognise. Every occurrence of a long random key is the
// key; every occurrence of a one-letter key is mostly ordinary text ("loopback" holds a "k").
// No rule can keep such a key out of the output without corrupting the output, so the suite does
// not try: a key shorter than MIN_SECRET_LENGTH is refused before anything runs (lib/env.ts).

export const REDACTED = '[redacted]';

/**
 * The shortest key the suite accepts. Sixteen characters is the shortest opaque id the contract
 * allows, and no generated key is shorter; a string that long occurs in other text only as itself.
 */
export const MIN_SECRET_LENGTH = 16;

/** Why `secret` cannot be used as a key, or undefined when it can. Never quotes the secret. */
export function unscrubbableSecret(secret: string): string | undefined {
  if (secret.length >= MIN_SECRET_LENGTH) return undefined;
  return (
    `OPENWOP_API_KEY is ${secret.length} character${secret.length === 1 ? '' : 's'} long; ` +
    `the suite needs at least ${MIN_SECRET_LENGTH} to keep it out of its output without ` +
    'garbling the rest of the text (a short key matches ordinary words)'
  );
}

/**
 * `text` with every occurrence of `secret` replaced by REDACTED. A secret shorter than
 * MIN_SECRET_LENGTH is not replaced: configuration refuses such a key, and replacing a short
 * string would corrupt the text around it.
 */
export function scrubText(text: string, secret: string | undefined): string {
  if (secret === undefined || secret.length < MIN_SECRET_LENGTH) return text;
  return text.split(secret).join(REDACTED);
}

/** Whether `text` still holds `secret`, for the last check before anything is written. */
export function holdsSecret(text: string, secret: string | undefined): boolean {
  return secret !== undefined && secret.length > 0 && text.includes(secret);
}
