// action.yml and every workflow this repository documents are checked by GitHub's own parser for
// workflow and action files (@actions/workflow-parser, from actions/languageservices, the schema
// GitHub's editor tooling validates against), offline. A step list shown on its own is checked
// inside a one-job workflow, and every `steps.gate.outputs.NAME` a workflow reads is an output
// the action declares.

import {
  convertWorkflowTemplate,
  NoOperationTraceWriter,
  parseWorkflow,
} from '@actions/workflow-parser';
import { parseAction } from '@actions/workflow-parser/actions/index';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readBaselineDocument } from '../../lib/report/verdict/baseline-file.ts';
import { readRepoFile } from './markdown.ts';

const trace = new NoOperationTraceWriter();
const DOCUMENTS = ['docs/ci.md', 'README.md'] as const;

function actionProblems(name: string, content: string): string[] {
  const parsed = parseAction({ name, content }, trace);
  return parsed.context.errors.getErrors().map((e) => e.message);
}

async function workflowProblems(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, trace);
  const problems = parsed.context.errors.getErrors().map((e) => e.message);
  if (parsed.value === undefined || problems.length > 0) return problems;
  const converted = await convertWorkflowTemplate(parsed.context, parsed.value);
  return (converted.errors ?? []).map((e) => e.Message);
}

/** A list of steps shown alone, as the body of a one-job workflow. */
function asWorkflow(steps: string): string {
  const indented = steps
    .trimEnd()
    .split('\n')
    .map((line) => (line === '' ? line : `      ${line}`))
    .join('\n');
  return `on: push\njobs:\n  shown:\n    runs-on: ubuntu-latest\n    steps:\n${indented}\n`;
}

interface Block {
  readonly where: string;
  readonly kind: 'workflow' | 'steps' | 'baseline';
  readonly text: string;
}

/** Every ```yaml block of a document, by what it is; anything else fails the test. */
function yamlBlocks(path: string): Block[] {
  const text = readRepoFile(path);
  return [...text.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => {
    const body = m[1] ?? '';
    const line = text.slice(0, m.index).split('\n').length;
    const where = `${path}:${line}`;
    if (/^jobs:/m.test(body)) return { where, kind: 'workflow', text: body };
    if (/^- /.test(body)) return { where, kind: 'steps', text: body };
    if (/^(expectedFailures|severity):/.test(body)) return { where, kind: 'baseline', text: body };
    throw new Error(`${where}: a yaml block that is neither a workflow, steps nor a baseline`);
  });
}

const blocks = DOCUMENTS.flatMap(yamlBlocks);

describe('the action and the documented workflows, by GitHub’s workflow parser', () => {
  it('action.yml is a valid action', () => {
    expect(actionProblems('action.yml', readRepoFile('action.yml'))).toEqual([]);
  });

  it('the parser refuses an action with a misspelt key, so it can fail', () => {
    const broken = readRepoFile('action.yml').replace('  using: composite', '  usin: composite');
    expect(actionProblems('action.yml', broken)).toEqual(
      expect.arrayContaining([expect.stringMatching(/Unexpected value 'usin'/)]),
    );
  });

  it('the documents show whole workflows and step lists to check', () => {
    expect(blocks.filter((b) => b.kind === 'workflow').length).toBeGreaterThanOrEqual(2);
    expect(blocks.filter((b) => b.kind === 'steps').length).toBeGreaterThanOrEqual(1);
  });

  it.each(blocks.filter((b) => b.kind !== 'baseline').map((b) => [b.where, b] as const))(
    '%s is a valid workflow',
    async (_where, block) => {
      const content = block.kind === 'workflow' ? block.text : asWorkflow(block.text);
      expect(await workflowProblems(block.where, content)).toEqual([]);
    },
  );

  it.each(blocks.filter((b) => b.kind === 'baseline').map((b) => [b.where, b] as const))(
    '%s is a baseline the run reads',
    (_where, block) => {
      expect(() => readBaselineDocument(parse(block.text))).not.toThrow();
    },
  );

  it('the parser refuses a workflow step with a misspelt key, so it can fail', async () => {
    const problems = await workflowProblems('w.yml', asWorkflow('- run: echo\n  iff: always()\n'));
    expect(problems).toEqual([expect.stringMatching(/Unexpected value 'iff'/)]);
  });

  it('every steps.gate.outputs.NAME a documented workflow reads is an output of the action', () => {
    const action = readRepoFile('action.yml');
    const outputs = new Set(
      [
        ...(action.split('\noutputs:\n')[1]?.split('\nruns:')[0] ?? '').matchAll(
          /^ {2}([a-z-]+):$/gm,
        ),
      ].map((m) => m[1]),
    );
    expect(outputs.has('regressed')).toBe(true);
    const read = blocks.flatMap((b) =>
      [...b.text.matchAll(/steps\.gate\.outputs\.([a-z-]+)/g)].map((m) => m[1]),
    );
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((name) => !outputs.has(name))).toEqual([]);
  });
});
