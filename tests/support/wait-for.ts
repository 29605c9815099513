/**
 * Resolves once `check` holds, looking again every `everyMs`; rejects naming `what` after `timeoutMs`. The one way
 * tests wait for something another process, a container or the agent loop does: for events, never for a clock.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'the condition',
  everyMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
