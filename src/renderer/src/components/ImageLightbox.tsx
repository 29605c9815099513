import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ModalLayer } from '../features/common/ModalLayer.js';
import './image-lightbox.css';

/** An image over the whole window at its own size (scrolling when larger); Esc, the button or a click outside close it. */
export function ImageLightbox({ src, alt, onClose }: { src: string; alt: string; onClose: () => void }) {
  const { t } = useTranslation();
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <ModalLayer
      label={alt}
      backdropClassName="lightbox-backdrop"
      className="lightbox"
      testId="lightbox"
      focusRef={closeRef}
      onClose={onClose}
    >
      <button
        type="button"
        ref={closeRef}
        className="lightbox-close"
        onClick={onClose}
        aria-label={t('polish.closeImage')}
        data-testid="lightbox-close"
      >
        ✕
      </button>
      <img className="lightbox-image" src={src} alt={alt} />
    </ModalLayer>
  );
}

/** A picture that opens in the lightbox when clicked (or Enter/Space), and gives the focus back when it closes. */
export function EnlargeableImage({ src, alt, children }: { src: string; alt: string; children: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => {
    setOpen(false);
    buttonRef.current?.focus();
  }, []);
  return (
    <>
      <button
        type="button"
        ref={buttonRef}
        className="enlarge-button"
        onClick={() => setOpen(true)}
        title={t('polish.enlargeImage')}
        aria-label={`${t('polish.enlargeImage')}: ${alt}`}
        data-testid="enlarge-image"
      >
        {children}
      </button>
      {open ? <ImageLightbox src={src} alt={alt} onClose={close} /> : null}
    </>
  );
}
