import { useTranslation } from 'react-i18next';
import { SHORTCUTS, keysText } from './shortcuts.js';
import './shortcut-help.css';

/** The list of keyboard shortcuts, rendered from the registry so it names every one. */
export function ShortcutHelp() {
  const { t } = useTranslation();
  return (
    <table className="shortcut-table" data-testid="shortcut-help">
      <tbody>
        {SHORTCUTS.map(({ id }) => (
          <tr key={id} data-shortcut={id}>
            <td>{t(`shortcuts.${id}`)}</td>
            <td>
              <kbd>{keysText(id)}</kbd>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
