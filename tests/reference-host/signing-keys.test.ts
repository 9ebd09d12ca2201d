// The keys the reference host publishes from its flags: several at once, any of them retired at a
// time, and every flag set it cannot honour refused with the reason, never quietly published as
// something else.

import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KEY_ID, publishedKeys } from '../../reference-host/signing-keys.ts';

const pem = (): { file: string; raw: string } => {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'jwk' }).x ?? '';
  return { file: publicKey.export({ type: 'spki', format: 'pem' }).toString(), raw };
};
const OLD = pem();
const NEW = pem();
const FILES: Readonly<Record<string, string>> = { 'old.pem': OLD.file, 'new.pem': NEW.file };
const read = (path: string): string => {
  const text = FILES[path];
  if (text === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
  return text;
};

describe('the signing keys the reference host publishes', () => {
  it('publishes a lone key under the default id, and several under their ids with a retirement', () => {
    expect(publishedKeys({ files: ['old.pem'], ids: [], retirements: [] }, read)).toEqual([
      { keyId: DEFAULT_KEY_ID, publicKey: OLD.raw },
    ]);
    expect(
      publishedKeys(
        {
          files: ['new.pem', 'old.pem'],
          ids: ['host-2026-06', 'host-2026-01'],
          retirements: ['host-2026-01=2026-06-01T00:00:00Z'],
        },
        read,
      ),
    ).toEqual([
      { keyId: 'host-2026-06', publicKey: NEW.raw },
      { keyId: 'host-2026-01', publicKey: OLD.raw, retiredAt: '2026-06-01T00:00:00Z' },
    ]);
    expect(publishedKeys({ files: [], ids: [], retirements: [] }, read)).toEqual([]);
  });

  it.each([
    [
      { files: ['old.pem', 'new.pem'], ids: ['a'], retirements: [] },
      '2 --signing-key and 1 --key-id: give one --key-id per key, in the same order',
    ],
    [
      { files: ['old.pem', 'new.pem'], ids: ['a', 'a'], retirements: [] },
      '--key-id a is given twice',
    ],
    [
      { files: ['old.pem'], ids: ['a'], retirements: ['b=2026-06-01T00:00:00Z'] },
      '--retire b=2026-06-01T00:00:00Z: give ID=TIME with the id of a published key (a)',
    ],
    [
      { files: ['old.pem'], ids: ['a'], retirements: ['a'] },
      '--retire a: give ID=TIME with the id of a published key (a)',
    ],
    [
      { files: ['old.pem'], ids: ['a'], retirements: ['a=2026-06-01'] },
      '--retire a=2026-06-01: the time must be UTC in ISO 8601, such as 2026-06-01T00:00:00Z',
    ],
    [
      { files: ['old.pem'], ids: ['a'], retirements: ['a=2026-13-01T00:00:00Z'] },
      '--retire a=2026-13-01T00:00:00Z: the time must be UTC in ISO 8601, such as 2026-06-01T00:00:00Z',
    ],
    [
      {
        files: ['old.pem'],
        ids: ['a'],
        retirements: ['a=2026-06-01T00:00:00Z', 'a=2026-07-01T00:00:00Z'],
      },
      '--retire names key a twice',
    ],
    [
      { files: [], ids: ['a'], retirements: [] },
      '--key-id and --retire name keys given with --signing-key; none was given',
    ],
    [{ files: ['gone.pem'], ids: [], retirements: [] }, '--signing-key gone.pem: ENOENT'],
  ])('refuses %j in one line', (flags, message) => {
    expect(() => publishedKeys(flags, read)).toThrow(new Error(message));
  });
});
