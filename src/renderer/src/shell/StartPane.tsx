import { FirstRun } from '../features/onboarding/FirstRun.js';
import { Welcome } from '../components/Welcome.js';
import { LoadingPane } from '../components/LoadingPane.js';

/** No session open: a session loading, the first-run steps when no model is set up, else the welcome examples. */
export function StartPane({
  loading,
  noModel,
  onAddProvider,
  onPickExample,
}: {
  loading: boolean;
  noModel: boolean;
  onAddProvider: () => void;
  onPickExample: (task: string) => void;
}) {
  if (loading) return <LoadingPane />;
  return noModel ? <FirstRun onAddProvider={onAddProvider} /> : <Welcome onPick={onPickExample} />;
}
