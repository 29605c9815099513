import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n/i18n.js';
import { pickClient } from './client/pick-client.js';
import { AppStore } from './state/app-store.js';
import { App } from './App.js';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { MissingToken } from './components/MissingToken.js';
import './styles/app.css';

performance.mark('manus:boot');
initI18n();
const choice = pickClient();
const root = createRoot(document.getElementById('root')!);
root.render(
  <StrictMode>
    <ErrorBoundary>{'client' in choice ? <App store={new AppStore(choice.client)} /> : <MissingToken />}</ErrorBoundary>
  </StrictMode>,
);
