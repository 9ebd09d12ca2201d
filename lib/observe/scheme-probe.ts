// Whether a port that hung up on a plain HTTP request speaks TLS. A TLS server drops a request
// that is not a handshake without a byte of answer, which alone reads like a host still starting;
// one handshake, bounded and carrying nothing, tells the two apart, so `--wait-for-host` can stop
// at once on `http://` to an https port instead of waiting out its deadline.

import { connect } from 'node:tls';
import { isIP } from 'node:net';

/**
 * True when a TLS handshake with the URL's host and port completes within `timeoutMs`. The
 * certificate is not checked (this asks which protocol answers, not whom to trust), and nothing
 * is sent after the handshake.
 */
export function speaksTls(baseUrl: string, timeoutMs: number): Promise<boolean> {
  const url = new URL(baseUrl);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port === '' ? 80 : url.port);
  return new Promise((resolve) => {
    const socket = connect({
      host,
      port,
      rejectUnauthorized: false,
      ...(isIP(host) === 0 ? { servername: host } : {}),
    });
    const done = (answer: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}
