// Where the reference host's command lives: the package's `openwop-eval-gate-host` bin when
// package.json declares one, else the script that bin will point at in this checkout.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The command name the docs use. */
export const HOST_COMMAND = 'openwop-eval-gate-host';

/** The host bin's path relative to the package root. */
export function hostBinPath(): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    bin?: Readonly<Record<string, string>>;
  };
  return manifest.bin?.[HOST_COMMAND] ?? 'bin/reference-host.mjs';
}

/** The same, absolute in this checkout. */
export function hostBin(): string {
  return join(ROOT, hostBinPath());
}
