// One line of a terminal rewritten in place (a pack's progress). Any other line printed while it
// shows clears it first, so the two never share a row; the next redraw puts it back below.

/** What a live line writes to: a terminal's stream. */
export interface LiveStream {
  readonly write: (text: string) => unknown;
  readonly columns?: number;
}

export class LiveLine {
  private shown = false;

  constructor(private readonly stream: LiveStream) {}

  /** Replaces the line, cut to the terminal's width so it never wraps onto a second row. */
  show(text: string): void {
    // A terminal that reports no width (0, as some pseudo-terminals do) is taken as 80 wide.
    const columns = this.stream.columns ?? 0;
    const width = Math.max(20, (columns > 0 ? columns : 80) - 1);
    this.stream.write(`\r${text.length > width ? text.slice(0, width) : text}\x1b[K`);
    this.shown = true;
  }

  /** Erases the line, if it shows. */
  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}
