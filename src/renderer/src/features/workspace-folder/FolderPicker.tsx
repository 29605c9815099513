import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppInfo } from '../../../../shared/contract.js';
import { ClientError, type ManusClient } from '../../client/manus-client.js';
import './folder-picker.css';

/** the core's refusals of a chosen folder (checkChosenFolder) the UI says in its own words */
const KNOWN_REFUSALS = new Set([
  'not_absolute',
  'not_found',
  'not_a_folder',
  'not_readable',
  'not_writable',
  'inside_data_folder',
]);

interface Refusal {
  code: string;
  message: string;
}

function refusalOf(error: unknown): Refusal {
  if (error instanceof ClientError) return { code: error.code, message: error.message };
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Where a new session works: its own new folder (the default) or one the person chooses: in the desktop app with
 * the system's folder dialog, in the browser by typing its path; either way checked by the core, with the recent
 * folders one click away.
 */
export function FolderPicker({
  client,
  shell,
  chosen,
  onChoose,
}: {
  client: ManusClient;
  shell: AppInfo['shell'] | undefined;
  chosen: string | undefined;
  onChoose: (folder: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [typed, setTyped] = useState('');
  const [refusal, setRefusal] = useState<Refusal>();
  const [recent, setRecent] = useState<string[]>([]);
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    if (!editing) return;
    let current = true;
    client.call('recentWorkspaces', {}).then(
      ({ folders }) => current && setRecent(folders),
      () => current && setRecent([]),
    );
    return () => {
      current = false;
    };
  }, [client, editing]);

  const choose = async (check: () => Promise<{ path: string | null }>) => {
    setChecking(true);
    setRefusal(undefined);
    try {
      const { path } = await check();
      if (path) {
        onChoose(path);
        setEditing(false);
        setTyped('');
      }
    } catch (error) {
      setRefusal(refusalOf(error));
    } finally {
      setChecking(false);
    }
  };
  const checkTyped = () => void choose(() => client.call('checkWorkspaceFolder', { path: typed }));
  const browse = () => void choose(() => client.call('pickWorkspaceFolder', {}));

  if (chosen) {
    return (
      <div className="folder-picker folder-chosen" data-testid="folder-picker">
        <span>{t('folderPicker.workIn')}</span>
        <code className="folder-path" data-testid="chosen-folder" title={chosen}>
          {chosen}
        </code>
        <button
          type="button"
          className="ghost small"
          onClick={() => onChoose(undefined)}
          aria-label={t('folderPicker.clear')}
          data-testid="clear-folder"
        >
          ✕
        </button>
      </div>
    );
  }
  if (!editing) {
    return (
      <div className="folder-picker" data-testid="folder-picker">
        <span className="folder-default">{t('folderPicker.default')}</span>
        <button type="button" className="small" onClick={() => setEditing(true)} data-testid="choose-folder">
          {t('folderPicker.choose')}
        </button>
      </div>
    );
  }
  return (
    <div className="folder-picker folder-editing" data-testid="folder-picker">
      <form
        className="folder-form"
        onSubmit={(event) => {
          event.preventDefault();
          checkTyped();
        }}
      >
        <input
          className="folder-input"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          placeholder={t('folderPicker.placeholder')}
          aria-label={t('folderPicker.pathLabel')}
          aria-invalid={refusal ? true : undefined}
          aria-describedby={refusal ? 'folder-error' : undefined}
          autoFocus
          spellCheck={false}
          data-testid="folder-path"
        />
        <button type="submit" className="primary small" disabled={!typed.trim() || checking} data-testid="use-folder">
          {t('folderPicker.use')}
        </button>
        {shell === 'electron' ? (
          <button type="button" className="small" onClick={browse} disabled={checking} data-testid="browse-folder">
            {t('folderPicker.browse')}
          </button>
        ) : null}
        <button
          type="button"
          className="ghost small"
          onClick={() => {
            setEditing(false);
            setRefusal(undefined);
          }}
        >
          {t('common.cancel')}
        </button>
      </form>
      {refusal ? (
        <p className="form-error" id="folder-error" role="alert" data-testid="folder-error" data-code={refusal.code}>
          {KNOWN_REFUSALS.has(refusal.code) ? t(`folderPicker.refused.${refusal.code}`) : refusal.message}
        </p>
      ) : null}
      {recent.length ? (
        <div className="folder-recent">
          <span className="sidebar-label">{t('folderPicker.recent')}</span>
          <ul>
            {recent.map((folder) => (
              <li key={folder}>
                <button
                  type="button"
                  className="ghost small folder-path"
                  title={folder}
                  onClick={() => void choose(() => client.call('checkWorkspaceFolder', { path: folder }))}
                  data-testid="recent-folder"
                >
                  {folder}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
