import type { ReactNode } from 'react';
import { FirstRun } from '../features/onboarding/FirstRun.js';
import { Welcome } from '../components/Welcome.js';
import { LoadingPane } from '../components/LoadingPane.js';

/**
 * No session open: a session loading, nothing until the app knows whether a model is set up (`known`: the core's app
 * info has come), the first-run steps when none is, else the welcome examples and where the new session will work
 * (`folderPicker`).
 */
export function StartPane({
  loading,
  known,
  noModel,
  onAddProvider,
  onPickExample,
  folderPicker,
}: {
  loading: boolean;
  known: boolean;
  noModel: boolean;
  onAddProvider: () => void;
  onPickExample: (task: string) => void;
  folderPicker?: ReactNode;
}) {
  if (loading) return <LoadingPane />;
  // examples a person without a model could not run, or first-run steps one with a model does not need: neither yet
  if (!known) return <div className="start-pending" />;
  if (noModel) return <FirstRun onAddProvider={onAddProvider} />;
  return (
    <>
      <Welcome onPick={onPickExample} />
      {folderPicker}
    </>
  );
}
