// What the first read of the log keeps of each event: the payload of `eval.*` events only (the
// witness reads no other), the JSON type of `run.completed`'s outputs, and the envelope's other
// members for the wire rules. The reader is driven alone, with a scripted client.

import { describe, expect, it } from 'vitest';
import { readLog } from '../../lib/observe/log-reader.ts';
import { LOG_PATH, page, scriptedLog } from '../support/scripted-log.ts';

/** The events the first read keeps of one terminal page carrying `raw`. */
async function kept(...raw: unknown[]) {
  const log = scriptedLog([{ body: page(raw, true, raw.length) }]);
  const step = await readLog(log.run, LOG_PATH);
  if (!step.ok) throw new Error(`the read ended ${JSON.stringify(step.result)}`);
  return step.value.events;
}

const at = (sequence: number, type: unknown, rest: Record<string, unknown> = {}) => ({
  sequence,
  type,
  runId: 'r',
  ...rest,
});

describe('the payload is kept for eval.* events only', () => {
  it('an eval.* payload is kept; a payload of another type, or of a type that is not a string, is not', async () => {
    const events = await kept(
      at(1, 'eval.scored', { payload: { score: 1 } }),
      at(2, 'agent.tool-called', { payload: { tool: 'search' } }),
      at(3, ['eval.scored'], { payload: { score: 0 } }),
    );
    expect(events).toStrictEqual([
      {
        ...at(1, 'eval.scored'),
        payload: { score: 1 },
        envelope: { json: 'object', members: {}, payload: 'object' },
      },
      {
        ...at(2, 'agent.tool-called'),
        envelope: { json: 'object', members: {}, payload: 'object' },
      },
      { ...at(3, ['eval.scored']), envelope: { json: 'object', members: {}, payload: 'object' } },
    ]);
  });
});

describe("run.completed's outputs are recorded by their JSON type", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['an object of outputs', { payload: { outputs: { answer: 42 } } }, 'object'],
    ['outputs that are an array', { payload: { outputs: [1] } }, 'array'],
    ['a payload without outputs', { payload: {} }, 'absent'],
    ['a payload that is not an object', { payload: 'done' }, 'absent'],
    ['no payload at all', {}, 'absent'],
  ])('%s', async (_name, rest, outputs) => {
    const [event] = await kept(at(1, 'run.completed', rest));
    expect(event?.envelope).toMatchObject({ outputs });
  });

  it('another event records no outputs, whatever its payload holds', async () => {
    const [event] = await kept(at(1, 'run.failed', { payload: { outputs: {} } }));
    expect(event?.envelope).not.toHaveProperty('outputs');
  });
});

describe('the envelope', () => {
  it('an event that is not an object is kept by its JSON type alone', async () => {
    expect(await kept(7)).toStrictEqual([
      { sequence: undefined, type: undefined, runId: undefined, envelope: { json: 'number' } },
    ]);
  });

  it('keeps the members read nowhere else, a member named __proto__ among them', async () => {
    const raw = JSON.parse(
      '{"sequence":1,"type":"eval.started","runId":"r","eventId":"e1","__proto__":{"x":1}}',
    ) as unknown;
    const [event] = await kept(raw);
    const members = event?.envelope?.members ?? {};
    expect(Object.keys(members)).toEqual(['eventId', '__proto__']);
    expect(Object.getPrototypeOf(members)).toBe(Object.prototype);
    expect(event?.envelope?.payload).toBe('absent');
  });
});
