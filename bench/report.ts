// Renders the benchmark page. Every figure arrives as a Section already measured and judged;
// this module only lays them out, so the page and the numbers cannot drift apart.

export interface Section {
  readonly title: string;
  /** How the figure was taken, in one paragraph. */
  readonly method: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Absent for a section that explains other figures and has no target of its own. */
  readonly judged?: Judgement;
  readonly notes?: readonly string[];
}

export interface Judgement {
  /** The headline ratio the target is judged on, as a phrase. */
  readonly ratio: string;
  readonly target: string;
  readonly met: boolean;
  /** Met or missed, by how much, and why. */
  readonly verdict: string;
}

export interface Machine {
  readonly date: string;
  readonly node: string;
  readonly cores: number;
  readonly cpu: string;
  readonly platform: string;
  readonly memoryGiB: number;
  /** 1-minute load average when the bench started: a busy machine stretches every figure. */
  readonly loadAverage: number;
  readonly benchSeconds: number;
}

export function renderPage(machine: Machine, sections: readonly Section[]): string {
  const lines = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/main.ts); do not edit by hand. What a user waits for',
    '(figures 2, 4 and 5) is timed as fresh, cold processes, median of at least 5, beside the',
    'number it replaces; the others are ratios of two things measured side by side in one run,',
    'because absolute times on a shared machine are not comparable from one run to the next.',
    'Cells read min / median / max.',
    '',
    `- date: ${machine.date}`,
    `- machine: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB, ${machine.platform}`,
    `- load average (1 min) at start: ${machine.loadAverage.toFixed(2)}`,
    `- node: ${machine.node}`,
    `- whole bench: ${machine.benchSeconds.toFixed(1)} s`,
    '',
    '| measurement | ratio | target | result |',
    '| --- | --- | --- | --- |',
    ...sections.flatMap(({ title, judged: j }) =>
      j === undefined ? [] : [`| ${title} | ${j.ratio} | ${j.target} | ${outcome(j)} |`],
    ),
  ];
  for (const s of sections) lines.push('', ...sectionLines(s));
  return `${lines.join('\n')}\n`;
}

function sectionLines(s: Section): string[] {
  const lines = [`## ${s.title}`, '', s.method, '', table(s.headers, s.rows)];
  const j = s.judged;
  if (j !== undefined) {
    lines.push('', `**Target ${j.target}: ${j.met ? 'met' : 'missed'}.** ${j.verdict}`);
  }
  for (const note of s.notes ?? []) lines.push('', note);
  return lines;
}

function summaryRow(s: Section): string | undefined {
  const j = s.judged;
  return j === undefined ? undefined : `| ${s.title} | ${j.ratio} | ${j.target} | ${outcome(j)} |`;
}

/**
 * The page with one section measured again (a bench run of that section alone): its block and its
 * summary row replaced, or added at the end of the page and of the summary table.
 */
export function spliceSection(page: string, s: Section): string {
  const lines = page.replace(/\n$/, '').split('\n');
  const heading = `## ${s.title}`;
  const start = lines.indexOf(heading);
  const block = sectionLines(s);
  if (start < 0) lines.push('', ...block);
  else {
    const next = lines.findIndex((line, i) => i > start && line.startsWith('## '));
    lines.splice(start, (next < 0 ? lines.length : next - 1) - start, ...block);
  }
  const row = summaryRow(s);
  if (row !== undefined) {
    const at = lines.findIndex((line) => line.startsWith(`| ${s.title} |`));
    if (at >= 0) lines[at] = row;
    else {
      const header = lines.indexOf('| --- | --- | --- | --- |');
      let end = header + 1;
      while (lines[end]?.startsWith('| ') === true) end += 1;
      if (header >= 0) lines.splice(end, 0, row);
    }
  }
  return `${lines.join('\n')}\n`;
}

function outcome(j: Judgement): string {
  return j.met ? 'met' : '**missed**';
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}
