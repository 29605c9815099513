import { initialSchema } from './001-initial.js';
import { a2aTasksSchema } from './002-a2a-tasks.js';
import { plansSchema } from './003-plans.js';
import { planProgressIndexSchema } from './004-plan-progress-index.js';
import { indexQueueByStoreSchema } from './005-index-queue-by-store.js';
import { sessionWaitingAndFlowChoicesSchema } from './006-session-waiting-and-flow-choices.js';
import { searchQuestionsSchema } from './007-search-questions.js';
import { knowledgeIndexSchema } from './008-knowledge-index.js';

/** A schema change: applied once, in order, inside a transaction. SQL lives in TS modules so it bundles into the CLI. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** drops and re-creates a table others reference: run with foreign keys off (else the drop cascades), then checked */
  rebuildsTables?: boolean;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initialSchema },
  { version: 2, name: 'a2a-tasks', sql: a2aTasksSchema },
  { version: 3, name: 'plans', sql: plansSchema },
  { version: 4, name: 'plan-progress-index', sql: planProgressIndexSchema },
  { version: 5, name: 'index-queue-by-store', sql: indexQueueByStoreSchema },
  {
    version: 6,
    name: 'session-waiting-and-flow-choices',
    sql: sessionWaitingAndFlowChoicesSchema,
    rebuildsTables: true,
  },
  { version: 7, name: 'search-questions', sql: searchQuestionsSchema },
  { version: 8, name: 'knowledge-index', sql: knowledgeIndexSchema },
];
