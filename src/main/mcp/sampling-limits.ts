/** how far back a server's sampling requests count against its limits */
export const SAMPLING_WINDOW_MS = 60_000;
/** sampling requests one server may have answered by the model per window */
export const MAX_SAMPLING_REQUESTS_PER_WINDOW = 5;
/** tokens (prompt and answer) one server's sampling requests may spend per window */
export const MAX_SAMPLING_TOKENS_PER_WINDOW = 20_000;
/** the most a server may ask the model to answer in one request; a larger maxTokens is lowered to this */
export const MAX_SAMPLING_TOKENS_PER_REQUEST = 4_096;

interface SpentRequest {
  at: number;
  tokens: number;
}

/**
 * What each MCP server's sampling requests spent of the person's model recently: past the count or the tokens of
 * the window, further requests are refused until older ones leave it.
 */
export class SamplingLimits {
  private readonly spentByServer = new Map<string, SpentRequest[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Why the server may not sample now, or undefined when it may. */
  refusal(server: string): string | undefined {
    const recent = this.recent(server);
    if (recent.length >= MAX_SAMPLING_REQUESTS_PER_WINDOW) {
      return `it already sent ${recent.length} sampling requests in the last ${SAMPLING_WINDOW_MS / 1000} s (at most ${MAX_SAMPLING_REQUESTS_PER_WINDOW})`;
    }
    const tokens = recent.reduce((sum, request) => sum + request.tokens, 0);
    if (tokens >= MAX_SAMPLING_TOKENS_PER_WINDOW) {
      return `its sampling requests already used ${tokens} tokens in the last ${SAMPLING_WINDOW_MS / 1000} s (at most ${MAX_SAMPLING_TOKENS_PER_WINDOW})`;
    }
    return undefined;
  }

  /** A request is going to the model: it counts now (a reply that never comes still counts), its tokens once known. */
  start(server: string): (tokens: number) => void {
    const spent: SpentRequest = { at: this.now(), tokens: 0 };
    this.spentByServer.set(server, [...this.recent(server), spent]);
    return (tokens) => {
      spent.tokens = tokens;
    };
  }

  private recent(server: string): SpentRequest[] {
    const since = this.now() - SAMPLING_WINDOW_MS;
    return (this.spentByServer.get(server) ?? []).filter((request) => request.at > since);
  }
}
