// The upstream corpus: instances written from the published files of contract §5, each one a document a
// conformant published-v2 host produces or accepts (ACCEPTED), or one the published structure
// refuses (REJECTED, with the keyword and, where Ajv names it, the member). Our schemas must agree
// with the published ones on every row: a false fail or a false pass shows up here first.

import { AGENTS_ACCEPTED, AGENTS_REJECTED } from './corpus/agents.ts';
import { DOCUMENTS_ACCEPTED, DOCUMENTS_REJECTED } from './corpus/documents.ts';
import { ERRORS_IDS_ACCEPTED, ERRORS_IDS_REJECTED } from './corpus/errors-ids.ts';
import { EVENTS_ACCEPTED, EVENTS_REJECTED } from './corpus/events.ts';
import type { Accepted, Rejected } from './corpus/types.ts';
import { WIRE_ACCEPTED, WIRE_REJECTED } from './corpus/wire.ts';

export type { Accepted, Rejected } from './corpus/types.ts';

export const ACCEPTED: readonly Accepted[] = [
  ...DOCUMENTS_ACCEPTED,
  ...EVENTS_ACCEPTED,
  ...AGENTS_ACCEPTED,
  ...WIRE_ACCEPTED,
  ...ERRORS_IDS_ACCEPTED,
];

export const REJECTED: readonly Rejected[] = [
  ...DOCUMENTS_REJECTED,
  ...EVENTS_REJECTED,
  ...AGENTS_REJECTED,
  ...WIRE_REJECTED,
  ...ERRORS_IDS_REJECTED,
];
