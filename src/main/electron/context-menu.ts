import { Menu, type BrowserWindow, type ContextMenuParams, type MenuItemConstructorOptions } from 'electron';
import type { SpellcheckDownloads } from './spellcheck.js';

/** suggestions shown for a misspelled word, at most */
const MAX_SUGGESTIONS = 5;

/** The items for one right-click: spelling first where a word is misspelled, then the edit actions that apply. */
export function contextMenuTemplate(
  params: Pick<
    ContextMenuParams,
    'isEditable' | 'selectionText' | 'misspelledWord' | 'dictionarySuggestions' | 'editFlags' | 'spellcheckEnabled'
  >,
  window: Pick<BrowserWindow, 'webContents'>,
  spelling: Pick<SpellcheckDownloads, 'allowed' | 'allow'>,
): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = [];
  if (params.isEditable && params.misspelledWord) {
    const suggestions = params.dictionarySuggestions.slice(0, MAX_SUGGESTIONS);
    for (const word of suggestions) {
      items.push({ label: word, click: () => window.webContents.replaceMisspelling(word) });
    }
    if (suggestions.length === 0) items.push({ label: 'No suggestions', enabled: false });
    items.push({
      label: 'Add to Dictionary',
      click: () => window.webContents.session.addWordToSpellCheckerDictionary(params.misspelledWord),
    });
    items.push({ type: 'separator' });
  }
  if (params.isEditable && params.spellcheckEnabled && !spelling.allowed) {
    items.push({ label: 'Download Spelling Dictionaries', click: () => spelling.allow() }, { type: 'separator' });
  }
  if (params.isEditable) {
    items.push(
      { role: 'cut', enabled: params.editFlags.canCut },
      { role: 'copy', enabled: params.editFlags.canCopy },
      { role: 'paste', enabled: params.editFlags.canPaste },
      { type: 'separator' },
      { role: 'selectAll', enabled: params.editFlags.canSelectAll },
    );
  } else if (params.selectionText.trim()) {
    items.push({ role: 'copy' }, { type: 'separator' }, { role: 'selectAll' });
  }
  return items;
}

/** Right-click in the window shows cut, copy, paste, select all and spelling suggestions where they apply. */
export function attachContextMenu(window: BrowserWindow, spelling: SpellcheckDownloads): void {
  window.webContents.on('context-menu', (_event, params) => {
    const template = contextMenuTemplate(params, window, spelling);
    if (template.length > 0) Menu.buildFromTemplate(template).popup({ window });
  });
}
