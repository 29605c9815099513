import { z } from 'zod';
import {
  CONTRACT,
  isRequestName,
  type CoreError,
  type CoreHandlers,
  type InvokeResult,
} from '../../shared/contract.js';

/** An error the core raises on purpose: its code and fix reach the UI unchanged. */
export class CoreApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'CoreApiError';
  }
}

/** Turns anything thrown into the error shape the UI shows; keeps `code`/`hint` when the thrower set them. */
export function toCoreError(error: unknown): CoreError {
  if (error instanceof z.ZodError) {
    return { code: 'bad_request', message: z.prettifyError(error) };
  }
  if (error instanceof Error) {
    const coded = error as Error & { code?: unknown; hint?: unknown };
    return {
      code: typeof coded.code === 'string' ? coded.code : 'internal',
      message: error.message,
      ...(typeof coded.hint === 'string' ? { hint: coded.hint } : {}),
    };
  }
  return { code: 'internal', message: String(error) };
}

/** The one entry point of every transport: checks the name, validates the request with zod, runs the handler. */
export async function invokeHandler(
  handlers: CoreHandlers,
  name: unknown,
  payload: unknown,
): Promise<InvokeResult<unknown>> {
  if (!isRequestName(name)) {
    return { ok: false, error: { code: 'unknown_request', message: `No request named ${String(name)}.` } };
  }
  try {
    const request = CONTRACT[name].request.parse(payload ?? {});
    const handler = handlers[name] as (request: unknown) => unknown;
    return { ok: true, value: await handler(request) };
  } catch (error) {
    return { ok: false, error: toCoreError(error) };
  }
}
