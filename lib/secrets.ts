// The one rule for keeping the API key out of everything the suite reads, prints or writes.

export const REDACTED = '[redacted]';

/**
 * Secrets shorter than this are left alone: replacing a short common string would mangle ids,
 * ordinary JSON and the report's own digests. Keys that short are not worth the damage.
 */
export const MIN_SECRET_LENGTH = 8;

/** `text` with every occurrence of `secret` replaced by REDACTED. */
export function scrubText(text: string, secret: string | undefined): string {
  if (secret === undefined || secret.length < MIN_SECRET_LENGTH) return text;
  return text.split(secret).join(REDACTED);
}
