import { useEffect, type ReactNode, type RefObject } from 'react';
import { useShortcut } from '../../shortcuts/use-shortcut.js';

/**
 * A layer over the window: a click on its backdrop or Esc closes it (Esc closes the topmost layer and nothing under
 * it: the layer binds it last, so it is asked first), and the focus goes to `focusRef` when it opens.
 */
export function ModalLayer({
  label,
  role = 'dialog',
  backdropClassName,
  className,
  testId,
  focusRef,
  onClose,
  children,
}: {
  label: string;
  role?: 'dialog' | 'alertdialog';
  backdropClassName: string;
  className: string;
  testId: string;
  focusRef: RefObject<HTMLElement | null>;
  onClose: () => void;
  children: ReactNode;
}) {
  useEffect(() => focusRef.current?.focus(), [focusRef]);
  useShortcut('closeDialog', onClose);
  return (
    <div className={backdropClassName} onMouseDown={onClose}>
      <div
        className={className}
        role={role}
        aria-modal="true"
        aria-label={label}
        onMouseDown={(event) => event.stopPropagation()}
        data-testid={testId}
      >
        {children}
      </div>
    </div>
  );
}
