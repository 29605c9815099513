import { useLayoutEffect, type RefObject } from 'react';

/**
 * A field of the page's prerendered first screen takes keys before the app has loaded: when the app takes the
 * element over, what was typed there becomes the field's state (`adopt`). Once, at mount; later typing arrives
 * through onChange.
 */
export function useTypedBeforeLoad(
  field: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  value: string,
  adopt: (typed: string) => void,
): void {
  useLayoutEffect(() => {
    const typed = field.current?.value ?? '';
    if (typed !== value) adopt(typed);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the app takes the element over
  }, []);
}
