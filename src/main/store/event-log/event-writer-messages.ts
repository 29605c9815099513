import { z } from 'zod';

/** Slots of the progress counters the store and its event writer thread share. */
export const ANSWERED_BATCHES = 0;
export const CLOSED = 1;
export const PROGRESS_SLOTS = 2;

/** What the store asks of the thread: a batch to write (rows as the store made them), or to close its connection. */
export const WriterRequestSchema = z.discriminatedUnion('kind', [
  // rows as `packRows` packs them; `unpackRows` checks each field
  z.object({ kind: z.literal('write'), id: z.number().int(), packedRows: z.array(z.unknown()) }),
  z.object({ kind: z.literal('close') }),
]);
export type WriterRequest = z.infer<typeof WriterRequestSchema>;

/** What the thread answers: it can write (or why not), and each batch written (with the seqs of moved rows) or not. */
export const WriterAnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ready') }),
  z.object({ kind: z.literal('unavailable'), message: z.string() }),
  z.object({ kind: z.literal('written'), id: z.number().int(), seqs: z.array(z.number().int()).optional() }),
  z.object({ kind: z.literal('failed'), id: z.number().int(), message: z.string() }),
]);
export type WriterAnswer = z.infer<typeof WriterAnswerSchema>;
