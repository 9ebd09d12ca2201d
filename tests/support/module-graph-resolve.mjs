// The resolve hook tests/support/module-graph-hook.mjs registers: it resolves as Node would and
// posts each resolved URL to the port it was handed.

let port;

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  port.postMessage(result.url);
  return result;
}
