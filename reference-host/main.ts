// `openwop-eval-gate-host` (`npm run host --` in a checkout): the reference host as a process.
// Flags win over the environment.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  DEFECTS,
  parseDefectList,
  startReferenceHost,
  type DefectName,
  type ReferenceHostOptions,
} from './index.ts';
import { DEFAULT_KEY_ID, publishedKeys } from './signing-keys.ts';

const USAGE = `usage: openwop-eval-gate-host [options]   (in a checkout: npm run host -- [options])

  --port N             listen on 127.0.0.1:N (default 0, any free port)
  --api-key KEY        require "Authorization: Bearer KEY" (env OPENWOP_API_KEY); one of the
                       two, or --no-auth, is required
  --no-auth            accept every request without a key (a host that checks nothing)
  --defect A[,B...]    break these clauses together (env OPENWOP_REFERENCE_DEFECT); given once,
                       each name once; a pair that would hide one another is refused;
                       see --list-defects
  --variant varied     serve the same grading in a different wire shape
  --pacing slow        pause before every trial, so the log is read as it grows (default instant)
  --fixtures-dir DIR   also seed and list every fixture file in DIR (repeatable), such as a
                       pack from openwop-eval-gate fixtures --generate
  --signing-key PEM    publish this ed25519 public key in discovery signingKeys, so a report
                       signed with its private half can be certified; repeat it to publish
                       several, as a host does while it rotates its key
  --key-id ID          the published key's id (default ${DEFAULT_KEY_ID}); with several keys,
                       one --key-id per --signing-key, in the same order
  --retire ID=TIME     publish key ID with retiredAt TIME (UTC, 2026-06-01T00:00:00Z): it still
                       bears out reports signed before TIME, and certifies none (repeatable)
  --list-defects       print every defect and the clause it breaks
  --help               print this text
`;

/** One line and exit 2: a refused start is a configuration error, read in a CI log. */
function fail(message: string): never {
  process.stderr.write(`reference host: ${message} (--help prints the usage)\n`);
  process.exit(2);
}

/** The defects the flag (or, without it, the environment) names; none when both are empty. */
function defectsOf(flags: readonly string[] | undefined): readonly DefectName[] {
  if (flags !== undefined && flags.length > 1) {
    fail(`--defect is given ${flags.length} times; name every defect in one comma list`);
  }
  const text = flags?.[0] ?? process.env['OPENWOP_REFERENCE_DEFECT'] ?? '';
  if (text.trim() === '') return [];
  try {
    return parseDefectList(text);
  } catch (err) {
    fail((err as Error).message);
  }
}

function options(): ReferenceHostOptions {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        port: { type: 'string' },
        'api-key': { type: 'string' },
        'no-auth': { type: 'boolean' },
        defect: { type: 'string', multiple: true },
        variant: { type: 'string' },
        pacing: { type: 'string' },
        'fixtures-dir': { type: 'string', multiple: true },
        'signing-key': { type: 'string', multiple: true },
        'key-id': { type: 'string', multiple: true },
        retire: { type: 'string', multiple: true },
        'list-defects': { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (err) {
    fail((err as Error).message);
  }
  if (parsed.help === true) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  if (parsed['list-defects'] === true) {
    const width = Math.max(...DEFECTS.map((d) => d.name.length));
    for (const d of DEFECTS) {
      process.stdout.write(`${d.name.padEnd(width)}  ${d.clause}: ${d.description}\n`);
    }
    process.exit(0);
  }
  const port = Number(parsed.port ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`bad --port ${parsed.port}`);
  const defects = defectsOf(parsed.defect);
  const variant = parsed.variant ?? 'plain';
  if (variant !== 'plain' && variant !== 'varied') fail(`unknown variant ${variant}`);
  const pacing = parsed.pacing ?? 'instant';
  if (pacing !== 'instant' && pacing !== 'slow') fail(`unknown pacing ${pacing}`);
  const apiKey = parsed['api-key'] ?? process.env['OPENWOP_API_KEY'] ?? '';
  // A host that accepts anything is one the suite reports for authentication bypasses: it is
  // started that way only when asked, never by a missing key.
  if (parsed['no-auth'] === true && apiKey !== '') {
    fail('--no-auth accepts every request; it goes with neither --api-key nor OPENWOP_API_KEY');
  }
  if (parsed['no-auth'] !== true && apiKey === '') {
    fail(
      'no API key: give --api-key KEY or set OPENWOP_API_KEY, or --no-auth for a host that accepts every request',
    );
  }
  const extraFixturesDirs = parsed['fixtures-dir'] ?? [];
  let signingKeys;
  try {
    signingKeys = publishedKeys(
      {
        files: parsed['signing-key'] ?? [],
        ids: parsed['key-id'] ?? [],
        retirements: parsed.retire ?? [],
      },
      (path) => readFileSync(path, 'utf8'),
    );
  } catch (err) {
    fail((err as Error).message);
  }
  return {
    port,
    ...(extraFixturesDirs.length === 0 ? {} : { extraFixturesDirs }),
    variant,
    pacing,
    ...(signingKeys.length === 0 ? {} : { signingKey: signingKeys }),
    ...(apiKey === '' ? {} : { apiKey }),
    ...(defects.length === 0 ? {} : { defects }),
  };
}

const opts = options();
const host = await startReferenceHost(opts);
const extras = [
  opts.defects === undefined
    ? ''
    : ` (${opts.defects.length === 1 ? 'defect' : 'defects'} ${opts.defects.join(', ')})`,
  opts.variant === 'varied' ? ' (variant varied)' : '',
  opts.pacing === 'slow' ? ' (pacing slow)' : '',
].join('');
process.stdout.write(`reference host listening on ${host.url}${extras}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void host.close().then(() => process.exit(0));
  });
}
