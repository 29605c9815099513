/**
 * The event writer thread (see event-writer-thread.ts): its own connection to the database, writing the batches
 * the store posts, in the order posted, each in one transaction. Every answer is posted before the count of
 * answered batches moves, so a store waiting on the count finds the answer on the port.
 */
import { MessagePort, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { openConnection } from '../database.js';
import { EventBatchWriter } from './event-batch-writer.js';
import { unpackRows } from './event-rows.js';
import { MessageIndexQueue } from '../message-index.js';
import { ANSWERED_BATCHES, CLOSED, WriterRequestSchema, type WriterAnswer } from './event-writer-messages.js';

const StartSchema = z.object({
  file: z.string(),
  nativeBinding: z.string().optional(),
  progress: z.instanceof(SharedArrayBuffer),
  port: z.instanceof(MessagePort),
});

const { file, nativeBinding, progress: progressBuffer, port } = StartSchema.parse(workerData);
const progress = new Int32Array(progressBuffer);

function answer(reply: WriterAnswer, counter?: number): void {
  port.postMessage(reply);
  if (counter === undefined) return;
  Atomics.add(progress, counter, 1);
  Atomics.notify(progress, counter);
}

try {
  const db = openConnection(file, nativeBinding ? { nativeBinding } : {});
  const writer = new EventBatchWriter(db);
  const index = new MessageIndexQueue(db);
  port.on('message', (data: unknown) => {
    const request = WriterRequestSchema.parse(data);
    if (request.kind === 'close') {
      db.close();
      port.close();
      Atomics.store(progress, CLOSED, 1);
      Atomics.notify(progress, CLOSED);
      return;
    }
    try {
      const rows = unpackRows(request.packedRows);
      const seqs = writer.write(rows);
      const moved = seqs.some((seq, position) => seq !== rows[position]!.seq);
      answer({ kind: 'written', id: request.id, seqs: moved ? seqs : undefined }, ANSWERED_BATCHES);
      // the messages it queued for search are indexed here too, a large batch at a time, after the answer
      index.noteQueued(rows.filter((row) => row.searchable).length);
    } catch (error) {
      answer(
        { kind: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) },
        ANSWERED_BATCHES,
      );
    }
  });
  answer({ kind: 'ready' });
} catch (error) {
  answer({ kind: 'unavailable', message: error instanceof Error ? error.message : String(error) });
}
