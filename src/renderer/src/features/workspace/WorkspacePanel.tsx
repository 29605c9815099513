import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WorkspaceFile, WorkspaceListing } from '../../../../shared/contract.js';
import type { ManusClient } from '../../client/manus-client.js';
import { base64ToBytes, downloadFile } from '../common/download.js';
import { failureOf, FailureText, type Failure } from '../common/use-action.js';
import { formatBytes } from '../../lib/format.js';
import { uploadFile } from '../uploads/upload-file.js';
import { LoadingPane } from '../../components/LoadingPane.js';
import { lazyNamed } from '../../lib/lazy-named.js';
import { useShortcut } from '../../shortcuts/use-shortcut.js';
import './workspace.css';

// loaded on the first preview: it brings the CSV parser and the code view
const FilePreview = lazyNamed(() => import('./FilePreview.js'), 'FilePreview');

const KIND_ICONS: Record<string, string> = {
  image: '▨',
  csv: '▦',
  html: '◈',
  pdf: '▤',
  code: '‹›',
  text: '≡',
  other: '□',
};
/** the list refreshes at most this often while a run changes files */
const REFRESH_THROTTLE_MS = 1_500;

/** The session workspace: its files (newest first), a preview of the chosen one, download, and drop to upload. */
export function WorkspacePanel({
  client,
  sessionId,
  changeKey,
  canOpen,
}: {
  client: ManusClient;
  sessionId: string;
  /** the desktop app can open files with the system's applications */
  canOpen: boolean;
  /** changes when the session may have written files (its last event) */
  changeKey: number;
}) {
  const { t } = useTranslation();
  const [listing, setListing] = useState<WorkspaceListing>();
  const [selected, setSelected] = useState<string>();
  const [file, setFile] = useState<WorkspaceFile>();
  const [failure, setFailure] = useState<Failure>();
  const [dragging, setDragging] = useState(false);
  const closePreview = useCallback(() => setSelected(undefined), []);
  // Esc goes back from a preview to the list, as the back button does
  useShortcut('closeDialog', selected ? closePreview : undefined);

  const refresh = useCallback(async () => {
    try {
      setListing(await client.call('listWorkspace', { sessionId }));
    } catch (error) {
      setFailure(failureOf(error));
    }
  }, [client, sessionId]);

  // throttled, not debounced: a run that streams without pause still sees its files appear
  const latestRefresh = useRef(refresh);
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const shown = useRef(false);
  useEffect(() => {
    latestRefresh.current = refresh;
  }, [refresh]);
  useEffect(() => {
    if (pending.current) return;
    pending.current = setTimeout(
      () => {
        pending.current = undefined;
        shown.current = true;
        void latestRefresh.current();
      },
      shown.current ? REFRESH_THROTTLE_MS : 0,
    );
  }, [refresh, changeKey]);
  useEffect(() => () => clearTimeout(pending.current), []);

  useEffect(() => {
    if (!selected) return;
    let current = true;
    client.call('readWorkspaceFile', { sessionId, path: selected }).then(
      (read) => {
        if (!current) return;
        setFile(read);
        setFailure(undefined);
      },
      (error: unknown) => current && setFailure(failureOf(error)),
    );
    return () => {
      current = false;
    };
  }, [client, sessionId, selected]);

  const download = async (path: string) => {
    try {
      const read = file?.path === path ? file : await client.call('readWorkspaceFile', { sessionId, path });
      const name = path.split('/').pop() ?? path;
      downloadFile(name, read.mimeType, read.encoding === 'base64' ? base64ToBytes(read.content) : read.content);
    } catch (error) {
      setFailure(failureOf(error));
    }
  };

  const openInSystem = async (path: string) => {
    try {
      await client.call('openWorkspaceFile', { sessionId, path });
    } catch (error) {
      setFailure(failureOf(error));
    }
  };

  const upload = async (files: File[]) => {
    try {
      const uploads = [];
      for (const file of files) uploads.push(await uploadFile(client, file));
      await client.call('uploadFiles', { sessionId, uploads });
      await refresh();
    } catch (error) {
      setFailure(failureOf(error));
    }
  };

  return (
    <div
      className={`workspace-panel ${dragging ? 'dragging' : ''}`}
      data-testid="workspace-panel"
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        void upload([...event.dataTransfer.files]);
      }}
    >
      <div className="plan-title workspace-head">
        <span>{t('workspace.title')}</span>
        <span>
          {canOpen ? (
            <button type="button" className="ghost small" onClick={() => void openInSystem('.')}>
              {t('workspace.openFolder')}
            </button>
          ) : null}
          <button type="button" className="ghost small" onClick={() => void refresh()} title={t('workspace.refresh')}>
            ↻
          </button>
        </span>
      </div>
      {listing ? (
        <p className="workspace-root" title={listing.root}>
          {listing.root}
        </p>
      ) : null}
      <FailureText failure={failure} />
      {listing && listing.files.length === 0 ? <p className="panel-empty">{t('workspace.empty')}</p> : null}
      {!file || file.path !== selected ? (
        <ul className="file-list" data-testid="file-list">
          {listing?.files.map((entry) => (
            <li key={entry.path}>
              <button type="button" className="file-row" onClick={() => setSelected(entry.path)} data-file={entry.path}>
                <span className={`file-icon kind-${entry.kind}`} aria-hidden>
                  {KIND_ICONS[entry.kind]}
                </span>
                <span className="file-name" title={entry.path}>
                  {entry.path}
                </span>
                <span className="file-size">{formatBytes(entry.size)}</span>
              </button>
            </li>
          ))}
          {listing?.truncated ? <li className="field-help">{t('workspace.truncated')}</li> : null}
        </ul>
      ) : (
        <div className="file-preview" data-testid="file-preview" data-path={file.path}>
          <div className="file-preview-bar">
            <button
              type="button"
              className="ghost small"
              onClick={() => setSelected(undefined)}
              data-testid="preview-back"
            >
              ← {t('workspace.back')}
            </button>
            <span className="file-name" title={file.path}>
              {file.path}
            </span>
            <span className="file-size">{formatBytes(file.size)}</span>
            {canOpen ? (
              <button type="button" className="small" onClick={() => void openInSystem(file.path)}>
                {t('workspace.open')}
              </button>
            ) : null}
            <button
              type="button"
              className="small"
              onClick={() => void download(file.path)}
              data-testid="download-file"
            >
              ⤓ {t('workspace.download')}
            </button>
          </div>
          {file.truncated ? <p className="field-help">{t('workspace.previewCut')}</p> : null}
          <div className="file-preview-body">
            <Suspense fallback={<LoadingPane />}>
              <FilePreview file={file} />
            </Suspense>
          </div>
        </div>
      )}
      <p className="workspace-drop-hint">{t('workspace.dropHint')}</p>
    </div>
  );
}
