// The row shapes of the upstream corpus, and the vendor-hatch keys rows put where a hatch exists.

import type { SchemaName } from '../../../lib/schemas.ts';

export type Doc = Record<string, unknown>;

export interface Accepted {
  readonly schema: SchemaName;
  readonly what: string;
  readonly instance: () => unknown;
}

/** `instance` with the member at the JSON pointer `set` replaced by `to` (or removed, without). */
export interface Rejected {
  readonly schema: SchemaName;
  readonly what: string;
  readonly instance: () => unknown;
  readonly set?: string;
  readonly to?: unknown;
  readonly keyword: string;
  /** Where the error is reported; defaults to `set`, or the root. */
  readonly at?: string;
  /** The member Ajv names in its params (the extra or the missing property). */
  readonly member?: string;
}

/** One key of each hatch prefix, with values of different types: a hatch key accepts any value. */
export const HATCH_KEYS = {
  'x-acme-trace': { any: ['value'] },
  'openwop-note': 7,
  'vendor.acme.flag': null,
};
