// The JSON examples of the docs, read the way tests/docs/json-blocks.test.ts checks them. A
// ```json block is a whole JSON document and says what it is in an HTML comment on the line above
// it (blank lines between allowed): `<!-- validates as: NAME -->`, NAME a schema of lib/schemas.ts,
// or `<!-- not a wire document: REASON -->`. A block that is deliberately not a whole document is
// fenced ```jsonc instead and is not parsed. docs/contributing.md states the same rules.

export interface JsonBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly text: string;
  /** What the comment above the block declares, or undefined when there is none. */
  readonly declared?: { readonly schema: string } | { readonly notWire: string };
}

export interface Orphan {
  readonly line: number;
  readonly comment: string;
}

const VALIDATES = /^<!--\s*validates as:\s*([a-z0-9-]+)\s*-->$/;
const NOT_WIRE = /^<!--\s*not a wire document:\s*(\S.*?)\s*-->$/;

/** Every ```json block of a Markdown text, and every declaration that heads no such block. */
export function jsonBlocks(markdown: string): { blocks: JsonBlock[]; orphans: Orphan[] } {
  const lines = markdown.split('\n');
  const blocks: JsonBlock[] = [];
  const orphans: Orphan[] = [];
  let pending:
    { line: number; comment: string; declared: NonNullable<JsonBlock['declared']> } | undefined;
  for (let i = 0; i < lines.length; i += 1) {
    const line = (lines[i] ?? '').trim();
    const fence = /^(```|~~~)\s*([A-Za-z0-9_-]*)/.exec(line);
    if (fence !== null) {
      const close = lines.findIndex((l, k) => k > i && l.trim().startsWith(fence[1] ?? '```'));
      const end = close < 0 ? lines.length : close;
      if (fence[2] === 'json') {
        const text = lines.slice(i + 1, end).join('\n');
        blocks.push({ line: i + 1, text, ...(pending ? { declared: pending.declared } : {}) });
      } else if (pending !== undefined) {
        orphans.push({ line: pending.line, comment: pending.comment });
      }
      pending = undefined;
      i = end;
      continue;
    }
    if (line === '') continue;
    if (pending !== undefined) orphans.push({ line: pending.line, comment: pending.comment });
    pending = undefined;
    const schema = VALIDATES.exec(line);
    const notWire = NOT_WIRE.exec(line);
    if (schema !== null)
      pending = { line: i + 1, comment: line, declared: { schema: schema[1] ?? '' } };
    else if (notWire !== null) {
      pending = { line: i + 1, comment: line, declared: { notWire: notWire[1] ?? '' } };
    }
  }
  if (pending !== undefined) orphans.push({ line: pending.line, comment: pending.comment });
  return { blocks, orphans };
}
