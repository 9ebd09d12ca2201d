// The harness floor: one trivial test, started through vitest from code exactly as the legs file
// is, so that its wall time is what vitest alone costs (start, collect, one worker, report, close).

import { expect, it } from 'vitest';

it('a worker runs one test and reports back', () => {
  expect(process.versions.node.split('.').length).toBe(3);
});
