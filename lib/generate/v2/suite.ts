// Generator v2's fixtures: v1's suite, drawn with v2's figures (lib/generate/v1/suite.ts says how
// a suite is drawn; the parts are what each version changed).

import * as calls from '../v1/calls.ts';
import * as outputs from '../v1/outputs.ts';
import * as passScore from '../v1/pass-score.ts';
import { suiteArbOf } from '../v1/suite.ts';
import * as figures from './figures.ts';

export const fixtureArb = suiteArbOf({ calls, figures, outputs, passScore });
