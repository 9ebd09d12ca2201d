// RFC 0081 §F: eval.* payloads and the summary are content-free. A deny-listed key anywhere in
// them, at any depth, vendor members included, is content the host must not publish (contract §5).
// A key matches after case is folded and a vendor prefix is dropped, so `X-Prompt` or
// `vendor.acme.completion` cannot slip content past the rule under a vendor spelling; the match
// is on the whole remaining name, so `outputFormat` or `tokenCount` are not content.

import type { Finding } from '../types.ts';
import type { EventIndex } from './event-index.ts';
import { finding, plural } from './finding.ts';

export const CONTENT_KEYS: ReadonlySet<string> = new Set([
  'taskOutput',
  'output',
  'rubric',
  'completion',
  'prompt',
  'body',
  'secret',
  'credentials',
  'token',
  'apiKey',
]);

const DENIED: ReadonlySet<string> = new Set([...CONTENT_KEYS].map((k) => k.toLowerCase()));

/**
 * The name a key is judged by: lower-cased, with a leading `x-` or `openwop-` dropped, and for a
 * `vendor.` key everything up to its last '.' dropped (so `vendor.acme.prompt` reads `prompt`).
 */
export function contentName(key: string): string {
  const lower = key.toLowerCase();
  if (lower.startsWith('vendor.')) return lower.slice(lower.lastIndexOf('.') + 1);
  if (lower.startsWith('x-')) return lower.slice(2);
  if (lower.startsWith('openwop-')) return lower.slice(8);
  return lower;
}

/** Whether `key` is a deny-listed content key under any case or vendor prefix. */
export function isContentKey(key: string): boolean {
  return DENIED.has(contentName(key));
}

interface Frame {
  readonly value: object;
  readonly key: string;
  readonly parent: Frame | null;
}

/**
 * The path of the first deny-listed key in `root`, or null. Iterative, so a hostile document
 * nested deeper than the call stack is walked rather than thrown on.
 */
export function findContentKey(root: unknown): string | null {
  if (typeof root !== 'object' || root === null) return null;
  const stack: Frame[] = [{ value: root, key: '', parent: null }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const value = frame.value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) {
        const item: unknown = value[i];
        if (typeof item === 'object' && item !== null) {
          stack.push({ value: item, key: `[${i}]`, parent: frame });
        }
      }
      continue;
    }
    const record = value as { readonly [k: string]: unknown };
    // for-in over own keys avoids an entries array per object on a log of 100,000 payloads.
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const item = record[key];
      if (isContentKey(key)) return pathOf(frame) + `.${key}`;
      if (typeof item === 'object' && item !== null) {
        stack.push({ value: item, key: `.${key}`, parent: frame });
      }
    }
  }
  return null;
}

function pathOf(frame: Frame): string {
  const parts: string[] = [];
  for (let f: Frame | null = frame; f !== null; f = f.parent) parts.push(f.key);
  return parts.reverse().join('');
}

export function judgeContent(index: EventIndex, summary: unknown): Finding[] {
  let hits = 0;
  let first = '';
  for (const event of index.evalEvents) {
    const path = findContentKey(event.payload);
    if (path !== null) {
      if (hits === 0) first = `${event.type} at log position ${event.position + 1}: payload${path}`;
      hits += 1;
    }
  }
  const inSummary = findContentKey(summary);
  const events = plural(index.evalEvents.length, 'eval.* payload');
  return [
    finding(
      'content-free',
      hits === 0,
      hits === 0
        ? `none of ${events} carries a content key`
        : `eval.* payloads MUST NOT carry task content; ${hits} of ${events} do (${first})`,
    ),
    finding(
      'content-free',
      inSummary === null,
      inSummary === null
        ? 'the summary carries no content key'
        : `the summary MUST NOT carry task content; it has summary${inSummary}`,
    ),
  ];
}
