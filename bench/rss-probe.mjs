// Preloaded into a benchmarked child (`node --import bench/rss-probe.mjs ...`): at exit, writes the
// process's own peak resident set size, in KB, to BENCH_RSS_FILE. Read from the kernel's count,
// so no polling interval can miss the peak.
import { writeFileSync } from 'node:fs';
import process from 'node:process';

const file = process.env.BENCH_RSS_FILE;
if (file !== undefined && file !== '') {
  process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
}
