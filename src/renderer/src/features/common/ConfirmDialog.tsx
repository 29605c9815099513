import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../shortcuts/use-shortcut.js';
import './common.css';

/** A modal yes/no question (window.confirm is blocked in some shells and cannot be styled or translated). */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  danger,
  onConfirm,
  onCancel,
}: {
  title: string;
  body?: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  // bound after the run's Esc, so it is asked first: Esc closes the dialog and does not stop the run
  useShortcut('closeDialog', onCancel);
  return (
    <div className="modal-backdrop" onMouseDown={onCancel}>
      <div
        className="modal"
        role="alertdialog"
        aria-modal="true"
        aria-label={title}
        onMouseDown={(event) => event.stopPropagation()}
        data-testid="confirm-dialog"
      >
        <h2>{title}</h2>
        {body ? <p className="modal-body">{body}</p> : null}
        <div className="modal-actions">
          <button type="button" ref={cancelRef} onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button type="button" className={danger ? 'danger' : 'primary'} onClick={onConfirm} data-testid="confirm">
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
