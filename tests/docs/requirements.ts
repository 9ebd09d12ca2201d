// The requirement sentences of the three documents a host team reads as the contract: each
// sentence of their prose that says what a host must, should or must never do, and each sentence
// of their normative sections that states what a wire member is, are or carries (a requirement
// a host can break without a modal verb in it). Each carries a
// stable id, an empty HTML anchor (`<a id="hg-12"></a>`) at its start, which renders as nothing
// and can be linked to; docs/traceability.md maps every id to what judges it
// (tests/docs/traceability.ts).

/** The documents traced, with the prefix of their sentence ids. */
export const TRACED_DOCS = {
  'docs/host-guide.md': 'hg',
  'docs/wire-contract.md': 'wc',
  'docs/rfc-0246.md': 'rfc',
} as const;
export type TracedDoc = keyof typeof TRACED_DOCS;

export interface Sentence {
  readonly doc: TracedDoc;
  /** Its anchor's id, or undefined for a sentence that has none yet. */
  readonly id: string | undefined;
  /** The sentence as it reads, anchors left out and whitespace collapsed. */
  readonly text: string;
  /** Where it starts in the file, for inserting an anchor. */
  readonly offset: number;
  readonly line: number;
}

export const ANCHOR = /<a id="((?:hg|wc|rfc)-\d+)"><\/a>/g;
/** A sentence that states a duty: must, should or never, in any case. */
const NORMATIVE = /\b(must|should|never)\b/i;

/**
 * The sections of each document that say what a host serves: the host guide's event log,
 * grading and exact shapes; the contract's transport to event log; the RFC's four sections. The
 * rest (upgrade notes, running the suite, legs, dispositions, sources) describes the suite.
 */
const NORMATIVE_SECTIONS: Readonly<Record<TracedDoc, RegExp>> = {
  'docs/host-guide.md': /^## [456]\. /,
  'docs/wire-contract.md': /^## [1-7]\. /,
  'docs/rfc-0246.md': /^### §[A-D] /,
};

/**
 * A wire member as the documents write it in a code span: a JSON member or event type, dotted
 * for a nested one (`passed`, `eval.started.modes`, `agents.evalSuite`); not a path, a status
 * or an error code.
 */
const MEMBER = '`[a-z][A-Za-z0-9]*(?:\\.[a-z][A-Za-z0-9]*)*`';
/**
 * A statement about a member without a modal verb: the sentence's subject is one or more wire
 * members (after an optional bold lead-in and article), and its verb is is, are, carries or
 * carry. `passed` is a JSON boolean everywhere; A `runId` is tenant-bound.
 */
const MEMBER_STATEMENT = new RegExp(
  `^(?:\\*\\*[^*]+\\*\\*\\s*)?(?:(?:The|A|An|Each|Every)\\s+)?${MEMBER}(?:\\s*(?:,|and|or)\\s*${MEMBER})*(?:\\s*\\([^)]*\\))?\\s+(?:is|are|carries|carry)\\b`,
);

/** Whether a sentence (list marker and anchors left out) states a requirement. */
function statesRequirement(plain: string, normativeSection: boolean): boolean {
  if (NORMATIVE.test(plain)) return true;
  return normativeSection && MEMBER_STATEMENT.test(plain.replace(/^(\|\s*|[-*]\s+|\d+\.\s+)/, ''));
}
/** Where one sentence ends and the next begins inside a block of prose. */
const BOUNDARY = /[.!?](?=\s+[A-Z`*(<[])/g;

interface Block {
  readonly start: number;
  readonly end: number;
  /** The headings of level 2 and 3 it sits under ('' where there is none yet). */
  readonly headings: readonly [string, string];
}

/** Paragraphs, list items and table rows of the prose, by offset; code and generated blocks left out. */
function blocks(markdown: string): Block[] {
  const out: Block[] = [];
  let offset = 0;
  let open: { start: number; end: number } | undefined;
  let fenced = false;
  let generated = false;
  let headings: [string, string] = ['', ''];
  const close = (): void => {
    if (open !== undefined) out.push({ ...open, headings });
    open = undefined;
  };
  for (const line of markdown.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      close();
      continue;
    }
    if (/<!-- begin generated/.test(line)) generated = true;
    if (/<!-- end generated/.test(line)) {
      generated = false;
      close();
      continue;
    }
    if (!fenced && /^#{2,3} /.test(line)) {
      close();
      headings = line.startsWith('### ') ? [headings[0], line] : [line, ''];
    }
    const skipped =
      fenced || generated || /^\s*$/.test(line) || /^#/.test(line) || /^\s*<!--/.test(line);
    if (skipped) {
      close();
      continue;
    }
    // A table row, or a list item, starts a block of its own.
    if (/^\s*(\||[-*] |\d+\. )/.test(line) || /^\s*\|/.test(line)) close();
    if (/^\s*\|[\s:|-]+\|\s*$/.test(line)) continue;
    open = { start: open?.start ?? start, end: start + line.length };
  }
  close();
  return out;
}

function lineOf(markdown: string, offset: number): number {
  let n = 1;
  for (let i = 0; i < offset; i += 1) if (markdown.charCodeAt(i) === 10) n += 1;
  return n;
}

/** Every requirement sentence of a document, in order. */
export function requirementSentences(doc: TracedDoc, markdown: string): Sentence[] {
  const out: Sentence[] = [];
  for (const block of blocks(markdown)) {
    const normative = block.headings.some((h) => NORMATIVE_SECTIONS[doc].test(h));
    const text = markdown.slice(block.start, block.end).replace(/\n/g, ' ');
    const cuts = [0, ...[...text.matchAll(BOUNDARY)].map((m) => (m.index ?? 0) + 1), text.length];
    for (let i = 0; i + 1 < cuts.length; i += 1) {
      const raw = text.slice(cuts[i], cuts[i + 1]);
      const lead = raw.length - raw.trimStart().length;
      const plain = raw.replace(ANCHOR, '').replace(/\s+/g, ' ').trim();
      if (!statesRequirement(plain, normative)) continue;
      const ids = [...raw.matchAll(ANCHOR)].map((m) => m[1]);
      const offset = block.start + (cuts[i] ?? 0) + lead;
      out.push({ doc, id: ids[0], text: plain, offset, line: lineOf(markdown, offset) });
    }
  }
  return out;
}

/** Where a sentence's anchor goes: before any list marker or emphasis it starts with. */
export function anchorOffset(markdown: string, sentence: Sentence): number {
  const rest = markdown.slice(sentence.offset);
  const lead = /^(\|\s*|[-*] |\d+\. )?/.exec(rest)?.[0].length ?? 0;
  return sentence.offset + lead;
}
