/**
 * Whole messages are queued for the search index by the store as it writes them (`EventRowWriter`): the trigger
 * parsed the JSON of every streamed delta to learn it was one, a third of the cost of appending it (issue 16).
 */
export const indexQueueByStoreSchema = `
DROP TRIGGER events_queue_message;
`;
