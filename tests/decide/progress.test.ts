// Progress lines on a clock the test holds: what a waiting leg's line says at each stage of its
// drive, that a finished leg says nothing more, and that the lines come once per interval.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProgressBoard, progressLine, reportProgress } from '../../lib/decide/progress.ts';

describe('progressLine', () => {
  it('names the run, the events seen, what the leg waits for and for how long of its bound', () => {
    const leg = { name: 'mean-gated', startedAt: 1_000, runId: 'r-12', events: 7 };
    expect(progressLine({ ...leg, waiting: 'terminal-event' }, 41_000, 120_000)).toBe(
      'waiting: mean-gated run r-12: 7 events, waiting for run.completed (40 s of 120 s)',
    );
    expect(progressLine({ ...leg, waiting: 'summary' }, 1_400, 60_000)).toBe(
      'waiting: mean-gated run r-12: 7 events, waiting for the eval summary (0 s of 60 s)',
    );
  });

  it('says there is no run yet while the create is unanswered', () => {
    expect(
      progressLine(
        { name: 'miss-gated', startedAt: 0, events: 0, waiting: 'create' },
        12_600,
        120_000,
      ),
    ).toBe('waiting: miss-gated no run yet, waiting for POST /runs to be answered (13 s of 120 s)');
  });
});

describe('ProgressBoard', () => {
  it('follows each watch, passes what it sees on, and forgets a leg once it is done', () => {
    let clock = 0;
    const board = new ProgressBoard(120_000, () => clock);
    const created: string[] = [];
    const a = board.watch('a', { created: (id) => created.push(id) });
    const b = board.watch('b');
    a.waiting?.('create');
    b.waiting?.('create');
    a.created?.('t/r-1');
    a.waiting?.('terminal-event');
    a.events?.(3);
    clock = 10_000;
    expect(board.lines()).toEqual([
      'waiting: a run t/r-1: 3 events, waiting for run.completed (10 s of 120 s)',
      'waiting: b no run yet, waiting for POST /runs to be answered (10 s of 120 s)',
    ]);
    expect(created).toEqual(['t/r-1']);
    a.done();
    b.done();
    expect(board.lines()).toEqual([]);
  });
});

describe('reportProgress', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports every interval while legs wait, and never after it is stopped', () => {
    vi.useFakeTimers();
    const board = new ProgressBoard(120_000, () => 0);
    board.watch('slow').waiting?.('terminal-event');
    const lines: string[] = [];
    const stop = reportProgress(board, 10_000, (line) => lines.push(line));
    vi.advanceTimersByTime(9_999);
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(lines).toHaveLength(1);
    vi.advanceTimersByTime(20_000);
    expect(lines).toHaveLength(3);
    stop();
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(3);
  });
});
