// Every string a host or a report supplies reaches the page through these: text and attribute
// values escaped, ids made of safe characters only. A host controls event text and summary
// members, so nothing it sent may open a tag, close an attribute or start a script.

import { consoleBlock } from '../../../untrusted-text.ts';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for an element's content or a quoted attribute value. */
export function esc(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  // Control characters (an escape sequence, say) are shown escaped rather than written raw.
  return consoleBlock(text).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** A value as JSON text for display: strings are quoted, and long values are cut. */
export function shown(value: unknown, max = 120): string {
  if (value === undefined) return 'absent';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * A fragment id from parts the page chooses (indexes, rule slugs); any other character becomes
 * `_`, so an id never needs escaping and a host string cannot forge one.
 */
export function anchorId(...parts: readonly (string | number)[]): string {
  return parts.map((p) => String(p).replace(/[^A-Za-z0-9.-]/g, '_')).join('--');
}

/** A bounded tag builder: the attributes are escaped here, the body is already HTML. */
export function tag(
  name: string,
  attributes: Readonly<Record<string, string | number | boolean | undefined>>,
  body = '',
): string {
  const attrs = Object.entries(attributes)
    .filter(([, v]) => v !== undefined && v !== false)
    .map(([k, v]) => (v === true ? ` ${k}` : ` ${k}="${esc(v)}"`))
    .join('');
  return `<${name}${attrs}>${body}</${name}>`;
}
