import { InvalidArgumentError } from 'commander';
import type { z } from 'zod';
import { AllowedHostSchema, TokenSchema } from '../../server/request-guard.js';
import { ListenAddressSchema } from '../../server/server-address.js';

/** A commander argument parser from a zod schema: its first issue becomes the error. */
function parsedBy<T>(schema: z.ZodType<T, string>) {
  return (value: string): T => {
    const result = schema.safeParse(value);
    if (!result.success) throw new InvalidArgumentError(result.error.issues[0]?.message ?? 'invalid value');
    return result.data;
  };
}

export const parseListenAddress = parsedBy(ListenAddressSchema);
export const parseAllowedHost = parsedBy(AllowedHostSchema);
export const parseToken = parsedBy(TokenSchema);
