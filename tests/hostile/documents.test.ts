// Hosts that answer every request, but with documents that are broken, mistyped, incomplete or
// about something else. Discovery the suite cannot read is `blocked` (contract §9: discovery
// unreadable); every other wrong document is the host answering and being wrong: `executed-fail`.

import { beforeAll, describe, expect, it } from 'vitest';
import type { HostileOptions } from '../support/hostile-host.ts';
import {
  HOSTILE_RUN_ID,
  correctDiscovery,
  correctEvents,
  correctSummary,
  expectOutcome,
  logPage,
  runOnHostileHost,
  sendRaw,
  startHostileHost,
  warmUp,
} from '../support/hostile-host.ts';
import { sendJson } from '../support/scripted-server.ts';
import { checkServedDocuments, recordingFetch } from '../support/served-documents.ts';
import type { Exchange } from '../support/served-documents.ts';

beforeAll(warmUp);

const against = async (options: HostileOptions = {}) => (await runOnHostileHost(options)).run;

const failedRules = (run: Awaited<ReturnType<typeof against>>): string[] =>
  run.outcome.findings.filter((f) => f.severity === 'MUST' && !f.ok).map((f) => f.rule);

const summaryText = JSON.stringify(correctSummary());

/** `document` with a vendor member holding arrays nested `depth` deep. */
function nestedText(document: Record<string, unknown>, depth: number): string {
  const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  return JSON.stringify(document).replace(/^\{/, `{"x-deep":${deep},`);
}

/** A summary with one task member replaced. */
function taskWith(member: string, value: unknown): Record<string, unknown> {
  const summary = correctSummary();
  const [task] = summary.tasks as Record<string, unknown>[];
  return { ...summary, tasks: [{ ...task, [member]: value }] };
}

function taskWithout(member: string): Record<string, unknown> {
  const summary = correctSummary();
  const [task] = summary.tasks as Record<string, unknown>[];
  return { ...summary, tasks: [without(task ?? {}, member)] };
}

function without(document: Record<string, unknown>, member: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(document).filter(([key]) => key !== member));
}

/** The correct log with one eval.scored payload member replaced. */
function scoredWith(member: string, value: unknown): Record<string, unknown>[] {
  return correctEvents(HOSTILE_RUN_ID).map((e) =>
    e.type === 'eval.scored'
      ? { ...e, payload: { ...(e.payload as Record<string, unknown>), [member]: value } }
      : e,
  );
}

describe.concurrent('the hostile host, switched to nothing, is a correct host', () => {
  it('a correct run on the hostile host is executed-pass, so its failures mean something', async () => {
    const run = await against();
    expect(run.outcome.disposition, run.outcome.reason).toBe('executed-pass');
    expect(run.outcome.assertions).toBeGreaterThan(0);
    expect(run.outcome.findings.filter((f) => !f.ok)).toEqual([]);
  });

  it('every document it serves by default holds against the published v2 structures', async () => {
    const host = await startHostileHost();
    const exchanges: Exchange[] = [];
    try {
      const send = recordingFetch(host.url, exchanges);
      await send('/.well-known/openwop');
      await send('/runs', { method: 'POST', body: '{}' });
      const run = `/runs/${encodeURIComponent(HOSTILE_RUN_ID)}`;
      let after = '';
      for (let page = 0; page < 5; page += 1) {
        const answer = JSON.parse((await send(`${run}/events/poll${after}`)).text) as {
          events: { sequence: number }[];
          isTerminal: boolean;
        };
        if (answer.isTerminal) break;
        after = `?afterSequence=${answer.events.at(-1)?.sequence ?? -1}`;
      }
      await send(`${run}/eval-summary`);
      await send('/no-such-route');
    } finally {
      await host.close();
    }
    const check = checkServedDocuments(exchanges);
    expect(check.problems).toEqual([]);
    expect(check.counts).toMatchObject({
      discovery: 1,
      'create-run-answer': 1,
      'poll-response': 3,
      'run-event': 5,
      'eval-scored': 2,
      'run-completed': 1,
      'eval-summary': 1,
      'error-envelope': 1,
    });
  });
});

describe.concurrent('discovery the suite cannot read blocks the leg', () => {
  it.each([
    ['is not JSON', '<html>maintenance</html>', /not JSON/],
    ['is truncated JSON', JSON.stringify(correctDiscovery()).slice(0, -7), /not JSON/],
    ['is a JSON array', JSON.stringify([correctDiscovery()]), /not an object/],
    ['is nested 5000 deep', nestedText(correctDiscovery(), 5000), /nested deeper than 64 levels/],
  ])('discovery that %s is blocked as unreadable', async (_, text, word) => {
    const run = await against({
      routes: { discovery: ({ response }) => sendRaw(response, 200, text) },
    });
    expectOutcome(run, 'blocked', /discovery unreadable/, word);
  });
});

