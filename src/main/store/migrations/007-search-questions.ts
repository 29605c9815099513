/**
 * Search finds the person's questions and answers too (ask_human), and reads messages as plain text rather than
 * Markdown: the store queues questions like messages as it writes them (`isSearchable`), and everything indexed so
 * far is queued again to be indexed anew (the store indexes the queue when it opens).
 */
export const searchQuestionsSchema = `
DELETE FROM message_fts;
DELETE FROM message_fts_queue;
INSERT INTO message_fts_queue (session_id, seq)
SELECT session_id, seq FROM events
WHERE (type = 'message' AND json_extract(json, '$.delta') = 0)
   OR (type = 'ask' AND json_extract(json, '$.kind') = 'question'
       AND json_extract(json, '$.status') IN ('waiting', 'answered'))
ORDER BY ts, session_id, seq;
`;
