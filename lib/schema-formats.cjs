// The string formats the generated validators (lib/generated/) check at run time: ajv-formats'
// full formats, as the schemas were compiled against, with one change of cost and none of meaning.
// date-time remembers its answers. Every event of a run carries a timestamp, a run's events share
// a few dozen of them, and checking one (a split, two patterns and a calendar) was half of all
// the time an event's envelope took to validate, which a replay of a pack spends on every event.
// The answer for a text is ajv-formats' own, asked once; the memory holds at most MEMORY texts of
// at most LONGEST characters each, and a longer text (never a timestamp) is asked every time.
// Plain CommonJS, because the generated validators `require` it (cli/schema-codegen.ts).

'use strict';

const { fullFormats } = require('ajv-formats/dist/formats');

const MEMORY = 1024;
const LONGEST = 64;

const dateTime = fullFormats['date-time'];
/** @type {Map<string, boolean>} */
const answers = new Map();

/** @param {string} text */
function validDateTime(text) {
  if (text.length > LONGEST) return dateTime.validate(text);
  let valid = answers.get(text);
  if (valid === undefined) {
    valid = dateTime.validate(text);
    // A host that sends a new timestamp with every event fills the memory; start it again.
    if (answers.size >= MEMORY) answers.clear();
    answers.set(text, valid);
  }
  return valid;
}

// `remembered` says how many answers are held, so a test can hold the memory to its bound.
module.exports = {
  ...fullFormats,
  'date-time': { ...dateTime, validate: validDateTime, remembered: () => answers.size },
};