describe.concurrent('a summary that is not an EvalSummary fails the leg', () => {
  it.each([
    ['is not JSON', 'summary: ok', /run\.served.*not JSON/],
    ['is truncated JSON', summaryText.slice(0, summaryText.length / 2), /run\.served.*not JSON/],
    ['is a JSON array', `[${summaryText}]`, /summary\.schema/],
    ['is nested 5000 deep', nestedText(correctSummary(), 5000), /run\.served.*not JSON/],
    [
      'holds a raw 1e400',
      summaryText.replace('"gatedAggregateScore":0', '"gatedAggregateScore":1e400'),
      /gatedAggregateScore/,
    ],
  ])('a summary that %s is executed-fail', async (_, text, word) => {
    const run = await against({
      routes: { summary: ({ response }) => sendRaw(response, 200, text) },
    });
    expectOutcome(run, 'executed-fail', word);
  });

  it.each([
    ['score "1"', taskWith('score', '1'), ['summary.schema', 'task.score-unchanged']],
    ['passed "false"', taskWith('passed', 'false'), ['summary.schema', 'task.passed']],
    ['gatedScore "NaN"', taskWith('gatedScore', 'NaN'), ['summary.schema', 'task.gated-score']],
    ['no gatedScore', taskWithout('gatedScore'), ['task.gated-score-present']],
    ['no passed', without(correctSummary(), 'passed'), ['summary.schema', 'suite.passed']],
    [
      'no gatedAggregateScore',
      without(correctSummary(), 'gatedAggregateScore'),
      ['suite.gated-aggregate-present'],
    ],
    ['another suite', { ...correctSummary(), suiteId: 'other.evals.suite' }, ['summary.identity']],
  ])('a summary with %s is executed-fail on the rules it breaks', async (_, summary, rules) => {
    const run = await against({
      routes: { summary: ({ response }) => sendJson(response, 200, summary) },
    });
    expectOutcome(run, 'executed-fail', /MUST finding/);
    for (const rule of rules)
      expect(
        failedRules(run).some((r) => r.startsWith(rule)),
        rule,
      ).toBe(true);
  });
});

describe.concurrent(
  'events and run documents with wrong types or missing members fail the leg',
  () => {
    it.each([
      ['score "1"', scoredWith('score', '1')],
      ['passed "false"', scoredWith('passed', 'false')],
    ])(
      'eval.scored payloads with %s are executed-fail on the payload schema',
      async (_, events) => {
        const run = await against({ events });
        expectOutcome(run, 'executed-fail', /MUST finding/);
        expect(failedRules(run)).toContain('events.payload-schema');
      },
    );

    it('an event without a sequence is executed-fail on the envelope', async () => {
      const events = correctEvents(HOSTILE_RUN_ID).map((e, i) =>
        i === 1 ? without(e, 'sequence') : e,
      );
      const run = await against({
        routes: { poll: ({ response }) => sendJson(response, 200, logPage(events, true)) },
      });
      expectOutcome(run, 'executed-fail', /MUST finding/);
      expect(failedRules(run)).toContain('events.envelope');
    });

    it.each([
      ['no runId', { status: 'running' }],
      ['a numeric runId', { runId: 42, status: 'running' }],
      ['an empty runId', { runId: '', status: 'running' }],
    ])(
      'a created run with %s is executed-fail: the host refused to name its run',
      async (_, body) => {
        const run = await against({
          routes: { create: ({ response }) => sendJson(response, 201, body) },
        });
        expectOutcome(run, 'executed-fail', /run\.served/, /without a string runId/);
      },
    );

    it('a poll page whose events is not an array is executed-fail', async () => {
      const run = await against({
        routes: {
          poll: ({ response }) => sendJson(response, 200, { events: '[]', isTerminal: true }),
        },
      });
      expectOutcome(run, 'executed-fail', /run\.served/, /without an events array/);
    });

    it('a run status without a status member is executed-fail', async () => {
      const run = await against({
        routes: { status: ({ response }) => sendJson(response, 200, { runId: 'run-1' }) },
      });
      expectOutcome(run, 'executed-fail', /run\.completed-status/);
    });
  },
);
