// Generator v4's fixtures: v1's suite, drawn with v4's calls, v3's outputs and v2's figures
// (lib/generate/v1/suite.ts says how a suite is drawn; the parts are what each version changed).

import * as passScore from '../v1/pass-score.ts';
import { suiteArbOf } from '../v1/suite.ts';
import * as figures from '../v2/figures.ts';
import * as outputs from '../v3/outputs.ts';
import * as calls from './calls.ts';

export const fixtureArb = suiteArbOf({ calls, figures, outputs, passScore });
