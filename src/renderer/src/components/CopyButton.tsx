import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const COPIED_FOR_MS = 1500;

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // an insecure context has no Clipboard API: fall back to a hidden text area
  const area = document.createElement('textarea');
  area.value = text;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

export function CopyButton({ text, className }: { text: () => string; className?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={`copy-button ${className ?? ''}`}
      onClick={() => {
        void writeClipboard(text()).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), COPIED_FOR_MS);
        });
      }}
    >
      {copied ? t('copy.copied') : t('copy.copy')}
    </button>
  );
}
