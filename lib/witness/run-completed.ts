// The run's own end (contract §7): one `run.completed`, the last event of the log, after
// `eval.completed`, carrying `outputs` as an object, which the published payload requires
// (`openwop/openwop spec/v2/core/events.md`: an empty object is valid, an absent key is not).
// The outputs themselves are not kept by the driver, only their JSON type; an observation
// recorded without it is judged on count and place alone.

import type { Finding } from '../types.ts';
import type { EventIndex } from './event-index.ts';
import { describe, finding, member, plural, whereIs } from './finding.ts';

const TYPE = 'run.completed';

export function judgeRunCompleted(index: EventIndex): Finding {
  const events = index.events;
  const positions: number[] = [];
  events.forEach((event, position) => {
    if (member(event, 'type') === TYPE) positions.push(position);
  });
  const problems: string[] = [];
  const only = positions.length === 1 ? positions[0] : undefined;
  if (only === undefined) {
    problems.push(`saw ${plural(positions.length, 'run.completed event')}`);
  } else {
    const at = whereIs(events[only], only);
    const last = events.length - 1;
    if (only !== last) {
      const next = events[only + 1];
      const type = member(next, 'type');
      problems.push(
        `run.completed is ${at}, followed by ${typeof type === 'string' ? type : `an event of type ${describe(type)}`} ${whereIs(next, only + 1)}`,
      );
    }
    const completed = index.completed[0];
    if (completed !== undefined && completed.position > only) {
      problems.push(
        `run.completed is ${at}, before eval.completed ${whereIs(events[completed.position], completed.position)}`,
      );
    }
    const outputs = member(member(events[only], 'envelope'), 'outputs');
    if (outputs === 'absent') {
      problems.push(`the run.completed payload ${at} has no outputs member`);
    } else if (typeof outputs === 'string' && outputs !== 'object') {
      problems.push(`the run.completed payload ${at} has outputs of JSON type ${outputs}`);
    }
  }
  const ok = problems.length === 0;
  return finding(
    'events.run-completed',
    ok,
    ok
      ? 'exactly one run.completed, the last event, after eval.completed'
      : `exactly one run.completed MUST end the log, after eval.completed, with outputs an object (the published payload requires it; {} will do); ${problems.join('; ')}`,
  );
}
