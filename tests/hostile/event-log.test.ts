// Hosts whose event log or cursor is wrong. A log the suite received is judged: a wrong one is
// `executed-fail`. A log that never reaches its end within the run deadline could not be
// observed, which contract §9 makes `blocked` ("run not terminal within the bound").

import { beforeAll, describe, expect, it } from 'vitest';
import type { HostileOptions } from '../support/hostile-host.ts';
import {
  HOSTILE_RUN_ID,
  correctEvents,
  expectOutcome,
  logPage,
  runOnHostileHost,
  warmUp,
  HOSTILE_BOUNDS,
  RUN_NOT_TERMINAL,
} from '../support/hostile-host.ts';
import { BACKOFF } from '../../lib/observe/driver.ts';
import { sendJson } from '../support/scripted-server.ts';

beforeAll(warmUp);

/** The asks the backoff schedule makes before `ms` run out, the first included. */
function scheduledAsks(ms: number): number {
  let asks = 1;
  let waited = 0;
  let step: number = BACKOFF.initialMs;
  while (waited < ms) {
    waited += step;
    step = Math.min(step * BACKOFF.factor, BACKOFF.maxMs);
    asks += 1;
  }
  return asks;
}

const failedRules = (findings: readonly { rule: string; ok: boolean }[]): string[] =>
  findings.filter((f) => !f.ok).map((f) => f.rule);

/** The correct log re-ordered or repeated by position (0-based), served as one terminal page. */
function onePage(positions: readonly number[]): HostileOptions {
  const log = correctEvents(HOSTILE_RUN_ID);
  const events = positions.map((i) => log[i]);
  return { routes: { poll: ({ response }) => sendJson(response, 200, logPage(events, true)) } };
}

describe.concurrent('a wrong event log is judged and fails the leg', () => {
  it.each([
    [
      'a duplicated sequence',
      [0, 1, 1, 2, 3, 4],
      ['events.sequence-ascending', 'events.scored-count'],
    ],
    ['sequences out of order', [0, 2, 1, 3, 4], ['events.sequence-ascending']],
  ])('a log with %s is executed-fail', async (_, positions, rules) => {
    const { run } = await runOnHostileHost(onePage(positions));
    expectOutcome(run, 'executed-fail', /MUST finding/);
    for (const rule of rules) expect(failedRules(run.outcome.findings)).toContain(rule);
  });

  it('events that name another run are executed-fail', async () => {
    const { run } = await runOnHostileHost({
      events: correctEvents('hostile-tenant/run-00000000000002'),
    });
    expectOutcome(run, 'executed-fail', /events\.run-id/);
  });

  it('a cursor that ignores afterSequence and repeats the first page is executed-fail', async () => {
    const { run, host } = await runOnHostileHost({
      routes: {
        poll: ({ response }) =>
          sendJson(response, 200, logPage(correctEvents(HOSTILE_RUN_ID).slice(0, 2), false)),
      },
    });
    expectOutcome(run, 'executed-fail', /MUST finding/);
    expect(failedRules(run.outcome.findings)).toContain('events.cursor');
    // The repeat is seen on the second page; the suite stops there instead of looping, and
    // each of the three replays of the log (after 0, 1 and 2) stops at its first page.
    expect(host.calls('poll')).toBe(2 + 3);
    // The broken cursor is the cause: the reason quotes it first, and what the suite could not
    // read because it stopped (the repeated sequences, the missing eval.* events) is marked as
    // following from it and listed after it.
    expect(run.outcome.reason).toMatch(
      /^\d+ MUST findings failed: events\.cursor \(contract §6\): /,
    );
    const failed = run.outcome.findings.filter((f) => !f.ok && f.severity === 'MUST');
    expect(failed.map((f) => [f.rule, f.consequenceOf])).toEqual([
      ['events.cursor', undefined],
      ['events.sequence-ascending', 'events.cursor'],
      ['events.started-first', 'events.cursor'],
      ['events.completed-once', 'events.cursor'],
      ['events.run-completed', 'events.cursor'],
      ['events.scored-count', 'events.cursor'],
    ]);
    expect(run.outcome.reason).toContain(
      'events.sequence-ascending (contract §6), following from events.cursor: ',
    );
  });

  it('a fast host that answers the whole log in one page whatever the cursor is executed-fail', async () => {
    const { run, host } = await runOnHostileHost({
      routes: {
        poll: ({ response }) =>
          sendJson(response, 200, logPage(correctEvents(HOSTILE_RUN_ID), true)),
      },
    });
    expectOutcome(run, 'executed-fail', /MUST finding/);
    // The first read alone is clean; only the replays through the cursor show the fault.
    const must = run.outcome.findings.filter((f) => f.severity === 'MUST');
    expect(failedRules(must)).toEqual(['events.cursor']);
    expect(host.calls('poll')).toBe(1 + 3);
  });

  it('a cursor that goes back to the start after the first page is executed-fail', async () => {
    const { run } = await runOnHostileHost({
      routes: {
        poll: ({ call, response, correct }) =>
          call === 2
            ? sendJson(response, 200, logPage(correctEvents(HOSTILE_RUN_ID), true))
            : correct(),
      },
    });
    expectOutcome(run, 'executed-fail', /MUST finding/);
    expect(failedRules(run.outcome.findings)).toContain('events.cursor');
  });

  it('a lastSequence that goes backwards is executed-fail', async () => {
    const { run } = await runOnHostileHost({
      routes: {
        poll: ({ call, response, correct }) => {
          if (call !== 2) return correct();
          const page = logPage(correctEvents(HOSTILE_RUN_ID).slice(2, 4), false);
          return sendJson(response, 200, { ...page, lastSequence: 0 });
        },
      },
    });
    expectOutcome(run, 'executed-fail', /MUST finding/);
    expect(failedRules(run.outcome.findings)).toContain('events.cursor');
  });

  it('a log that says terminal early and then carries on is judged on the end it claimed', async () => {
    const { run, host } = await runOnHostileHost({
      routes: {
        poll: ({ call, response }) =>
          sendJson(response, 200, logPage(correctEvents(HOSTILE_RUN_ID).slice(0, 2), call === 1)),
      },
    });
    expectOutcome(run, 'executed-fail', /MUST finding/);
    expect(failedRules(run.outcome.findings)).toEqual(
      expect.arrayContaining(['events.completed-once', 'events.scored-count']),
    );
    // One read to the claimed end, then one page for each of the three replays.
    expect(host.calls('poll')).toBe(1 + 3);
  });
});

