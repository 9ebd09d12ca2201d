// Preloaded into a benchmarked child (`node --import bench/cpu-probe.mjs ...`): at exit, writes the
// CPU time the process spent (user + system, every thread, in ms) to BENCH_CPU_FILE. On a shared
// machine a run's wall time tells how busy the others were; its CPU time is its own work.
import { writeFileSync } from 'node:fs';
import process from 'node:process';

const file = process.env.BENCH_CPU_FILE;
if (file !== undefined && file !== '') {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(file, String((user + system) / 1000));
  });
}
