// A host that echoes the bearer token it receives, in every encoding a careless host writes it
// in: `\u`-escaped inside a JSON string (JSON.parse turns it back into the token), percent-
// encoded, and the whole Authorization header base64-encoded. The key holds a `"`, so its JSON
// form differs from its raw form. Nothing the run prints or writes may hold the key or any
// near-miss token made from it, in any of those forms, and the report shows where the echo was cut.

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runConformance } from '../../cli/conformance.ts';
import { resolveConfig } from '../../lib/env.ts';
import { holdsSecretForm, keyAndTokens, scrubSecretForms } from '../../lib/secret-forms.ts';
import { REDACTED } from '../../lib/secrets.ts';
import { startHostileHost } from '../support/hostile-host.ts';

const KEY = 'sk-"quote-DO-NOT-LEAK-4242';

/** Every character as `\uXXXX`, as a JSON encoder that escapes all but ASCII letters might. */
function unicodeEscaped(text: string, upper = false): string {
  return [...text]
    .map((c) => {
      const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    })
    .join('');
}

function percentEncoded(text: string): string {
  return [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

/** The forms a test looks for, computed here from the token alone, not by the code under test. */
function formsOf(token: string): string[] {
  return [
    token,
    JSON.stringify(token).slice(1, -1),
    unicodeEscaped(token),
    unicodeEscaped(token, true),
    percentEncoded(token),
    encodeURIComponent(token),
    Buffer.from(`Bearer ${token}`).toString('base64'),
  ];
}

/** The key and the four near-miss tokens, derived here as the probes derive them. */
const TOKENS = [
  KEY,
  `${KEY.slice(0, -1)}A`,
  `${KEY}A`,
  [...KEY].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join(''),
  KEY.slice(0, -1),
];

describe('the key and its near-miss tokens in every form', () => {
  it('each form of each token is found and scrubbed, and ordinary text is left whole', () => {
    expect(new Set(keyAndTokens(KEY))).toEqual(new Set(TOKENS));
    for (const token of TOKENS) {
      for (const form of formsOf(token)) {
        const text = `before ${form} after`;
        expect(holdsSecretForm(text, TOKENS), form).toBe(true);
        const clean = scrubSecretForms(text, TOKENS);
        expect(clean, form).toContain(REDACTED);
        expect(holdsSecretForm(clean, TOKENS), form).toBe(false);
      }
    }
    // A form mixing escapes within one token is found as well.
    const mixed = `sk-\\"quote%2DDO-NOT-\\u004cEAK-4242`;
    expect(holdsSecretForm(mixed, TOKENS)).toBe(true);
    const ordinary = 'loopback 127.0.0.1: 401 "unauthenticated" (Bearer token refused) %41 \\u0041';
    expect(scrubSecretForms(ordinary, TOKENS)).toBe(ordinary);
  });

  it('a key with no character JSON escapes is still found in each form beside JSON escapes', () => {
    // Such a key can only be escaped as `\u` or `%`: the scrubber's plain search skips texts with
    // neither, which is most host answers, so each form is tried inside an escaped JSON string.
    const plain = ['sk-plain-DO-NOT-LEAK-4242', 'sk-plain-DO-NOT-LEAK-424'];
    for (const token of plain) {
      for (const form of formsOf(token)) {
        const text = `{"echo":"said \\"${form}\\"\\n"}`;
        expect(holdsSecretForm(text, plain), form).toBe(true);
        expect(holdsSecretForm(scrubSecretForms(text, plain), plain), form).toBe(false);
      }
    }
    const ordinary = '{"echo":"said \\"sk-plain\\" and \\\\ and \\/"}';
    expect(scrubSecretForms(ordinary, plain)).toBe(ordinary);
  });
});

let reportDir = '';
beforeEach(async () => {
  reportDir = await mkdtemp(join(tmpdir(), 'eval-gate-secret-forms-'));
});
afterEach(async () => {
  await rm(reportDir, { recursive: true, force: true });
});

/** Every file the run wrote, inflated where it is gzip. */
async function writtenFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of await readdir(reportDir, { recursive: true })) {
    const path = join(reportDir, name);
    const bytes = await readFile(path).catch(() => undefined);
    if (bytes === undefined) continue;
    files.set(path, (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
  }
  return files;
}

describe('a host that echoes what it was sent, escaped and encoded', () => {
  it('no form of the key or of a near-miss token reaches any output or file', async () => {
    const host = await startHostileHost({
      routes: {
        create: (exchange) => {
          const sent = exchange.request.headers.authorization ?? '';
          if (sent === `Bearer ${KEY}`) return exchange.correct();
          const token = sent.replace(/^Bearer /, '');
          // Written by hand: JSON.stringify would not escape the letters.
          const body =
            `{"error":{"code":"unauthenticated","message":"refused ${unicodeEscaped(token)}",` +
            `"details":{"url":"/v2/runs?key=${percentEncoded(token)}",` +
            `"header":"${Buffer.from(sent).toString('base64')}"}}}`;
          exchange.response.writeHead(401, { 'content-type': 'application/json' });
          exchange.response.end(body);
          return undefined;
        },
      },
    });
    const lines: string[] = [];
    try {
      const config = resolveConfig({
        OPENWOP_BASE_URL: host.url,
        OPENWOP_API_KEY: KEY,
        OPENWOP_REPORT_DIR: reportDir,
        OPENWOP_REQUEST_TIMEOUT_MS: '2000',
        OPENWOP_RUN_TIMEOUT_MS: '8000',
        OPENWOP_POLL_TIMEOUT_S: '1',
      });
      await runConformance(config, { log: (line) => lines.push(line) });
      const sent = new Set(host.requests.map((r) => r.headers.authorization ?? ''));
      // The near-miss tokens went out and were echoed back.
      expect(sent.has(`Bearer ${TOKENS[3]}`)).toBe(true);
      expect(sent.has(`Bearer ${TOKENS[4]}`)).toBe(true);
    } finally {
      await host.close();
    }
    const files = await writtenFiles();
    const report = files.get(join(reportDir, 'eval-gate-report.json')) ?? '';
    expect(report, 'the echo reached the report, cut where the token stood').toContain(REDACTED);
    const texts = [['output', lines.join('\n')], ...files] as const;
    expect(files.size).toBeGreaterThanOrEqual(4);
    for (const [where, text] of texts) {
      for (const token of TOKENS) {
        for (const form of formsOf(token))
          expect(text.includes(form), `${where}: ${form}`).toBe(false);
      }
      // The tell-tale fragment, with every \u and % escape undone, in either case.
      const decoded = text
        .replace(/\\u([0-9a-fA-F]{4})/g, (_m, hex: string) =>
          String.fromCharCode(parseInt(hex, 16)),
        )
        .replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      expect(decoded.toUpperCase(), where).not.toContain('DO-NOT-LEAK');
    }
  });
});
