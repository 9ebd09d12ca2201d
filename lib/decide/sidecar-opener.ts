// How a sidecar is opened for reading, apart from the replay that reads it: the run's writer and
// the page name these without loading the pack generator (and fast-check) that the replay needs.

import type { GeneratedSidecar } from '../types.ts';

/** A sidecar being read: its decompressed lines, then what was read of the compressed file. */
export interface SidecarRead {
  /** Throws when the file is missing, not gzip, or ends inside a member. */
  readonly lines: AsyncIterable<string>;
  /** The digest and size of the compressed bytes read so far (all of them, once `lines` ends). */
  readonly digest: () => Pick<GeneratedSidecar, 'sha256' | 'bytes'>;
}

export type SidecarOpener = (file: string) => SidecarRead;

/** An opener whose every read fails, saying `why`: where no sidecar can be read at all. */
export function unreadableSidecars(why: string): SidecarOpener {
  return (file) => ({
    lines: {
      // eslint-disable-next-line require-yield
      async *[Symbol.asyncIterator]() {
        throw new Error(`${why}, so ${file} cannot be read`);
      },
    },
    digest: () => ({ sha256: '', bytes: 0 }),
  });
}