describe.concurrent('a log that never ends blocks the leg within the run deadline', () => {
  it('empty pages that are never terminal are blocked, paced rather than spun', async () => {
    const { run, host } = await runOnHostileHost({
      routes: { poll: ({ response }) => sendJson(response, 200, logPage([], false)) },
    });
    expectOutcome(run, 'blocked', /\(events\)/, RUN_NOT_TERMINAL);
    // The host answers at once, so the suite waits 50, 100, 200, 400, 800, then 1000 ms between
    // asks: 8 asks in a 3 s run deadline, where a spinning suite would make thousands. A busy
    // machine only makes the waits longer, so the schedule bounds the asks from above.
    expect(scheduledAsks(3_000)).toBe(8);
    expect(host.calls('poll')).toBeLessThanOrEqual(scheduledAsks(HOSTILE_BOUNDS.runTimeoutMs) + 2);
  });

  it('an isTerminal that is the string "true" never ends the log and is blocked', async () => {
    const { run } = await runOnHostileHost({
      routes: {
        poll: ({ response, afterSequence }) => {
          const rest = correctEvents(HOSTILE_RUN_ID).filter(
            (e) => afterSequence === null || (e.sequence as number) > afterSequence,
          );
          return sendJson(response, 200, logPage(rest, 'true'));
        },
      },
    });
    expectOutcome(run, 'blocked', RUN_NOT_TERMINAL);
  });
});

describe.concurrent('run ids that are not plain path segments still address their run', () => {
  // Contract §1 allows `/` in a run id; a correct host with an awkward id must pass, and every
  // run request must reach it as one segment that decodes to exactly that id.
  it.each([
    ['a slash', 'tenant-7/run-1'],
    ['dot segments', '..'],
    ['a traversal', 'a/../../.well-known/openwop'],
    ['a percent sign', 'run%2F1%'],
    ['a query and a fragment', 'run?afterSequence=99#x'],
  ])('a run id with %s is sent as one segment and the correct run passes', async (_, runId) => {
    const { run, host } = await runOnHostileHost({ runId });
    expect(run.outcome.disposition, run.outcome.reason).toBe('executed-pass');
    expect(host.calls('other')).toBe(0);
    expect(host.calls('status')).toBe(1);
    expect(host.calls('summary')).toBe(1);
  });
});

describe.concurrent('a finished log paged with every page terminal is read to its end', () => {
  // Upstream's isTerminal says the run is terminal (openwop/openwop spec/v2/core/events.md,
  // Poll), not that the page ends the log, so a host paging a finished log may say it on each.
  const everyPageTerminal = (): HostileOptions => {
    const log = correctEvents(HOSTILE_RUN_ID);
    const highest = log.length - 1;
    return {
      routes: {
        poll: ({ response, afterSequence }) => {
          const rest = log.slice(afterSequence === null ? 0 : afterSequence + 1);
          sendJson(response, 200, {
            runId: HOSTILE_RUN_ID,
            events: rest.slice(0, 2),
            lastSequence: highest,
            status: 'completed',
            isTerminal: true,
          });
        },
      },
    };
  };

  it('follows the pages up to lastSequence and passes the leg', async () => {
    const { run, host } = await runOnHostileHost(everyPageTerminal());
    expect(run.outcome.disposition, JSON.stringify(failedRules(run.outcome.findings))).toBe(
      'executed-pass',
    );
    // Three pages of two make the whole log of the first read, before the replays.
    expect(host.calls('poll')).toBeGreaterThanOrEqual(3);
  });

  it('stops at an empty terminal page whose lastSequence was never delivered, and judges it', async () => {
    const log = correctEvents(HOSTILE_RUN_ID);
    const { run } = await runOnHostileHost({
      routes: {
        poll: ({ response, afterSequence }) => {
          const rest = log.slice(afterSequence === null ? 0 : afterSequence + 1);
          sendJson(response, 200, {
            runId: HOSTILE_RUN_ID,
            events: rest.slice(0, 2),
            lastSequence: log.length + 5,
            status: 'completed',
            isTerminal: true,
          });
        },
      },
    });
    expectOutcome(run, 'executed-fail', /MUST finding/);
    expect(failedRules(run.outcome.findings)).toContain('events.last-sequence');
  });
});
