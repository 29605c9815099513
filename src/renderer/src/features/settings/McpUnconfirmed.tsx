import { useTranslation } from 'react-i18next';
import {
  launchCommandLine,
  shellWord,
  stdioLaunchOf,
  type StdioLaunch,
} from '../../../../shared/settings/mcp-launch.js';
import type { StdioServerConfig } from '../../../../shared/settings/mcp-settings.js';
import { FailureText, useAction } from '../common/use-action.js';
import type { SectionProps } from './settings-types.js';

/**
 * An imported command nobody has seen yet: shown in full (every argument quoted, every control character escaped,
 * the variables it sets and its folder), and started only once the person confirms this very launch.
 */
export function McpUnconfirmed({
  name,
  entry,
  client,
  onConfirmed,
}: {
  name: string;
  entry: StdioServerConfig;
  client: SectionProps['client'];
  onConfirmed: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const action = useAction();
  const launch: StdioLaunch = stdioLaunchOf(entry);
  return (
    <div className="mcp-launch-confirm" data-testid="mcp-unconfirmed">
      <p>{t('settings.mcp.unconfirmed')}</p>
      <pre className="mono" data-testid="mcp-launch">
        {launchCommandLine(launch)}
      </pre>
      {launch.envNames.length ? (
        <p className="field-help">{t('settings.mcp.setsEnv', { names: launch.envNames.map(shellWord).join(' ') })}</p>
      ) : null}
      {launch.cwd ? (
        <p className="field-help">{t('settings.mcp.inFolder', { folder: shellWord(launch.cwd) })}</p>
      ) : null}
      <FailureText failure={action.failure} />
      <button
        type="button"
        className="primary small"
        disabled={action.busy}
        data-testid="mcp-confirm"
        onClick={() =>
          void action.run(async () => {
            await client.call('confirmMcpServer', { name, launch });
            await onConfirmed();
          })
        }
      >
        {t('settings.mcp.confirm')}
      </button>
    </div>
  );
}
