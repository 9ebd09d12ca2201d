// Generator v3's fixtures: v1's suite, drawn with v3's calls and outputs and v2's figures
// (lib/generate/v1/suite.ts says how a suite is drawn; the parts are what each version changed).

import * as passScore from '../v1/pass-score.ts';
import { suiteArbOf } from '../v1/suite.ts';
import * as figures from '../v2/figures.ts';
import * as calls from './calls.ts';
import * as outputs from './outputs.ts';

export const fixtureArb = suiteArbOf({ calls, figures, outputs, passScore });
