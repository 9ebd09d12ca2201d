// A reader for the subset of YAML action.yml is written in (the file's header names it): nested
// maps by indentation, `key: value` scalars (optionally quoted), `- ` list items of maps, and
// `key: |` literal blocks. Anything else in the file is an error, so the subset cannot drift.

export type Node = string | readonly Node[] | { readonly [key: string]: Node };

interface Line {
  readonly indent: number;
  readonly text: string;
  readonly number: number;
}

export function readActionYaml(source: string): Node {
  const lines: Line[] = source.split('\n').flatMap((raw, i) => {
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return [];
    return [{ indent: raw.length - raw.trimStart().length, text: raw.trim(), number: i + 1 }];
  });
  const raw = source.split('\n');
  let at = 0;

  const block = (indent: number): Node => {
    const first = lines[at];
    if (first === undefined || first.indent < indent) return {};
    if (first.text.startsWith('- ')) return list(first.indent);
    return map(first.indent);
  };

  const list = (indent: number): Node[] => {
    const out: Node[] = [];
    for (let line = lines[at]; line !== undefined && line.indent === indent; line = lines[at]) {
      if (!line.text.startsWith('- ')) throw new Error(`line ${line.number}: expected a list item`);
      // The item's first member sits two columns right of the dash; read it as a map there.
      lines[at] = { indent: indent + 2, text: line.text.slice(2), number: line.number };
      out.push(map(indent + 2));
    }
    return out;
  };

  const map = (indent: number): Record<string, Node> => {
    const out: Record<string, Node> = {};
    for (let line = lines[at]; line !== undefined && line.indent === indent; line = lines[at]) {
      const match = /^([A-Za-z0-9_-]+):(?: (.*))?$/.exec(line.text);
      if (match === null) throw new Error(`line ${line.number}: not a key: ${line.text}`);
      const [, key = '', value] = match;
      at += 1;
      if (value === '|') {
        // A literal block keeps its blank and '#' lines, so it is read from the raw text: every
        // line after the key that is blank or indented deeper than the key.
        const body: string[] = [];
        let n = line.number;
        for (; n < raw.length; n += 1) {
          const text = raw[n] ?? '';
          if (text.trim() !== '' && text.length - text.trimStart().length <= indent) break;
          body.push(text);
        }
        const depth = Math.min(
          ...body.filter((t) => t.trim() !== '').map((t) => t.length - t.trimStart().length),
        );
        while (lines[at] !== undefined && (lines[at]?.number ?? 0) <= n) at += 1;
        out[key] = `${body
          .map((t) => t.slice(depth))
          .join('\n')
          .trimEnd()}\n`;
      } else if (value === undefined || value === '') {
        out[key] = block(indent + 1);
      } else {
        out[key] = unquote(value);
      }
    }
    return out;
  };

  const doc = block(0);
  if (at !== lines.length)
    throw new Error(`line ${lines[at]?.number ?? 0}: unexpected indentation`);
  return doc;
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) {
    return value.slice(1, -1).replace(/''/g, "'");
  }
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return JSON.parse(value) as string;
  }
  return value;
}
