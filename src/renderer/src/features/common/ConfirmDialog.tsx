import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ModalLayer } from './ModalLayer.js';
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
  return (
    <ModalLayer
      label={title}
      role="alertdialog"
      backdropClassName="modal-backdrop"
      className="modal"
      testId="confirm-dialog"
      focusRef={cancelRef}
      onClose={onCancel}
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
    </ModalLayer>
  );
}
