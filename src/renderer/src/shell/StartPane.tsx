import type { ReactNode } from 'react';
import { FirstRun } from '../features/onboarding/FirstRun.js';
import { Welcome } from '../components/Welcome.js';
import { LoadingPane } from '../components/LoadingPane.js';

/**
 * No session open: a session loading, the first-run steps when no model is set up, else the welcome examples and
 * where the new session will work (`folderPicker`).
 */
export function StartPane({
  loading,
  noModel,
  onAddProvider,
  onPickExample,
  folderPicker,
}: {
  loading: boolean;
  noModel: boolean;
  onAddProvider: () => void;
  onPickExample: (task: string) => void;
  folderPicker?: ReactNode;
}) {
  if (loading) return <LoadingPane />;
  if (noModel) return <FirstRun onAddProvider={onAddProvider} />;
  return (
    <>
      <Welcome onPick={onPickExample} />
      {folderPicker}
    </>
  );
}
