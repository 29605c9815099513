/** earlier steps' results handed to later prompts are cut to this many characters each */
export const NOTE_LIMIT = 4000;

/** A step's result cut for another prompt; the whole text stays in the plan store. */
export function clipNote(text: string, limit = NOTE_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
