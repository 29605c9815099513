export class SessionNotFoundError extends Error {
  constructor(readonly sessionId: string) {
    super(`No session with id "${sessionId}"`);
    this.name = 'SessionNotFoundError';
  }
}

export class InvalidRecordError extends Error {
  constructor(what: string, details: string) {
    super(`Refusing to store an invalid ${what}: ${details}`);
    this.name = 'InvalidRecordError';
  }
}

/** better-sqlite3's errors carry SQLite's extended result code (`SQLITE_CONSTRAINT_PRIMARYKEY`...) */
export function isSqliteError(error: unknown, code: string): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === code;
}
