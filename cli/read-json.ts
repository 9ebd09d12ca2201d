// A JSON file named on the command line. A file that cannot be read or parsed is the user's
// input at fault, so each command turns the failure into its own input error, named by `what`.

import { readFile } from 'node:fs/promises';

export async function readJsonInput(
  path: string,
  what: string,
  inputError: (message: string) => Error,
): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'read error';
    throw inputError(`the ${what} file ${path} could not be read (${code})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw inputError(`the ${what} file ${path} is not JSON`);
  }
}
