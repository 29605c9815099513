export interface RecordedCall {
  call: string;
  args: unknown[];
}
/** the calls made on the stand-in in this process */
export const recorded: RecordedCall[];
export function record(name: string, args?: unknown[], then?: () => void): void;
export function handleOf(object: object, kind: string): string;
