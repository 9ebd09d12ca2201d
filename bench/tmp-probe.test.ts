import { describe, inject, it } from 'vitest';
import type { SuiteConfig } from '../lib/env.ts';
import { LEGS } from '../lib/legs.ts';
import { runLeg } from '../lib/run-leg.ts';
import { openTarget } from '../lib/target.ts';
const at = () => (performance.timeOrigin + performance.now()) % 100000;
console.error('module eval', at().toFixed(0));
const config = inject('evalGateConfig' as never) as SuiteConfig;
let opened: ReturnType<typeof openTarget> | undefined;
describe.concurrent('probe', () => {
  for (const leg of LEGS) {
    it(leg.id, async () => {
      const s = at();
      const t = await (opened ??= openTarget(config));
      const s2 = at();
      const o = await runLeg(leg, t);
      console.error(leg.id.slice(26), 'start', s.toFixed(0), 'target', s2.toFixed(0), 'end', at().toFixed(0), o.disposition, o.durationMs);
    });
  }
});
