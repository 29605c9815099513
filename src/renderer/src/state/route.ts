const SESSION_ROUTE = /^#\/s\/([^/?#]+)$/;

/** The session the address names (`#/s/<id>`), so a reload reopens it. */
export function routedSessionId(hash: string): string | undefined {
  const match = SESSION_ROUTE.exec(hash);
  return match ? decodeURIComponent(match[1]) : undefined;
}

export function sessionRoute(sessionId: string): string {
  return `#/s/${encodeURIComponent(sessionId)}`;
}
