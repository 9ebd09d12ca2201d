// `openwop-eval-gate`: a thin shell over runConformance. Parses, runs, prints, exits.

import { readConfig, ConfigError } from '../lib/env.ts';
import { runConformance } from './conformance.ts';
import { EXIT } from './verdict.ts';

async function main(argv: readonly string[]): Promise<number> {
  const [command = 'run'] = argv;
  if (command !== 'run') {
    process.stderr.write(`openwop-eval-gate: unknown command "${command}"; try "run"\n`);
    return EXIT.badConfiguration;
  }
  let config;
  try {
    config = readConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`openwop-eval-gate: ${error.message}\n`);
      return EXIT.badConfiguration;
    }
    throw error;
  }
  const result = await runConformance(config, { log: (line) => process.stdout.write(`${line}\n`) });
  return result.exitCode;
}

process.exitCode = await main(process.argv.slice(2));
