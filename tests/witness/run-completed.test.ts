// events.run-completed in words (lib/witness/run-completed.ts): each test changes the end of a
// correct gated log (sequences 1..15, run.completed at 15) and pins what the finding says.

import { describe, expect, it } from 'vitest';
import { eventOf, GATED, type Draft } from './build.ts';
import { judgedBy } from './mutate.ts';

const MUST =
  'exactly one run.completed MUST end the log, after eval.completed, with outputs an object (the published payload requires it; {} will do); ';

function judged(mutate: (d: Draft) => void): { failing: string[]; said: string[] } {
  const { failing, said } = judgedBy('events.run-completed', GATED, mutate);
  // An envelope recorded on one event alone is judged by the SHOULD wire rules as well; they
  // read the other members, which this file does not build.
  return { failing: failing.filter((rule) => !rule.startsWith('wire.')), said };
}

/** Records the outputs JSON type on run.completed, as the driver does. */
function withOutputs(outputs: string): (d: Draft) => void {
  return (d) => {
    const last = eventOf(d, 'run.completed') as Draft['events'][number] & { envelope?: unknown };
    last.envelope = { json: 'object', members: {}, payload: 'object', outputs };
  };
}

describe('events.run-completed holds', () => {
  it('for one run.completed, last, after eval.completed, with outputs an object', () => {
    expect(judged(withOutputs('object'))).toEqual({ failing: [], said: [] });
  });

  it('on count and place alone when the observation does not record the outputs', () => {
    expect(judged(() => undefined).failing).toEqual([]);
  });
});

describe('events.run-completed fails', () => {
  it('a log that never emits run.completed', () => {
    const { failing, said } = judged((d) => {
      d.events.pop();
    });
    expect(failing).toContain('events.run-completed');
    expect(said).toEqual([`${MUST}saw 0 run.completed events`]);
  });

  it('a run.completed whose payload has no outputs, naming where it is', () => {
    expect(judged(withOutputs('absent'))).toEqual({
      failing: ['events.run-completed'],
      said: [`${MUST}the run.completed payload at sequence 15 has no outputs member`],
    });
  });

  it('outputs that are not an object', () => {
    expect(judged(withOutputs('array')).said).toEqual([
      `${MUST}the run.completed payload at sequence 15 has outputs of JSON type array`,
    ]);
  });

  it('two run.completed events', () => {
    const { said } = judged((d) => {
      const scored = eventOf(d, 'agent.invocation-completed', 0);
      scored.type = 'run.completed';
    });
    expect(said).toEqual([`${MUST}saw 2 run.completed events`]);
  });

  it('a run.completed before eval.completed, which is then not the last event either', () => {
    const { failing, said } = judged((d) => {
      const completed = eventOf(d, 'eval.completed');
      const run = eventOf(d, 'run.completed');
      [completed.type, completed.payload, run.type, run.payload] = [
        run.type,
        run.payload,
        completed.type,
        completed.payload,
      ];
    });
    expect(failing).toEqual(['events.run-completed']);
    expect(said).toEqual([
      `${MUST}run.completed is at sequence 14, followed by eval.completed at sequence 15; run.completed is at sequence 14, before eval.completed at sequence 15`,
    ]);
  });
});
