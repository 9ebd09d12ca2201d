// The oracle host's wire details that are not documents: how a tenant-bound run id travels in a
// path (RFC 0184 projection and percent-encoding, openwop/openwop schemas/v2/ids.schema.json) and the SSE stream
// the `eventsUrl` of a created run leads to (events.md).

import type { ServerResponse } from 'node:http';
import type { Run } from './oracle-host-log.ts';

/** The protocol version of every answer. */
export const WIRE_VERSION = '2.0';

/**
 * A tenant-bound id as one path segment, in the RFC 0184 projection: every byte outside
 * [A-Za-z0-9._-] becomes `~` and two uppercase hex digits.
 */
export function projectId(id: string): string {
  return id.replace(
    /[^A-Za-z0-9._-]/g,
    (c) => `~${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** Decodes a run segment sent percent-encoded or projected; undefined when it is malformed. */
export function decodeSegment(segment: string): string | undefined {
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  if (/~(?![0-9A-Fa-f]{2})/.test(text)) return undefined;
  return text.replace(/~([0-9A-Fa-f]{2})/g, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
}

/**
 * The run's log as server-sent events (events.md: `id:` the sequence, `event:` the v2 type,
 * `data:` the RunEventDoc), so the `eventsUrl` the host hands out leads somewhere. The suite
 * polls; this stream ends when the run does.
 */
export class EventStream {
  constructor(
    readonly run: Run,
    readonly after: number | null,
  ) {}
  async pipe(res: ServerResponse, closed: () => boolean): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      'openwop-version': WIRE_VERSION,
    });
    let cursor = this.after === null || Number.isNaN(this.after) ? -1 : this.after;
    for (;;) {
      for (const event of this.run.events.filter((e) => e.sequence > cursor)) {
        res.write(
          `id: ${event.sequence}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`,
        );
        cursor = event.sequence;
      }
      if (this.run.done || closed() || res.destroyed) break;
      await this.run.waitFor(1_000);
    }
    res.end();
  }
}
