// Text a host or a report author chose (an implementation's name and version, a suite version, an
// error body) is data wherever the suite shows it. One function per sink renders it: the console
// (a line break would print a line the suite never wrote, an escape sequence would rewrite the
// terminal), Markdown (a tag would render on GitHub), GitHub workflow commands. HTML has its own
// (lib/report/render/html/escape.ts). A name that mixes writing systems is flagged wherever it is shown,
// since a Cyrillic `а` in a Latin name reads as the real name.

/**
 * C0 and C1 controls, DEL, and the Unicode characters that reorder, hide or break a line when
 * printed: bidirectional overrides and isolates, zero-width characters, line and paragraph
 * separators.
 */
const CONSOLE_UNSAFE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line for the console or a log: every control and reordering character shown escaped. */
export function consoleText(text: string): string {
  return text.replace(CONSOLE_UNSAFE, escaped);
}

/**
 * Text for the console that may span lines the suite itself breaks (a JSON document, a help
 * text): line breaks and tabs kept, every other control character shown escaped.
 */
export function consoleBlock(text: string): string {
  return text.replace(CONSOLE_UNSAFE, (c) => (c === '\n' || c === '\t' ? c : escaped(c)));
}

/**
 * Text as a Markdown code span, safe in a table cell: nothing in it renders (no tag, link or
 * emphasis), a backtick cannot close it early, a `|` cannot end the cell, and a line break
 * cannot start a block.
 */
export function markdownCode(text: string): string {
  const shown = consoleText(text).replace(/\|/g, '\\|');
  if (shown === '') return '(empty)';
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // A span that starts or ends with a backtick needs a space inside the fence.
  const pad = shown.startsWith('`') || shown.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** A workflow command's message: `%`, CR and LF would end or garble the command. */
export function annotationData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value, where `:` and `,` also delimit. */
export function annotationProperty(text: string): string {
  return annotationData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** The writing systems a name can be forged in; a letter of any other counts as `Other`. */
const SCRIPTS: readonly (readonly [string, RegExp])[] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Georgian', /\p{Script=Georgian}/u],
];

/**
 * `Latin+Cyrillic` when the letters of `text` come from more than one of the scripts whose
 * letters look alike (Latin, Cyrillic, Greek, Armenian, Cherokee, Georgian), else undefined.
 * Other scripts (Han beside Latin, say) are ordinary in names and are not flagged.
 */
export function mixedScripts(text: string): string | undefined {
  const found = new Set<string>();
  for (const char of text.matchAll(/\p{L}/gu)) {
    const script = SCRIPTS.find(([, pattern]) => pattern.test(char[0]));
    if (script !== undefined) found.add(script[0]);
  }
  // In the table's order, so one mix always reads the same: `Latin+Cyrillic`.
  const names = SCRIPTS.map(([name]) => name).filter((name) => found.has(name));
  return names.length > 1 ? names.join('+') : undefined;
}

/** What a plain name or version is made of; anything else is shown quoted. */
const PLAIN = /^[\p{L}\p{N}](?:[\p{L}\p{N} ._+@/:()-]*[\p{L}\p{N}._+@/:()-])?$/u;

/**
 * A name or version a host or report supplied: as it is when it is plain, else quoted with its
 * controls escaped. The discovery schema sets no pattern for either, so plainness is the suite's
 * own test: letters and digits with a few joining marks, no quote, no space at either end.
 */
export function quotedUnlessPlain(text: string): string {
  return PLAIN.test(text) ? text : `"${consoleText(text.replace(/["\\]/g, (c) => `\\${c}`))}"`;
}

/** `acme-host 1.2.0` as any text the suite prints shows it, flagged when its name mixes scripts. */
export function shownImplementation(name: string, version?: string): string {
  const label =
    version === undefined
      ? quotedUnlessPlain(name)
      : `${quotedUnlessPlain(name)} ${quotedUnlessPlain(version)}`;
  const mixed = mixedScripts(name);
  return mixed === undefined ? label : `${label} (mixed scripts: ${mixed})`;
}
