// Which sentences count as requirement sentences: a modal one anywhere, and in a normative
// section a statement whose subject is a wire member, so a rule stated with "is", "are" or
// "carries" is traced too, while the prose that describes the suite is not flooded into it.

import { describe, expect, it } from 'vitest';
import { requirementSentences } from './requirements.ts';

const GUIDE = [
  '## 6. Exact shapes',
  '',
  '`passed` is a JSON boolean everywhere. The table below lists the rest.',
  '',
  '- `score` and `gatedScore` are numbers in 0–1.',
  '- A `runId` carries its tenant.',
  '- `lib/legs.ts` is the list the suite runs. A `429` is retried.',
  '',
  '### Questions host teams asked',
  '',
  '`witness` is one of the published classes.',
  '',
  '## 7. Run the suite against your host',
  '',
  '`passed` is printed in the summary. A host must answer within the deadline.',
  '',
].join('\n');

const texts = (markdown: string): string[] =>
  requirementSentences('docs/host-guide.md', markdown).map((s) => s.text);

describe('requirement sentences', () => {
  it('in a normative section, take a statement whose subject is a wire member', () => {
    expect(texts(GUIDE)).toEqual([
      '`passed` is a JSON boolean everywhere.',
      '- `score` and `gatedScore` are numbers in 0–1.',
      '- A `runId` carries its tenant.',
      '`witness` is one of the published classes.',
      'A host must answer within the deadline.',
    ]);
  });

  it('leave out a subject that is a path or a status, and prose about the suite', () => {
    const found = texts(GUIDE).join(' ');
    expect(found).not.toContain('lib/legs.ts');
    expect(found).not.toContain('`429`');
    expect(found).not.toContain('The table below');
  });

  it('outside the normative sections, take only a sentence with must, should or never', () => {
    expect(texts(GUIDE.replace('## 6. Exact shapes', '## 8. Walkthrough'))).toEqual([
      'A host must answer within the deadline.',
    ]);
  });
});
