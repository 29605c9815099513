const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 80;

/** A one-line spinner on a TTY stream; does nothing elsewhere. */
export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private label = '';

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  start(label: string): void {
    this.label = label;
    if (!this.stream.isTTY || this.timer) return;
    this.timer = setInterval(() => {
      this.frame = (this.frame + 1) % FRAMES.length;
      this.stream.write(`\r${FRAMES[this.frame]} ${this.label}`);
    }, FRAME_MS);
    this.timer.unref();
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.stream.write('\r\x1b[K');
  }
}
