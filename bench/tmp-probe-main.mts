import { startVitest } from 'vitest/node';
import { readConfig } from '/work/main/lib/env.ts';
import { startReferenceHost } from '/work/main/reference-host/index.ts';
const at = () => (performance.timeOrigin + performance.now()) % 100000;
const host = await startReferenceHost({ apiKey: 'k'.repeat(20), runDelayMs: 2000 });
const config = readConfig({ OPENWOP_BASE_URL: host.url, OPENWOP_API_KEY: 'k'.repeat(20) }, { envFile: false });
for (let i = 0; i < 2; i++) {
console.error('start vitest', at().toFixed(0));
const v = await startVitest('test', [], { root: '/work/main', config: false, watch: false, include: ['bench/tmp-probe.test.ts'], reporters: [{}], provide: { evalGateConfig: config } as never, maxWorkers: 1 }, { logLevel: 'error' });
console.error('vitest done', at().toFixed(0));
await v.close();
console.error('closed', at().toFixed(0));
}
await host.close();
