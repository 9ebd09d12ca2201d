// A JSON file named on the command line. A file that cannot be read or parsed, or that is over
// the input limits (lib/bounded-input.ts), is the user's input at fault, so each command turns
// the failure into its own input error, named by `what`.

import { InputRefusal, readBoundedJson } from '../lib/bounded-input.ts';

export async function readJsonInput(
  path: string,
  what: string,
  inputError: (message: string) => Error,
): Promise<unknown> {
  try {
    return await readBoundedJson(path, `${what} file`, undefined);
  } catch (error) {
    if (error instanceof InputRefusal) throw inputError(error.message);
    throw error;
  }
}
