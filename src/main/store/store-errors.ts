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
