import { initialSchema } from './001-initial.js';

/** A schema change: applied once, in order, inside a transaction. SQL lives in TS modules so it bundles into the CLI. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [{ version: 1, name: 'initial', sql: initialSchema }];
