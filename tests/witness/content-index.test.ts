// Two pieces every event rule stands on: the content deny-list (lib/witness/content.ts), which
// must catch a content key under any spelling and no key that merely starts like one, and the
// event index (lib/witness/event-index.ts), which decides which events are eval.* and which trial
// an eval.scored grades.

import { describe, expect, it } from 'vitest';
import { expectRun } from '../../lib/eval-gate-witness.ts';
import {
  contentName,
  findContentKey,
  isContentKey,
  judgeContent,
} from '../../lib/witness/content.ts';
import { indexEvents, isTrialIn } from '../../lib/witness/event-index.ts';
import {
  asObservation,
  GATED,
  gatedObservation,
  scoredPayload,
  UNGATED,
  ungatedObservation,
  type Draft,
} from './build.ts';

describe('a content key under any spelling', () => {
  it('reads a key folded to lower case, without an x-, openwop- or vendor.<name>. prefix', () => {
    expect(
      ['Prompt', 'X-Prompt', 'openwop-Body', 'vendor.acme.Completion', 'vendor.token', 'x-'].map(
        contentName,
      ),
    ).toEqual(['prompt', 'prompt', 'body', 'completion', 'token', '']);
  });

  it('matches the whole remaining name only', () => {
    expect(
      ['APIKEY', 'x-taskOutput', 'outputFormat', 'tokenCount', 'my-prompt', 'vendor.acme'].map(
        isContentKey,
      ),
    ).toEqual([true, true, false, false, false, false]);
  });

  it('is found at any depth, through arrays, with its path', () => {
    expect(findContentKey({ a: [1, { b: [{}, { secret: 1 }] }] })).toBe('.a[1].b[1].secret');
    expect(findContentKey({ a: [1, 'prompt', null], b: { c: null } })).toBeNull();
    expect(findContentKey('prompt')).toBeNull();
    expect(findContentKey(null)).toBeNull();
    expect(findContentKey([{ output: 1 }])).toBe('[0].output');
  });

  it('is an own key, never one inherited', () => {
    const inherited = Object.create({ prompt: 'p' }) as object;
    expect(findContentKey({ nested: inherited })).toBeNull();
  });
});

describe('content-free in words', () => {
  function content(draft: Draft, fixture = GATED): string[] {
    const observation = asObservation(draft);
    return judgeContent(indexEvents(observation, expectRun(fixture)), draft.summary).map(
      (f) => `${String(f.ok)} ${f.message}`,
    );
  }

  it('counts the eval.* payloads it read', () => {
    expect(content(gatedObservation())).toEqual([
      'true none of 8 eval.* payloads carries a content key',
      'true the summary carries no content key',
    ]);
  });

  it('counts the payloads carrying content and places the first one in the log', () => {
    const draft = gatedObservation();
    scoredPayload(draft, 'wrong-path', 1).output = 'refunded';
    scoredPayload(draft, 'plain', 2)['x-trace'] = [{ Prompt: 'where is O-3?' }];
    expect(content(draft)[0]).toBe(
      'false eval.* payloads MUST NOT carry task content; 2 of 8 eval.* payloads do (eval.scored at log position 7: payload.output)',
    );
  });

  it('names the path of the first content key in the summary', () => {
    const draft = ungatedObservation();
    (draft.summary as Record<string, unknown>)['x-debug'] = { echo: [{ body: 'b' }] };
    expect(content(draft, UNGATED)[1]).toBe(
      'false the summary MUST NOT carry task content; it has summary.x-debug.echo[0].body',
    );
  });
});

describe('the event index', () => {
  it('takes eval.* events by type, in log order, with their log positions', () => {
    const draft = gatedObservation();
    draft.events.splice(1, 0, { sequence: 0.5, type: 'eval.note', runId: 'r', payload: 1 });
    draft.events.push({ sequence: 99, type: 'evalx.started', runId: 'r' });
    draft.events.push({ sequence: 100, type: 7, runId: 'r' });
    const index = indexEvents(asObservation(draft), expectRun(GATED));
    expect(index.evalEvents.map((e) => [e.position, e.type]).slice(0, 3)).toEqual([
      [0, 'eval.started'],
      [1, 'eval.note'],
      [3, 'eval.scored'],
    ]);
    expect(index.evalEvents).toHaveLength(9);
    expect(index.started.map((e) => e.position)).toEqual([0]);
    expect(index.completed.map((e) => e.position)).toEqual([14]);
    expect(index.scored).toHaveLength(6);
    expect([...index.scoredByTask.keys()]).toEqual(['right-path', 'wrong-path', 'plain']);
    expect(index.events).toHaveLength(18);
  });

  it('reads no events from an observation whose events are not a list', () => {
    const draft = gatedObservation();
    (draft as { events: unknown }).events = { 0: { type: 'eval.started' } };
    const index = indexEvents(asObservation(draft), expectRun(GATED));
    expect([index.events, index.evalEvents]).toEqual([[], []]);
  });

  it('places a scored event in trial 1..n with a trials block, and in trial 1 without one', () => {
    const draft = gatedObservation();
    scoredPayload(draft, 'plain', 2).taskId = 3;
    scoredPayload(draft, 'plain', 1).trial = 0;
    const index = indexEvents(asObservation(draft), expectRun(GATED));
    expect(index.scored.map((e) => [e.taskId, e.trial])).toEqual([
      ['right-path', 1],
      ['right-path', 2],
      ['wrong-path', 1],
      ['wrong-path', 2],
      ['plain', undefined],
      [undefined, 2],
    ]);
    expect(index.scoredByTask.get('plain')).toHaveLength(1);
    const ungated = ungatedObservation();
    scoredPayload(ungated, 'alpha').trial = 5;
    const plain = indexEvents(asObservation(ungated), expectRun(UNGATED));
    expect(plain.scored.map((e) => [e.reportedTrial, e.trial])).toEqual([
      [5, 1],
      [undefined, 1],
    ]);
  });

  it('takes as a trial number an integer from 1 to n only', () => {
    expect([1, 3, 0, 4, 1.5, '1', Infinity].map((v) => isTrialIn(v, 3))).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
