// What the forgery tests build a forger from: an ed25519 key pair written to a folder, and a
// server that answers discovery with a document of the forger's choosing and nothing else.

import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { rawPublicKey } from '../../lib/report/verify/signature.ts';

export interface KeyPair {
  readonly privateKey: KeyObject;
  /** The private half, PKCS #8 PEM, as `--sign` takes it. */
  readonly pem: string;
  /** The public half, SPKI PEM, as `--key` takes it. */
  readonly publicPem: string;
  /** The public key as discovery publishes it. */
  readonly raw: string;
}

/** A fresh key pair, its halves written to `dir` as NAME.pem and NAME.pub.pem. */
export async function writeKeyPair(dir: string, name: string): Promise<KeyPair> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = join(dir, `${name}.pem`);
  const publicPem = join(dir, `${name}.pub.pem`);
  await writeFile(pem, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  await writeFile(publicPem, publicKey.export({ type: 'spki', format: 'pem' }));
  return { privateKey, pem, publicPem, raw: rawPublicKey(publicKey) };
}

/** A discovery server that answers with `document` and nothing else. */
export async function discoveryServer(document: unknown): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    response.writeHead(request.url === '/.well-known/openwop' ? 200 : 404, {
      'content-type': 'application/json',
    });
    response.end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
