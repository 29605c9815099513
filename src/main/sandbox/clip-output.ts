/** share of the allowance kept from the end: errors and final results are usually there */
const TAIL_SHARE = 0.3;

/** Cuts text longer than `max` characters, keeping its start and end with a note saying how much was left out. */
export function clipOutput(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = Math.floor(max * TAIL_SHARE);
  const head = max - tail;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}\n[... ${cut} characters of output cut (limit ${max}) ...]\n${text.slice(text.length - tail)}`;
}
