// The one kind of error that ends a command before any verdict: a setting, a file, a key or a
// host the command cannot use as given. The CLI prints its message as one line and exits 2; every
// such error is a Refusal (each module names its own subclass, so a message says where it came
// from), and nothing that is not one is ever reported as bad configuration.

export class Refusal extends Error {
  override readonly name: string = 'Refusal';
}
