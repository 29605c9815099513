/** share of the allowance kept from the end: errors and final results are usually there */
const TAIL_SHARE = 0.3;
/** the output keeps at least this much room, however long the notes around it */
const MIN_OUTPUT_ROOM = 200;

/** Characters a driver already left out of the middle of an output to bound its memory, and where they were. */
export interface DroppedMiddle {
  /** offset in the kept text where the left-out characters were */
  at: number;
  chars: number;
}

function cutNote(cut: number, max: number): string {
  return `\n[... ${cut} characters of output cut (limit ${max}) ...]\n`;
}

/**
 * Cuts text longer than `max` characters (note included), keeping its start and end with a note saying how much was
 * left out. `dropped` says that the text is already missing a middle part: the note then counts it too.
 */
export function clipOutput(text: string, max: number, dropped?: DroppedMiddle): string {
  const missing = dropped?.chars ?? 0;
  if (missing === 0 && text.length <= max) return text;
  // the longest the note can be: its count has at most as many digits as the whole length
  const room = Math.max(0, max - cutNote(text.length + missing, max).length);
  const tailRoom = Math.floor(room * TAIL_SHARE);
  const headRoom = room - tailRoom;
  const at = missing > 0 && dropped ? dropped.at : text.length - tailRoom;
  const head = text.slice(0, Math.min(at, headRoom));
  const tail = text.slice(Math.max(at, text.length - tailRoom));
  const cut = text.length - head.length - tail.length + missing;
  return `${head}${cutNote(cut, max)}${tail}`;
}

/**
 * A tool's text: notes, then its output clipped so that everything fits in `max`, then the status lines (exit code,
 * interruption, lost state). The notes and status lines are never cut: they always reach the model.
 */
export function clipBetween(
  before: string[],
  output: string,
  after: string[],
  max: number,
  dropped?: DroppedMiddle,
): string {
  const fixed = [...before, ...after].reduce((sum, line) => sum + line.length + 1, 0);
  const clipped = clipOutput(output, Math.max(MIN_OUTPUT_ROOM, max - fixed), dropped);
  return [...before, clipped, ...after].filter((part) => part.length > 0).join('\n');
}
