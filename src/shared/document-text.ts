import { z } from 'zod';

/**
 * Where a passage of a document stands: the page of a PDF, the sheet and cell range of a spreadsheet, the slide of a
 * deck, the chapter of an e-book, the line (and heading path) of a text format.
 */
export const DocumentLocationSchema = z.object({
  page: z.number().int().positive().optional(),
  sheet: z.string().max(300).optional(),
  cells: z.string().max(40).optional(),
  slide: z.number().int().positive().optional(),
  chapter: z.number().int().positive().optional(),
  line: z.number().int().positive().optional(),
  heading: z.string().max(2000).optional(),
});
export type DocumentLocation = z.infer<typeof DocumentLocationSchema>;

export const DocumentPassageSchema = z.object({ location: DocumentLocationSchema, text: z.string() });
export type DocumentPassage = z.infer<typeof DocumentPassageSchema>;

/** A document read into text: its format, how many pages (sheets, slides, chapters, lines) it has, its passages. */
export const DocumentTextSchema = z.object({
  format: z.string().max(40),
  units: z.number().int().nonnegative(),
  passages: z.array(DocumentPassageSchema),
  /** pages with no text, pages that could not be read */
  notes: z.array(z.string().max(1000)).max(10_000),
});
export type DocumentText = z.infer<typeof DocumentTextSchema>;

/** What the reader in the sandbox answers for one document: its text, or why it cannot be read. */
export const DocumentReaderAnswerSchema = z.discriminatedUnion('ok', [
  DocumentTextSchema.extend({ ok: z.literal(true), id: z.number().int() }),
  z.object({ ok: z.literal(false), id: z.number().int().nullable(), reason: z.string().max(2000) }),
]);
export type DocumentReaderAnswer = z.infer<typeof DocumentReaderAnswerSchema>;

/** "page 7", "sheet Q3, cells A1:F40", "slide 3", "line 120 (Setup > Linux)" */
export function describeLocation(location: DocumentLocation): string {
  const parts: string[] = [];
  if (location.page !== undefined) parts.push(`page ${location.page}`);
  if (location.sheet !== undefined) parts.push(`sheet ${location.sheet}`);
  if (location.cells !== undefined) parts.push(`cells ${location.cells}`);
  if (location.slide !== undefined) parts.push(`slide ${location.slide}`);
  if (location.chapter !== undefined) parts.push(`chapter ${location.chapter}`);
  if (location.line !== undefined) parts.push(`line ${location.line}`);
  const where = parts.join(', ');
  return location.heading ? `${where} (${location.heading})` : where;
}
